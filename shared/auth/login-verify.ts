import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { checkCodeChallenge, codeChallengeOf, liveChallenge } from './challenges.ts';
import { enforceRateLimit, evaluating, reserveAttempt } from './guards.ts';
import { afterFirstFactor, assertMayLogIn, countFailure, succeed } from './login-steps.ts';
import { secondFactorIsGood } from './second-factor.ts';

/** What login verify prefetches with the tenant (httpHandler's `prefetch`): the challenge. */
export function verifyLoginPrefetch(body: { challengeId: string }, tenant: TenantRef) {
  return [keys.challenge(tenant, body.challengeId)];
}

/** POST /auth/login/verify: the e-mail code, or the TOTP (or backup) code after a first factor. */
export async function verifyLogin(
  deps: Deps,
  tenant: Merchant,
  body: { challengeId: string; code: string },
  client: ClientInfo,
) {
  // Independent reads in parallel; the refusals keep their order (rate limit, then the challenge).
  const [rate, live] = await Promise.allSettled([
    enforceRateLimit(deps, tenant, client.ip),
    liveChallenge(deps, tenant, body.challengeId, ['LOGIN_OTP', 'LOGIN_TOTP']),
  ]);
  if (rate.status === 'rejected') throw rate.reason;
  if (live.status === 'rejected') throw live.reason;
  const challenge = live.value;
  // The attempt reserved in the address's login lockout before the code is looked at, with the
  // challenge's user (only used once the code is good).
  const [reserved, found] = await Promise.allSettled([
    reserveAttempt(deps, tenant, challenge.email),
    challenge.userId ? userRepo(deps.store).get(tenant, challenge.userId) : null,
  ]);
  if (reserved.status === 'rejected') throw reserved.reason;
  const attempt = reserved.value;
  if (found.status === 'rejected') {
    await attempt.release();
    throw found.reason;
  }
  const countWrong = () => countFailure(deps, tenant, attempt, challenge.userId, client);

  return evaluating(attempt, async () => {
    // The code is checked here and used up in the login's own transaction (or when the TOTP step opens):
    // a fault before that leaves it good for a retry.
    if (challenge.type === 'LOGIN_OTP') {
      const answered = await checkCodeChallenge(deps, tenant, challenge, body.code, countWrong);
      const user = found.value?.id === answered.userId ? found.value : null;
      if (!user) throw fail('INVALID_CODE');
      return afterFirstFactor(deps, tenant, user, client, attempt, {
        consumes: codeChallengeOf(challenge),
        amr: ['otp'],
      });
    }

    // The first factor was checked in an earlier request: if the credential epoch moved on since (password
    // changed or reset, every session ended), that check no longer counts. The session then conditions on
    // this read's epoch, equal to the step's.
    const read = found.value;
    const user = read && read.credentialEpoch === (challenge.credentialEpoch ?? read.credentialEpoch) ? read : null;
    if (!user || !(await secondFactorIsGood(deps, tenant, user, body.code))) {
      await challengeRepo(deps.store).recordWrongAnswer(tenant, challenge.id);
      await countWrong();
      throw fail('INVALID_CODE');
    }
    assertMayLogIn(user);
    // Two factors: the first (a password or a mailed code, kept on the step) and the authenticator's code.
    const amr = [...new Set([challenge.firstFactor ?? 'pwd', 'otp']), 'mfa'];
    return succeed(deps, tenant, user, client, attempt, { consumes: challenge.id, amr });
  });
}
