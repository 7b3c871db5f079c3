import { activityItem } from '../activity/record.ts';
import { evaluating, guardProof, proveSignedIn } from '../auth/guards.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import { secondFactorIsGood, totpSecretOf } from '../auth/second-factor.ts';
import { hashBackupCode, newBackupCodes, newTotpSecret, totpSecretContext, totpStepOf, totpUri } from '../auth/totp.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { requireRecentAuthentication } from '../sessions/recent-authentication.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';

/**
 * POST /users/me/totp/init: a new secret (stored encrypted) and 10 backup
 * codes (120 bits each, stored as hashes salted with the user id), pending
 * until a code confirms them. The codes and the secret are shown this once.
 */
export async function initTotp(deps: Deps, tenant: Merchant, principal: UserPrincipal) {
  if (tenant.totpAllowed === false) throw fail('TOTP_NOT_ALLOWED');
  // A stolen access token must not enrol the thief's authenticator and lock the owner out.
  requireRecentAuthentication(deps, principal);
  const user = await currentUser(deps, tenant, principal);
  if (user.totpEnabled) throw fail('TOTP_ALREADY_ENABLED');
  const secret = newTotpSecret();
  const backupCodes = newBackupCodes(deps.random);
  const stored = await userRepo(deps.store).update(
    tenant,
    user.id,
    {
      totpPendingSecret: await deps.vault.encrypt(Buffer.from(secret, 'utf8'), totpSecretContext(user.id)),
      totpPendingBackupCodes: backupCodes.map((code) => hashBackupCode(user.id, code)),
    },
    undefined,
    { totpEnabled: false },
  );
  if (!stored) throw fail('TOTP_ALREADY_ENABLED');
  return { qrUri: totpUri(secret, tenant.name, user.email), backupCodes };
}

/**
 * POST /users/me/totp/verify: a code of the pending secret turns TOTP on.
 * The write is conditional on the pending secret still being there and TOTP
 * off, and records the code's step: of two verifications with one code, one wins.
 */
export async function verifyTotp(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  code: string,
  client: ClientInfo,
): Promise<void> {
  // Turning TOTP on is the step that takes effect: checked again, the init's freshness may have lapsed.
  requireRecentAuthentication(deps, principal);
  const user = await userRepo(deps.store).get(tenant, principal.userId);
  if (!user) throw fail('SESSION_REVOKED');
  if (user.totpEnabled) throw fail('TOTP_ALREADY_ENABLED');
  if (!user.totpPendingSecret) throw fail('CONFLICT', 'start with POST /users/me/totp/init');
  const pendingSecret = user.totpPendingSecret;
  const proof = await guardProof(deps, tenant, user.email, client.ip);
  const step = await evaluating(proof, async () => {
    const good = totpStepOf(await totpSecretOf(deps, user.id, pendingSecret), code, deps.clock.now());
    if (good === null) {
      await proof.wrong();
      throw fail('INVALID_CODE');
    }
    await proof.release(); // a right code: its place in the window is free again
    return good;
  });
  // The change and its TOTP_ENABLED record in one transaction (its webhook event exactly when it commits).
  const failed = await transact(deps.store, {
    profile: userRepo(deps.store).updateItem(
      tenant,
      user.id,
      {
        totpEnabled: true,
        totpSecret: user.totpPendingSecret,
        backupCodes: user.totpPendingBackupCodes,
        totpLastStep: step,
        totpPendingSecret: null,
        totpPendingBackupCodes: [],
      },
      { totpEnabled: false, totpPendingSecret: user.totpPendingSecret },
    ),
    activity: activityItem(deps, tenant, user.id, 'TOTP_ENABLED', { ...client, actorId: user.id }),
  });
  if (failed.size > 0) throw fail('INVALID_CODE');
}

/**
 * POST /users/me/totp/disable: a valid code (TOTP or backup, once) turns it
 * off, unless the tenant does not let users do that.
 */
export async function disableTotp(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  code: string,
  client: ClientInfo,
): Promise<void> {
  if (tenant.allowUserDisableTotp === false) throw fail('TOTP_REMOVAL_NOT_ALLOWED');
  // A backup code alone (found with a stolen token's help, or in a desk drawer) must not strip the second factor.
  requireRecentAuthentication(deps, principal);
  const user = await userRepo(deps.store).get(tenant, principal.userId);
  if (!user) throw fail('SESSION_REVOKED');
  if (!user.totpEnabled) throw fail('CONFLICT', 'TOTP is not on');
  await proveSignedIn(deps, tenant, user.email, client.ip, async () =>
    (await secondFactorIsGood(deps, tenant, user, code)) ? null : 'INVALID_CODE',
  );
  const failed = await transact(deps.store, {
    profile: userRepo(deps.store).updateItem(
      tenant,
      user.id,
      { totpEnabled: false, totpSecret: null, backupCodes: [] },
      { totpEnabled: true },
    ),
    activity: activityItem(deps, tenant, user.id, 'TOTP_DISABLED', { ...client, actorId: user.id }),
  });
  if (failed.size > 0) throw fail('CONFLICT', 'TOTP is not on');
}
