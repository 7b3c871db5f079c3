import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { keys } from '#shared/store/keys.ts';
import type { TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

/**
 * As if the user's sign-ins were 11 minutes old: past the 10 of a recent authentication (tokens live 15), so the
 * next guarded change asks them to confirm it is them.
 */
export async function ageSignInsOf(tenant: TestTenant, userId: string): Promise<void> {
  const deps = makeTestDeps();
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :session)',
      ExpressionAttributeValues: { ':pk': keys.user(tenant, userId).pk, ':session': keys.sessionPrefix },
    }),
  );
  expect(Items.length).toBeGreaterThan(0);
  for (const item of Items) {
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET authenticatedAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - 11 * 60_000).toISOString() },
      }),
    );
  }
}
