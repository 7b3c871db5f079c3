import { activityItem } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import { sessionRepo } from '../store/session-repo.ts';
import { transact } from '../store/transact.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';
import type { User } from '../users/types.ts';
import { checkCodeChallenge, codeChallengeOf, liveChallenge, openCodeChallenge } from './challenges.ts';
import { enforceRateLimit, proveSignedIn } from './guards.ts';
import { sendOrUndo } from './mail-or-undo.ts';
import { verifyPasswordOrDummy } from './passwords.ts';
import type { UserPrincipal } from './principal.ts';
import type { ReauthenticateRequest } from './schemas.ts';
import { secondFactorIsGood } from './second-factor.ts';
import { withRefusalFloor } from './timing.ts';

/** The three bodies of POST /auth/reauthenticate: a password, the request of an e-mail code, or that code. */
type ReauthMethod = 'PASSWORD' | 'SEND_CODE' | 'CODE';

/**
 * Which of its three bodies a reauthentication is, and whether the tenant's
 * login mode takes that credential. As at login (loginMethod), the mode is
 * judged first: a password in an OTP_EMAIL tenant, or an e-mail code in a
 * PASSWORD tenant, is 403 LOGIN_MODE_NOT_ALLOWED whatever else the body
 * holds; only a body that mixes both, where both are taken, is 400.
 */
export function reauthMethod(tenant: Merchant, body: ReauthenticateRequest): ReauthMethod {
  const hasPassword = body.password !== undefined || body.loginMode === 'PASSWORD';
  const codeStep = body.challengeId !== undefined || body.code !== undefined;
  const wantsCode = body.loginMode === 'OTP_EMAIL' || codeStep;
  if (hasPassword && tenant.loginMode === 'OTP_EMAIL') throw fail('LOGIN_MODE_NOT_ALLOWED');
  if (wantsCode && tenant.loginMode === 'PASSWORD') throw fail('LOGIN_MODE_NOT_ALLOWED');
  if (hasPassword && wantsCode) throw failField('password', 'not with an e-mail code');
  if (hasPassword) {
    if (body.password === undefined) throw failField('password', 'is required');
    return 'PASSWORD';
  }
  if (codeStep) {
    if (body.challengeId === undefined) throw failField('challengeId', 'is required with code');
    if (body.code === undefined) throw failField('code', 'is required with challengeId');
    return 'CODE';
  }
  if (body.loginMode === 'OTP_EMAIL') {
    // The second factor goes with the code, in the step that proves something.
    if (body.totpCode !== undefined) throw failField('totpCode', 'goes with the code, not with its request');
    return 'SEND_CODE';
  }
  throw tenant.loginMode === 'OTP_EMAIL'
    ? failField('loginMode', 'is required: OTP_EMAIL')
    : failField('password', 'is required');
}

/**
 * POST /auth/reauthenticate: the signed-in user proves the first factor again
 * (the password, or an e-mail code where the tenant's mode takes codes), plus
 * a TOTP or backup code when TOTP is on; the session then counts as freshly
 * authenticated for 10 minutes (recent-authentication.ts). Answers nothing
 * (204), or `{ challengeId }` when a code was mailed.
 *
 * Wrong passwords and codes count against the account's login lockout and the
 * per-IP rate limit, exactly as at POST /users/me/password (guardProof): a
 * stolen access token must not become a way to guess the password or a
 * second factor at leisure.
 */
export async function reauthenticate(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: ReauthenticateRequest,
  client: ClientInfo,
): Promise<{ challengeId: string } | undefined> {
  const method = reauthMethod(tenant, body);
  const user = await currentUser(deps, tenant, principal);
  if (method === 'SEND_CODE') return sendReauthCode(deps, tenant, principal, user, client);
  // A refusal answers no sooner than the answer floor: whether the account has a password (or TOTP) does not show.
  await withRefusalFloor(deps.config.answerFloorMs, () =>
    proveAgain(deps, tenant, principal, user, method, body, client),
  );
  return undefined;
}

/** The password or e-mail code (and TOTP) checked, then the session marked as freshly authenticated. */
async function proveAgain(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  user: User,
  method: 'PASSWORD' | 'CODE',
  body: ReauthenticateRequest,
  client: ClientInfo,
): Promise<void> {
  if (user.totpEnabled && body.totpCode === undefined) throw failField('totpCode', 'is required while TOTP is on');
  const codeChallenge =
    method === 'CODE' ? await liveChallenge(deps, tenant, body.challengeId ?? '', ['REAUTH']) : null;
  // A code freshens only the session it was asked in, of the user it was mailed to: another user's or
  // another session's code is refused as unknown (nothing tells the two apart).
  if (codeChallenge && (codeChallenge.userId !== user.id || codeChallenge.sessionId !== principal.sessionId)) {
    throw fail('INVALID_CODE');
  }
  // The proof (first factor and TOTP together) is one guess, reserved in the login lockout before it is looked at.
  await proveSignedIn(deps, tenant, user.email, client.ip, async (attempt) => {
    if (method === 'PASSWORD') {
      // No password (an e-mail-code user) answers as a wrong one, counted and timed the same (a dummy hash checked).
      const matches = await verifyPasswordOrDummy(deps.config.argon2, user.passwordHash, body.password ?? '');
      if (!user.passwordHash || !matches) return 'INVALID_CREDENTIALS';
    } else if (codeChallenge) {
      // A wrong code counts against the challenge (the fifth kills it) and against the account's lockout.
      await checkCodeChallenge(deps, tenant, codeChallenge, body.code ?? '', async () => {
        await attempt.wrong();
      });
    }
    if (user.totpEnabled && !(await secondFactorIsGood(deps, tenant, user, body.totpCode ?? ''))) return 'INVALID_CODE';
    return null;
  });

  const now = deps.clock.now();
  // The session marked and the e-mail code used up together: of two answers racing with one code, one
  // passes; and a session revoked meanwhile (logout, revoke-all, password change) is not brought back.
  const failed = await transact(deps.store, {
    session: sessionRepo(deps.store).reauthenticatedItem(tenant, user.id, principal.sessionId, now),
    code: codeChallenge ? challengeRepo(deps.store).consumeItem(tenant, codeChallengeOf(codeChallenge), now) : null,
    // Recorded with it: a change that needs a recent authentication can be traced to the proof it relied on.
    activity: activityItem(deps, tenant, user.id, 'REAUTHENTICATED', { ...client, actorId: user.id }),
  });
  if (failed.has('session')) throw fail('SESSION_REVOKED');
  if (failed.has('code')) throw fail('INVALID_CODE');
}

/**
 * `{ loginMode: "OTP_EMAIL" }`: mails a code to the user's own address, bound
 * to this session. Mail on behalf of a signed-in caller: a failed send answers
 * 503 and takes the challenge back (sendOrUndo). Only the rate limit is asked
 * here; the answer with the code is what counts against the lockout.
 */
async function sendReauthCode(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  user: { id: string; email: string },
  client: ClientInfo,
) {
  await enforceRateLimit(deps, tenant, client.ip);
  const opened = await openCodeChallenge(deps, tenant, {
    type: 'REAUTH',
    userId: user.id,
    email: user.email,
    sessionId: principal.sessionId,
  });
  const mail = { kind: 'REAUTH_CODE', code: opened.code } as const;
  await sendOrUndo(deps, tenant, opened.challenge.id, user.email, mail, client.language);
  return { challengeId: opened.challenge.id };
}
