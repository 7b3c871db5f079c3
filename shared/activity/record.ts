import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import { RECORD_RETENTION_MS, ttlAfter } from '../store/ttl.ts';
import type { ActivityType } from './types.ts';

export type { ActivityType };

export interface ActivityContext {
  ip: string;
  userAgent: string;
  /** The acting user id, `apikey:<keyId>`, or the user themselves. */
  actorId: string;
}

/** The activity item, for a transaction of the change it records. */
export function activityItem(
  deps: Pick<Deps, 'clock' | 'random'>,
  t: TenantRef,
  userId: string,
  type: ActivityType,
  context: ActivityContext,
) {
  const at = deps.clock.now();
  const id = newId(deps.random, 'act');
  return {
    ...keys.activity(t, userId, at.toISOString(), id),
    entity: 'ACTIVITY',
    id,
    userId,
    type,
    at: at.toISOString(),
    // A user agent is the client's to choose: keep it bounded.
    ip: context.ip.slice(0, 64),
    userAgent: context.userAgent.slice(0, 512),
    actorId: context.actorId,
    // Kept 400 days.
    ttl: ttlAfter(at, RECORD_RETENTION_MS),
  };
}

/** Records one activity on its own (when no other write goes with it). */
export async function recordActivity(
  deps: Pick<Deps, 'clock' | 'random' | 'store'>,
  t: TenantRef,
  userId: string,
  type: ActivityType,
  context: ActivityContext,
): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({ TableName: deps.store.tableName, Item: activityItem(deps, t, userId, type, context) }),
  );
}
