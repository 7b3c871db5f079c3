import type { Deps } from '../deps.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { newId } from '../random.ts';
import { type Activity, type ActivityDetail, activityRepo } from '../store/activity-repo.ts';
import type { TenantRef } from '../store/keys.ts';
import type { TransactItem } from '../store/transact.ts';
import type { ActivityType, LoginMethod } from './types.ts';

export type { ActivityType };

/** Where the change came from (the caller's client), and who made it. */
export interface ActivityContext extends Pick<ClientInfo, 'ip' | 'userAgent'> {
  /** The acting user id, `apikey:<keyId>`, or the user themselves. */
  actorId: string;
}

/** What an activity may add: a LOGIN's method, and the detail its webhook event carries. */
export interface ActivityExtra {
  method?: LoginMethod | undefined;
  detail?: ActivityDetail;
}

/** A new activity of a user, now. */
export function newActivity(
  deps: Pick<Deps, 'clock' | 'random'>,
  userId: string,
  type: ActivityType,
  context: ActivityContext,
  { method, detail }: ActivityExtra = {},
): Activity {
  return {
    id: newId(deps.random, 'act'),
    userId,
    type,
    at: deps.clock.now().toISOString(),
    ip: context.ip,
    userAgent: context.userAgent,
    actorId: context.actorId,
    ...(method && { method }),
    ...(detail && { detail }),
  };
}

/** The write of a new activity, for the transaction of the change it records. */
export function activityItem(
  deps: Pick<Deps, 'clock' | 'random' | 'store'>,
  t: TenantRef,
  userId: string,
  type: ActivityType,
  context: ActivityContext,
  extra?: ActivityExtra,
): TransactItem {
  return activityRepo(deps.store).putItem(t, newActivity(deps, userId, type, context, extra));
}

/** Records one activity on its own (when no other write goes with it). */
export async function recordActivity(
  deps: Pick<Deps, 'clock' | 'random' | 'store'>,
  t: TenantRef,
  userId: string,
  type: ActivityType,
  context: ActivityContext,
  extra?: ActivityExtra,
): Promise<void> {
  await activityRepo(deps.store).record(t, newActivity(deps, userId, type, context, extra));
}
