import { describe, expect, it } from 'vitest';
import { handler as forgotPasswordHandler } from '#functions/auth/forgot-password.ts';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as loginVerifyHandler } from '#functions/auth/login-verify.ts';
import { handler as resetPasswordHandler } from '#functions/auth/reset-password.ts';
import { handler as signupHandler } from '#functions/auth/signup.ts';
import { handler as signupVerifyHandler } from '#functions/auth/signup-verify.ts';
import { handler as inviteUserHandler } from '#functions/users/invite-user.ts';
import { handler as startEmailChangeHandler } from '#functions/users/start-email-change.ts';
import { handler as verifyEmailChangeHandler } from '#functions/users/verify-email-change.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { anEmail, aStoredUser } from '#test/support/admin.ts';
import { aUser } from '#test/support/auth.ts';
import {
  ALLOWED,
  anIp,
  aRequest,
  aSessionOf,
  codeIn,
  describeAnswer,
  expectUnavailable,
  instrumentedDeps,
  invitationTokenIn,
  invokeWith,
  unexplained,
  useFaultStack,
} from '#test/support/faults.ts';

/**
 * SES failing, for every flow that mails a code or a token (sign-up, login by
 * e-mail code, forgot-password, e-mail change, invitation): the store keeps
 * nothing of the request (no challenge, user, claim or invitation; only the
 * rate count), the code or token that never arrived does not work, and once
 * SES is back the same request works and its code does. What it answers
 * (docs/security.md#mail-failures): where the answer for an unknown address must equal
 * a known one's (sign-up, forgot-password, e-mail-code login), exactly what a
 * sent mail's would, the failure logged with the request id; mail on behalf
 * of a signed-in caller or an admin (e-mail change, invitation), 503 UNAVAILABLE.
 */

/** `codeTenant`: a tenant taking passwords or e-mail codes. */
const {
  ses,
  tenants: [tenant, codeTenant],
  admin,
} = useFaultStack({ tenants: [{}, { loginMode: 'PASSWORD_OR_OTP_EMAIL' }], signedInAdmin: true });

type Handler = Parameters<typeof invokeWith>[1];

/** One mailing flow: the request that mails, and how what it mails is redeemed. */
interface MailingFlow {
  tenant: () => Merchant;
  /** Whatever the request needs; `to` is where the mail goes. */
  setup(): Promise<{ to: string; bearer?: string; body: unknown }>;
  send: { handler: Handler; path: string; status: number };
  /** The code or token in the mail. */
  secretIn(text: string): string;
  /** The request that redeems the secret (`challengeId`: the challenge the mailing request opened, if any). */
  redeem(
    fixture: { to: string; bearer?: string },
    secret: string,
    challengeId: string,
  ): { handler: Handler; path: string; body: unknown; bearer?: string };
  /** What redeeming a secret whose mail failed answers. */
  refused: { status: number; code: string };
  /** What the request answers when its mail fails: what a sent one does (no enumeration), or 503. */
  whenMailFails: 'answered as sent' | 'unavailable';
  /** The body of a sent mail's answer. */
  answered?: unknown;
  redeemed: number;
}

const flows: [string, MailingFlow][] = [
  [
    'POST /auth/signup',
    {
      tenant: () => tenant,
      setup: async () => {
        const to = anEmail('signup');
        return {
          to,
          body: {
            app: tenant.app,
            mid: tenant.mid,
            email: to,
            password: 'Monstera-42-leaf',
            firstName: 'M',
            lastName: 'S',
          },
        };
      },
      send: { handler: signupHandler, path: '/auth/signup', status: 201 },
      answered: { success: true, data: { challengeId: expect.any(String) } },
      secretIn: codeIn,
      redeem: (_f, code, challengeId) => ({
        handler: signupVerifyHandler,
        path: '/auth/signup/verify',
        body: { challengeId, code },
      }),
      refused: { status: 401, code: 'INVALID_CODE' },
      whenMailFails: 'answered as sent',
      redeemed: 200,
    },
  ],
  [
    'POST /auth/login for an e-mail code',
    {
      tenant: () => codeTenant,
      setup: async () => {
        const to = (await aStoredUser(codeTenant)).email;
        return { to, body: { email: to, loginMode: 'OTP_EMAIL' } };
      },
      send: { handler: loginHandler, path: '/auth/login', status: 200 },
      answered: {
        success: true,
        data: {
          challengeRequired: true,
          challengeType: 'OTP_EMAIL',
          challengeId: expect.any(String),
          expiresAt: expect.any(String),
        },
      },
      secretIn: codeIn,
      redeem: (_f, code, challengeId) => ({
        handler: loginVerifyHandler,
        path: '/auth/login/verify',
        body: { challengeId, code },
      }),
      refused: { status: 401, code: 'INVALID_CODE' },
      whenMailFails: 'answered as sent',
      redeemed: 200,
    },
  ],
  [
    'POST /auth/forgot-password',
    {
      tenant: () => tenant,
      setup: async () => {
        const to = (await aUser(tenant)).email;
        return { to, body: { email: to } };
      },
      send: { handler: forgotPasswordHandler, path: '/auth/forgot-password', status: 202 },
      answered: { challengeId: expect.any(String) },
      secretIn: codeIn,
      redeem: (_f, code, challengeId) => ({
        handler: resetPasswordHandler,
        path: '/auth/reset-password',
        body: { challengeId, code, newPassword: 'Philodendron-7-vine' },
      }),
      refused: { status: 401, code: 'INVALID_CODE' },
      whenMailFails: 'answered as sent',
      redeemed: 204,
    },
  ],
  [
    'POST /users/me/email-change',
    {
      tenant: () => tenant,
      setup: async () => {
        const user = await aStoredUser(tenant);
        const to = anEmail('moved');
        return { to, bearer: (await aSessionOf(tenant, user.id)).accessToken, body: { newEmail: to } };
      },
      send: { handler: startEmailChangeHandler, path: '/users/me/email-change', status: 200 },
      secretIn: codeIn,
      redeem: (f, code, challengeId) => ({
        handler: verifyEmailChangeHandler,
        path: '/users/me/email-change/verify',
        body: { challengeId, code },
        ...(f.bearer ? { bearer: f.bearer } : {}),
      }),
      refused: { status: 401, code: 'INVALID_CODE' },
      whenMailFails: 'unavailable',
      redeemed: 200,
    },
  ],
  [
    'POST /users/invitations',
    {
      tenant: () => tenant,
      setup: async () => {
        const to = anEmail('invited');
        return { to, bearer: admin.token, body: { email: to, firstName: 'Ivy' } };
      },
      send: { handler: inviteUserHandler, path: '/users/invitations', status: 201 },
      secretIn: invitationTokenIn,
      redeem: (f, token) => ({
        handler: signupHandler,
        path: '/auth/signup',
        body: {
          app: tenant.app,
          mid: tenant.mid,
          email: f.to,
          password: 'Monstera-42-leaf',
          firstName: 'Ivy',
          lastName: 'Green',
          invitationToken: token,
        },
      }),
      refused: { status: 403, code: 'SIGNUP_NOT_ALLOWED' },
      whenMailFails: 'unavailable',
      redeemed: 201,
    },
  ],
];

/** The id of the challenge a request stored, from its calls, alone or in a transaction (none for an invitation). */
function challengeStoredBy(calls: { command: string; partitions: string[] }[]): string {
  const pk = calls
    .filter((c) => c.command === 'PutItem' || c.command === 'TransactWriteItems')
    .flatMap((c) => c.partitions)
    .find((partition) => partition.includes('#CH#'));
  return pk ? decodeURIComponent(pk.split('#CH#')[1] as string) : '';
}

describe.each(flows)('%s when SES fails', (_name, flow) => {
  it('answers as the contract says, keeps nothing; what the failed mail held does not work; once SES is back, it all works', async () => {
    const t = flow.tenant();
    const fixture = await flow.setup();
    const call = async (
      spec: { handler: Handler; path: string; body: unknown; bearer?: string },
      deps = instrumentedDeps(t),
    ) => {
      const event = aRequest('POST', spec.path, {
        tenant: t,
        ip: anIp(),
        body: spec.body,
        ...(spec.bearer ? { bearer: spec.bearer } : {}),
      });
      return { answer: await invokeWith(deps.deps, spec.handler, event), event, deps };
    };
    const sending = { ...flow.send, body: fixture.body, ...(fixture.bearer ? { bearer: fixture.bearer } : {}) };

    ses.refuse(fixture.to);
    const logged: Record<string, unknown>[] = [];
    const quiet = instrumentedDeps(t);
    quiet.deps.log = { info: () => {}, error: (message, fields) => logged.push({ message, ...fields }) };
    const failed = await call(sending, quiet);
    if (flow.whenMailFails === 'unavailable') {
      expectUnavailable(failed.answer);
    } else {
      // The same status and body shape as a sent mail's answer, and the failure in the log with its request id.
      expect(failed.answer.status, describeAnswer(failed.answer)).toBe(flow.send.status);
      expect(failed.answer.headers['content-type']).toMatch(/^application\/json/);
      expect(failed.answer.body).toEqual(flow.answered);
      expect(logged).toContainEqual(
        expect.objectContaining({ requestId: failed.event.requestContext.requestId, mailKind: expect.any(String) }),
      );
    }
    expect(unexplained(await failed.deps.changes(), [ALLOWED.rateCount, ALLOWED.mailDayCount])).toEqual([]);
    const [lost] = ses.attemptsTo(fixture.to);
    expect(lost?.delivered).toBe(false);
    const unusable = await call(
      flow.redeem(fixture, flow.secretIn(lost?.text ?? ''), challengeStoredBy(failed.deps.calls)),
    );
    expect({ status: unusable.answer.status, code: unusable.answer.body?.code }).toEqual(flow.refused);

    ses.accept(fixture.to);
    const sent = await call(sending);
    expect(sent.answer.status, describeAnswer(sent.answer)).toBe(flow.send.status);
    if (flow.answered !== undefined) expect(sent.answer.body).toEqual(flow.answered);
    const secret = flow.secretIn(ses.latestTo(fixture.to));
    const challengeId = (sent.answer.body?.data ?? sent.answer.body)?.challengeId ?? '';
    const redeemed = await call(flow.redeem(fixture, secret, challengeId));
    expect(redeemed.answer.status, describeAnswer(redeemed.answer)).toBe(flow.redeemed);
  });
});
