import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { activityRepo } from '../store/activity-repo.ts';
import type { TenantRef } from '../store/keys.ts';
import { decodeSortKeyCursor, encodeSortKeyCursor } from '../store/sort-key-cursor.ts';

/** What a page of activity is asked with: `limit` 50 by default (the query schema's), at most 100; an opaque cursor. */
export interface ActivityPageQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** An activity key's shape, `<ISO time>#act_<id>`: the only cursor content taken. */
const ACTIVITY_KEY = /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z#act_[0-9a-z]{20}$/;

/**
 * One page of a user's activity, newest first, for GET /users/{id}/activity
 * (an admin's view of a user) and GET /users/me/activity (the caller's own).
 * The caller names the partition (tenant and user id): only the sort key comes
 * from the cursor, so a cursor cannot reach another user's or tenant's activity.
 */
export async function activityPageOf(deps: Deps, tenant: TenantRef, userId: string, query: ActivityPageQuery) {
  const after = query.cursor ? decodeSortKeyCursor(query.cursor, ACTIVITY_KEY) : null;
  const page = await activityRepo(deps.store).page(tenant, userId, query.limit ?? 50, after, deps.clock.now());
  return { items: page.items, nextCursor: page.after ? encodeSortKeyCursor(page.after) : null };
}

/**
 * GET /users/me/activity: the caller's own activity. The partition is the verified session's tenant and user,
 * never anything the request names.
 */
export function listMyActivity(deps: Deps, tenant: TenantRef, principal: UserPrincipal, query: ActivityPageQuery) {
  return activityPageOf(deps, tenant, principal.userId, query);
}
