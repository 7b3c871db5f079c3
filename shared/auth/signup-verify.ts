import { recordActivity } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import { answerCodeChallenge, liveChallenge } from './challenges.ts';
import { enforceRateLimit } from './guards.ts';
import type { RequestInfo } from './refresh-token.ts';
import { startSession } from './session-start.ts';

/** POST /auth/signup/verify: the code activates the user (ACTIVE, VALIDATED) and logs them in. */
export async function verifySignup(
  deps: Deps,
  tenant: Merchant,
  body: { challengeId: string; code: string },
  request: RequestInfo,
) {
  await enforceRateLimit(deps, tenant, request.ip);
  const challenge = await liveChallenge(deps, tenant, body.challengeId, ['SIGNUP']);
  const answered = await answerCodeChallenge(deps, tenant, challenge, body.code);
  const pending = answered.pending;
  const activated = await deps.users.update(
    tenant,
    answered.userId,
    {
      status: 'ACTIVE',
      emailStatus: 'VALIDATED',
      ...(pending
        ? {
            passwordHash: pending.passwordHash,
            firstName: pending.firstName,
            lastName: pending.lastName,
            phone: pending.phone,
          }
        : {}),
    },
    'INACTIVE',
  );
  if (!activated) throw fail('INVALID_CODE');
  const user = await deps.users.get(tenant, answered.userId);
  if (!user) throw fail('INVALID_CODE');
  await recordActivity(deps, tenant, user.id, 'SIGNUP', { ...request, actorId: user.id });
  return startSession(deps, tenant, user, request);
}
