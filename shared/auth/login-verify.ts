import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import { answerCodeChallenge, consume, liveChallenge } from './challenges.ts';
import { enforceNotLocked, enforceRateLimit } from './guards.ts';
import { afterFirstFactor, assertMayLogIn, countFailure, succeed } from './login-steps.ts';
import type { RequestInfo } from './refresh-token.ts';
import { secondFactorIsGood } from './second-factor.ts';

/** POST /auth/login/verify: the e-mail code, or the TOTP (or backup) code after a first factor. */
export async function verifyLogin(
  deps: Deps,
  tenant: Merchant,
  body: { challengeId: string; code: string },
  request: RequestInfo,
) {
  await enforceRateLimit(deps, tenant, request.ip);
  const challenge = await liveChallenge(deps, tenant, body.challengeId, ['LOGIN_OTP', 'LOGIN_TOTP']);
  await enforceNotLocked(deps, tenant, challenge.email);
  const countWrong = () => countFailure(deps, tenant, challenge.email, challenge.userId, request);

  if (challenge.type === 'LOGIN_OTP') {
    const answered = await answerCodeChallenge(deps, tenant, challenge, body.code, countWrong);
    const user = await deps.users.get(tenant, answered.userId);
    if (!user) throw fail('INVALID_CODE');
    return afterFirstFactor(deps, tenant, user, request);
  }

  const user = challenge.userId ? await deps.users.get(tenant, challenge.userId) : null;
  if (!user || !(await secondFactorIsGood(deps, tenant, user, body.code))) {
    await deps.challenges.recordWrongAnswer(tenant, challenge.id);
    await countWrong();
    throw fail('INVALID_CODE');
  }
  await consume(deps, tenant, challenge);
  assertMayLogIn(user);
  return succeed(deps, tenant, user, request);
}
