import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { deviceFingerprint } from '../sessions/fingerprint.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import { mailSuppressionKey } from '../store/mail-suppression-repo.ts';
import { passwordSession } from '../store/password-session.ts';
import type { Device } from '../store/session-repo.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from '../users/types.ts';
import { challengeResponse, openCodeChallenge } from './challenges.ts';
import { type Attempt, enforceNotLocked, enforceRateLimit, evaluating, reserveAttempt } from './guards.ts';
import { afterFirstFactor, countFailure } from './login-steps.ts';
import { sendQuietlyOrUndo } from './mail-or-undo.ts';
import { hashPassword, needsRehash, verifyPasswordOrDummy } from './passwords.ts';
import type { LoginRequest } from './schemas.ts';
import { withRefusalFloor, withTimeFloor } from './timing.ts';

type Method = 'PASSWORD' | 'OTP_EMAIL';

const passwordRequired = () => failField('password', 'is required');

/**
 * Which credential this request offers, and whether the tenant's login mode
 * takes it. The tenant's mode is judged first: a
 * credential it does not accept is 403 LOGIN_MODE_NOT_ALLOWED whatever else
 * the body holds; only a mode taking both can find a body ambiguous (400).
 */
export function loginMethod(tenant: Merchant, body: LoginRequest): Method {
  const wantsCode = body.loginMode === 'OTP_EMAIL';
  const hasPassword = body.password !== undefined;
  switch (tenant.loginMode) {
    case 'PASSWORD':
      if (wantsCode) throw fail('LOGIN_MODE_NOT_ALLOWED');
      if (!hasPassword) throw passwordRequired();
      return 'PASSWORD';
    case 'OTP_EMAIL':
      if (hasPassword || body.loginMode === 'PASSWORD') throw fail('LOGIN_MODE_NOT_ALLOWED');
      return 'OTP_EMAIL';
    default:
      if (wantsCode && hasPassword) {
        throw failField('password', 'not with loginMode OTP_EMAIL');
      }
      if (body.loginMode === 'PASSWORD' && !hasPassword) throw passwordRequired();
      return hasPassword ? 'PASSWORD' : 'OTP_EMAIL';
  }
}

/**
 * What login prefetches with the tenant (httpHandler's `prefetch`): the e-mail's claim and its lockout, and for a
 * body without a password (the only one that can mail a code) the address's mail suppression, which the
 * code's send path then reads at no round trip of its own.
 */
export function loginPrefetch(body: LoginRequest, tenant: TenantRef) {
  const keysRead = [keys.userEmail(tenant, body.email), keys.lockout(tenant, body.email)];
  return body.password === undefined ? [...keysRead, mailSuppressionKey(tenant, body.email)] : keysRead;
}

/**
 * POST /auth/login: a password login, or the start of an e-mail-code login. Unknown e-mails get the same answers as
 * known ones, in the same time: a code request, and every refusal, answer no sooner than the answer floor.
 */
export async function login(deps: Deps, tenant: Merchant, body: LoginRequest, client: ClientInfo) {
  const method = loginMethod(tenant, body);
  const floor = deps.config.answerFloorMs;
  if (method === 'OTP_EMAIL') return withTimeFloor(floor, () => requestLoginCode(deps, tenant, body.email, client));
  return withRefusalFloor(floor, () => passwordLogin(deps, tenant, body, client));
}

async function passwordLogin(deps: Deps, tenant: Merchant, body: LoginRequest, client: ClientInfo) {
  // Independent steps, in parallel (one round trip before the password is looked at): the rate limit, the
  // attempt reserved in the lockout (from the lock item read with the tenant), the e-mail's profile and the
  // record of this device (written at login only when new or stale).
  // The refusals keep their order: rate limit first, then the lockout; a reserved attempt whose
  // request is refused is given back.
  const fingerprint = deviceFingerprint(client.userAgent);
  const [rate, reserved, found] = await Promise.allSettled([
    enforceRateLimit(deps, tenant, client.ip),
    reserveAttempt(deps, tenant, body.email),
    passwordSession(deps.store).findWithDevice(tenant, body.email, deps.clock.now(), fingerprint),
  ]);
  for (const outcome of [rate, reserved, found]) {
    if (outcome.status === 'rejected') {
      if (reserved.status === 'fulfilled') await reserved.value.release();
      throw outcome.reason;
    }
  }
  const attempt = (reserved as PromiseFulfilledResult<Attempt>).value;
  const { user, device } = (found as PromiseFulfilledResult<{ user: User | null; device: Device | null }>).value;

  return evaluating(attempt, async () => {
    const password = body.password ?? '';
    // Checked for every address, a dummy hash standing in for a missing one.
    const matches = await verifyPasswordOrDummy(deps.config.argon2, user?.passwordHash, password);
    if (!user?.passwordHash || !matches) {
      await countFailure(deps, tenant, attempt, user?.id ?? null, client);
      throw fail('INVALID_CREDENTIALS');
    }
    // Hashes made with older parameters are raised now, while we hold the password; only over the hash checked,
    // never over a password changed meanwhile (that would bring the old one back).
    if (needsRehash(deps.config.argon2, user.passwordHash)) {
      await userRepo(deps.store).update(
        tenant,
        user.id,
        { passwordHash: await hashPassword(deps.config.argon2, password) },
        undefined,
        {
          passwordHash: user.passwordHash,
        },
      );
    }
    return afterFirstFactor(deps, tenant, user, client, attempt, { amr: ['pwd'], device });
  });
}

/**
 * The start of an e-mail-code login: nothing is evaluated yet, so no attempt
 * is reserved; a locked address is still refused (429).
 */
async function requestLoginCode(deps: Deps, tenant: Merchant, email: string, client: ClientInfo) {
  const [rate, lock, found] = await Promise.allSettled([
    enforceRateLimit(deps, tenant, client.ip),
    enforceNotLocked(deps, tenant, email),
    userRepo(deps.store).findByEmail(tenant, email, deps.clock.now()),
  ]);
  for (const outcome of [rate, lock, found]) if (outcome.status === 'rejected') throw outcome.reason;
  const user = (found as PromiseFulfilledResult<User | null>).value;
  const opened = await openCodeChallenge(deps, tenant, {
    type: 'LOGIN_OTP',
    userId: user?.id ?? null,
    email,
  });
  if (user) {
    await sendQuietlyOrUndo(
      deps,
      tenant,
      opened.challenge.id,
      user.email,
      { kind: 'LOGIN_CODE', code: opened.code },
      client.language,
    );
  }
  return challengeResponse(opened.challenge);
}
