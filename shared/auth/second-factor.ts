import type { Deps } from '../deps.ts';
import type { TenantRef } from '../store/keys.ts';
import type { User } from '../users/types.ts';
import { hashBackupCode, looksLikeBackupCode, totpSecretContext, totpStepOf } from './totp.ts';

/** The user's TOTP secret, decrypted (only functions granted kms:Decrypt can). */
export async function totpSecretOf(deps: Deps, userId: string, sealed: string): Promise<string> {
  return Buffer.from(await deps.vault.decrypt(sealed, totpSecretContext(userId))).toString('utf8');
}

/**
 * Checks a TOTP code (±1 step) or a backup code for a user with TOTP on.
 * Each is accepted once: the step or the backup code is used up by a
 * conditional write, so a replay, or a second request racing with the same
 * code, is refused.
 */
export async function secondFactorIsGood(deps: Deps, tenant: TenantRef, user: User, code: string): Promise<boolean> {
  if (!user.totpEnabled || !user.totpSecret) return false;
  if (looksLikeBackupCode(code)) return deps.users.useBackupCode(tenant, user, hashBackupCode(code));
  const step = totpStepOf(await totpSecretOf(deps, user.id, user.totpSecret), code, deps.clock.now());
  return step !== null && (await deps.users.acceptTotpStep(tenant, user.id, step));
}
