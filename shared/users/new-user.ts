import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import { grantOf } from '../roles/authority.ts';
import { expiredSignupRepo } from '../store/expired-signup-repo.ts';
import type { TenantRef } from '../store/keys.ts';
import { roleRepo } from '../store/role-repo.ts';
import type { TransactItem } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Grant, User } from './types.ts';

/** Every new user holds DEFAULT: the grant for a new profile. */
export async function defaultGrant(deps: Deps, tenant: TenantRef, now: Date): Promise<Record<string, Grant>> {
  const roleId = await roleRepo(deps.store).idByName(tenant, 'DEFAULT');
  if (!roleId) throw new Error('tenant has no DEFAULT role');
  return {
    [roleId]: grantOf({ id: roleId, name: 'DEFAULT', priority: 99 }, now.toISOString()),
  };
}

/**
 * A new user's profile: a fresh id, the DEFAULT role, no TOTP, registered
 * now. The caller says what is particular (status, e-mail, names, password).
 */
export async function newUser(
  deps: Deps,
  tenant: TenantRef,
  fields: Pick<User, 'email' | 'status' | 'emailStatus'> &
    Partial<
      Pick<User, 'firstName' | 'lastName' | 'phone' | 'passwordHash' | 'emailValidationExpiresAt' | 'invitationHash'>
    >,
): Promise<User> {
  const now = deps.clock.now();
  return {
    id: newId(deps.random, 'usr'),
    firstName: null,
    lastName: null,
    phone: null,
    passwordHash: null,
    emailValidationExpiresAt: null,
    invitationHash: null,
    ...fields,
    totpEnabled: false,
    totpSecret: null,
    totpLastStep: null,
    backupCodes: [],
    totpPendingSecret: null,
    totpPendingBackupCodes: [],
    grants: await defaultGrant(deps, tenant, now),
    registeredAt: now.toISOString(),
    lastLoginAt: null,
    lockedUntil: null,
    credentialEpoch: 0,
    passkeyCount: 0,
    liveSessions: {},
  };
}

/**
 * Stores a new user (users.create: its e-mail claim, profile and `also` in
 * one transaction). An address held by a signup never verified and expired is
 * free (docs/security.md#unverified-signups): the user takes it over, the stale signup deleted
 * in the same transaction.
 */
export async function createUser(
  deps: Deps,
  tenant: TenantRef,
  user: User,
  also: readonly TransactItem[],
): Promise<'CREATED' | 'EMAIL_TAKEN'> {
  if ((await userRepo(deps.store).create(tenant, user, also)) === 'CREATED') return 'CREATED';
  return expiredSignupRepo(deps.store).createInPlace(tenant, user, also);
}
