import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { describeDevice } from '../sessions/device.ts';
import { keys } from '../store/keys.ts';
import type { Merchant } from '../tenancy/types.ts';
import { targetUser } from './admin.ts';

// Its own module: the User-Agent parser (ua-parser-js, ~20 KB) goes only into the bundle that lists devices.

/** GET /users/{id}/devices */
export async function listUserDevices(deps: Deps, tenant: Merchant, id: string) {
  const target = await targetUser(deps, tenant, id);
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(tenant, target.id), ':prefix': keys.devicePrefix },
    }),
  );
  return (Items ?? [])
    .map((item) => {
      const device = describeDevice((item.userAgent as string | undefined) ?? '');
      return {
        fingerprint: item.fingerprint as string,
        os: device.os,
        browser: device.browser,
        firstSeenAt: item.firstSeenAt as string,
        lastSeenAt: item.lastSeenAt as string,
        seenCount: item.seenCount as number,
      };
    })
    .sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt));
}
