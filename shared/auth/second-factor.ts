import type { Deps } from '../deps.ts';
import type { TenantRef } from '../store/keys.ts';
import { userRepo } from '../store/user-repo.ts';
import type { User } from '../users/types.ts';
import { storedBackupCodeHash, totpSecretContext, totpStepOf } from './totp.ts';

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
  // A backup code (current or legacy format) is looked up by the hash it would be stored under.
  const backupHash = storedBackupCodeHash(user.id, code);
  if (backupHash !== null) return userRepo(deps.store).useBackupCode(tenant, user, backupHash);
  const step = totpStepOf(await totpSecretOf(deps, user.id, user.totpSecret), code, deps.clock.now());
  return step !== null && (await userRepo(deps.store).acceptTotpStep(tenant, user.id, step));
}
