import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import { challengeResponse, openCodeChallenge } from './challenges.ts';
import { enforceNotLocked, enforceRateLimit } from './guards.ts';
import { afterFirstFactor, countFailure } from './login-steps.ts';
import { sendOrUndo } from './mail-or-undo.ts';
import { ARGON2_PARAMS, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import type { RequestInfo } from './refresh-token.ts';
import type { LoginRequest } from './schemas.ts';

/**
 * An argon2id hash of a password nobody has, at our parameters: verified for
 * unknown e-mails so that they take as long as known ones (no enumeration by timing).
 */
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => {
  dummyHash ??= hashPassword(`dummy-${ARGON2_PARAMS.memoryCost}-${Math.random()}`);
  return dummyHash;
};

type Method = 'PASSWORD' | 'OTP_EMAIL';

/** Which credential this request offers, and whether the tenant's login mode takes it. */
export function loginMethod(tenant: Merchant, body: LoginRequest): Method {
  const wantsCode = body.loginMode === 'OTP_EMAIL';
  if (wantsCode && body.password !== undefined) {
    throw fail('VALIDATION_FAILED', {
      detail: 'password: not with loginMode OTP_EMAIL',
      errors: [{ path: 'password', message: 'not with loginMode OTP_EMAIL' }],
    });
  }
  const method: Method =
    wantsCode || (body.password === undefined && body.loginMode !== 'PASSWORD') ? 'OTP_EMAIL' : 'PASSWORD';
  switch (tenant.loginMode) {
    case 'PASSWORD':
      if (method === 'OTP_EMAIL' && wantsCode) throw fail('LOGIN_MODE_NOT_ALLOWED');
      if (body.password === undefined) {
        throw fail('VALIDATION_FAILED', {
          detail: 'password: is required',
          errors: [{ path: 'password', message: 'is required' }],
        });
      }
      return 'PASSWORD';
    case 'OTP_EMAIL':
      if (body.password !== undefined || body.loginMode === 'PASSWORD') throw fail('LOGIN_MODE_NOT_ALLOWED');
      return 'OTP_EMAIL';
    default:
      if (body.loginMode === 'PASSWORD' && body.password === undefined) {
        throw fail('VALIDATION_FAILED', {
          detail: 'password: is required',
          errors: [{ path: 'password', message: 'is required' }],
        });
      }
      return method;
  }
}

/**
 * POST /auth/login: a password login, or the start of an e-mail-code login.
 * Unknown e-mails get the same answers as known ones, in about the same time.
 */
export async function login(deps: Deps, tenant: Merchant, body: LoginRequest, request: RequestInfo) {
  const method = loginMethod(tenant, body);
  await enforceRateLimit(deps, tenant, request.ip);
  await enforceNotLocked(deps, tenant, body.email);
  const user = await deps.users.findByEmail(tenant, body.email);

  if (method === 'OTP_EMAIL') {
    const opened = await openCodeChallenge(deps, tenant, {
      type: 'LOGIN_OTP',
      userId: user?.id ?? null,
      email: body.email,
    });
    if (user)
      await sendOrUndo(deps, tenant, opened.challenge.id, user.email, { kind: 'LOGIN_CODE', code: opened.code });
    return challengeResponse(opened.challenge);
  }

  const password = body.password ?? '';
  const hash = user?.passwordHash ?? (await dummyPasswordHash());
  const matches = await verifyPassword(hash, password);
  if (!user || !user.passwordHash || !matches) {
    await countFailure(deps, tenant, body.email, user?.id ?? null, request);
    throw fail('INVALID_CREDENTIALS');
  }
  // Hashes made with older parameters are raised now, while we hold the password.
  if (needsRehash(user.passwordHash)) {
    await deps.users.update(tenant, user.id, { passwordHash: await hashPassword(password) });
  }
  return afterFirstFactor(deps, tenant, user, request);
}
