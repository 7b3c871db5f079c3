import type { Deps } from '../deps.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { openCodeChallenge } from './challenges.ts';
import { enforceRateLimit } from './guards.ts';
import { sendQuietlyOrUndo } from './mail-or-undo.ts';
import { withTimeFloor } from './timing.ts';

/**
 * Users who may reset their password: the others' mail would tell them nothing
 * they can use. COMPROMISED ones too: marking a user COMPROMISED voids the
 * password, and a reset is how the owner sets a new one (and becomes ACTIVE).
 */
const MAY_RESET = new Set(['ACTIVE', 'COMPROMISED']);

/** POST /auth/forgot-password: mails a reset code; the answer is the same for unknown e-mails. */
export async function forgotPassword(deps: Deps, tenant: Merchant, email: string, client: ClientInfo) {
  await enforceRateLimit(deps, tenant, client.ip);
  return withTimeFloor(deps.config.answerFloorMs, async () => {
    const user = await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now());
    const owner = user && MAY_RESET.has(user.status) ? user : null;
    const opened = await openCodeChallenge(deps, tenant, { type: 'PASSWORD_RESET', userId: owner?.id ?? null, email });
    if (owner) {
      await sendQuietlyOrUndo(
        deps,
        tenant,
        opened.challenge.id,
        owner.email,
        { kind: 'PASSWORD_RESET_CODE', code: opened.code },
        client.language,
      );
    }
    return { challengeId: opened.challenge.id };
  });
}
