import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { isExpiredSignup, userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from './types.ts';

/** The caller's profile: the one the bearer check read, or a fresh read. */
export async function currentUser(deps: Deps, tenant: Merchant, principal: UserPrincipal): Promise<User> {
  const user = principal.user ?? (await userRepo(deps.store).get(tenant, principal.userId));
  if (!user) throw fail('SESSION_REVOKED');
  return user;
}

const USER_ID = /^usr_[0-9a-z]{20}$/;

/** The user of this tenant with this id, or 404 (ids of other tenants are simply not found here). */
export async function targetUser(deps: Deps, tenant: Merchant, id: string): Promise<User> {
  const user = USER_ID.test(id) ? await userRepo(deps.store).get(tenant, id) : null;
  // A signup never verified is gone after 24 h (docs/security.md#unverified-signups), for admins too.
  if (!user || isExpiredSignup(user, deps.clock.now())) throw fail('NOT_FOUND');
  return user;
}
