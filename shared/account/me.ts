import { activityItem } from '../activity/record.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';
import { toUserResponse } from '../users/view.ts';

/** GET /users/me */
export async function getMe(deps: Deps, tenant: Merchant, principal: UserPrincipal) {
  return toUserResponse(await currentUser(deps, tenant, principal), deps.clock.now());
}

const PROFILE_FIELDS = ['firstName', 'lastName', 'phone'] as const;

/**
 * PATCH /users/me: names and phone only (the schema refuses anything else). What changed is written with its
 * PROFILE_UPDATED activity in one transaction (the `user.updated` webhook event); nothing changed, nothing written.
 */
export async function updateMe(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: { firstName?: string; lastName?: string; phone?: string | null },
  client: ClientInfo,
) {
  const current = await currentUser(deps, tenant, principal);
  const fields = PROFILE_FIELDS.filter((field) => body[field] !== undefined && body[field] !== current[field]);
  if (fields.length === 0) return toUserResponse(current, deps.clock.now());
  const change = Object.fromEntries(fields.map((field) => [field, body[field]]));
  const failed = await transact(deps.store, {
    user: userRepo(deps.store).updateItem(tenant, principal.userId, change, { status: current.status }),
    activity: activityItem(
      deps,
      tenant,
      principal.userId,
      'PROFILE_UPDATED',
      { ...client, actorId: principal.userId },
      { detail: { fields: [...fields] } },
    ),
  });
  // Gone, or its status changed meanwhile (disabled: its sessions end too).
  if (failed.size > 0) throw fail('SESSION_REVOKED');
  return toUserResponse({ ...current, ...change }, deps.clock.now());
}
