import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { epochIs, type Placeholders } from './credential-epoch.ts';
import { conditionalWrite } from './errors.ts';
import { keys, type TenantRef } from './keys.ts';
import { boundToClient, NOT_REVOKED } from './session-repo.ts';

/** The refresh grace's one write (POST /auth/refresh and the OpenID Connect token endpoint: kept out of the session repo every bearer bundle carries). */
export function refreshGraceRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * A refresh token used again within the grace gets the successor its first
     * use got: only while that successor (by hash) is still the session's
     * current token (the chain has not moved on since), the session live,
     * within its 7 days and at the user's credential epoch, the same
     * conditions as a rotation. Nothing rotates, nothing is extended: only
     * lastActivityAt is set. One UpdateItem, not a transaction: concurrent
     * grace answers on one session serialise instead of cancelling each
     * other. False when a condition failed.
     */
    async continueChain(
      t: TenantRef,
      userId: string,
      sessionId: string,
      successorHash: string,
      now: Date,
      epoch: number,
      client: string | null = null,
    ): Promise<boolean> {
      const at: Placeholders = { names: {}, values: {} };
      const atEpoch = epochIs('epoch', epoch, at);
      const boundHere = boundToClient(client);
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.session(t, userId, sessionId),
            UpdateExpression: 'SET lastActivityAt = :now',
            ConditionExpression: `refreshHash = :successor AND ${NOT_REVOKED} AND refreshExpiresAt > :now AND ${atEpoch} AND ${boundHere.condition}`,
            ExpressionAttributeNames: at.names,
            ExpressionAttributeValues: {
              ...boundHere.values,
              ':successor': successorHash,
              ':now': now.toISOString(),
              ':null': null,
              ...at.values,
            },
          }),
        ),
      );
    },
  };
}
