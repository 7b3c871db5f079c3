import { beforeAll, describe, expect, it } from 'vitest';
import { requestEmailChange, verifyEmailChange } from '#shared/account/email-change.ts';
import { forgotPassword } from '#shared/auth/forgot-password.ts';
import type { UserPrincipal } from '#shared/auth/principal.ts';
import { resetPassword } from '#shared/auth/reset-password.ts';
import type { MailMessage } from '#shared/mail/message.ts';
import type { Counter } from '#shared/metrics.ts';
import { mailSuppressionRepo } from '#shared/store/mail-suppression-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { merchantOf } from '#test/support/faults.ts';

/**
 * The send path of a suppressed address, against DynamoDB Local: a code is held back as a mail limit
 * holds it back (no mail, the challenge a decoy whose code nobody has, MailsSuppressed counted); a security
 * notice is not sent and the change it tells of goes on. The black-box side: test/http/admin/mail-suppression.test.ts.
 */

const client = { ip: '203.0.113.9', userAgent: 'vitest', language: 'en' as const };

/** Deps whose mailer keeps every mail, and whose signals keep every counter. */
function recordingDeps() {
  const sent: { to: string; message: MailMessage }[] = [];
  const counted: Counter[] = [];
  const deps = makeTestDeps({
    mailer: {
      send: async (_tenant, to, message) => {
        sent.push({ to, message });
      },
    },
    signals: { count: (counter) => counted.push(counter), mailFailed: () => {}, user: () => {} },
  });
  return { deps, sent, counted };
}

const suppress = (tenant: Merchant, address: string) =>
  mailSuppressionRepo(makeTestDeps().store).record(
    tenant,
    address,
    { reason: 'BOUNCE', at: new Date().toISOString(), mailKind: null, feedbackId: null },
    new Date(),
  );

const principalOf = (userId: string): UserPrincipal => ({
  kind: 'user',
  userId,
  sessionId: 'ses_x',
  roles: [],
  authority: 99,
  authenticatedAt: new Date().toISOString(),
});

let tenant: Merchant;
beforeAll(async () => {
  tenant = await merchantOf(await aTenantWith());
});

describe('a reset code for a suppressed address', () => {
  it('is not mailed, counts MailsSuppressed, and the challenge answered is a decoy: no code opens it', async () => {
    const { deps, sent, counted } = recordingDeps();
    const user = await aUser(tenant);
    await suppress(tenant, user.email.toUpperCase());

    const { challengeId } = await forgotPassword(deps, tenant, user.email, client);
    expect(challengeId).toMatch(/^chl_/);
    expect(sent).toEqual([]);
    expect(counted).toEqual(['MailsSuppressed']);
    // A decoy (as when a limit holds the mail back): even a guessed code fails as on an unknown address.
    await expect(
      resetPassword(deps, tenant, { challengeId, code: '000000', newPassword: 'Philodendron-8-vine' }, client),
    ).rejects.toMatchObject({ code: 'INVALID_CODE' });
  });
});

describe('an e-mail change', () => {
  it('from a suppressed address: the notice to it is not sent, the code goes to the new address, and the change goes through', async () => {
    const { deps, sent } = recordingDeps();
    const user = await aUser(tenant);
    await suppress(tenant, user.email);
    const newEmail = anEmail('moved');

    const { challengeId } = await requestEmailChange(deps, tenant, principalOf(user.id), newEmail, client);
    expect(sent.map((mail) => [mail.to, mail.message.kind])).toEqual([[newEmail, 'EMAIL_CHANGE_CODE']]);
    const mailed = sent[0]?.message;
    const code = mailed && 'code' in mailed ? mailed.code : '';
    await verifyEmailChange(deps, tenant, principalOf(user.id), { challengeId, code }, client);
    // The EMAIL_CHANGED notice would go to the old, suppressed address: not sent either.
    expect(sent).toHaveLength(1);
    expect((await userRepo(deps.store).get(tenant, user.id))?.email).toBe(newEmail);
  });

  it('to a suppressed address: no code is mailed there, the answer is unchanged, and the challenge is a decoy', async () => {
    const { deps, sent } = recordingDeps();
    const user = await aUser(tenant);
    const newEmail = anEmail('bouncing');
    await suppress(tenant, newEmail);

    const { challengeId } = await requestEmailChange(deps, tenant, principalOf(user.id), newEmail, client);
    expect(challengeId).toMatch(/^chl_/);
    expect(sent.map((mail) => [mail.to, mail.message.kind])).toEqual([[user.email, 'EMAIL_CHANGE_REQUESTED']]);
    await expect(
      verifyEmailChange(deps, tenant, principalOf(user.id), { challengeId, code: '000000' }, client),
    ).rejects.toMatchObject({ code: 'INVALID_CODE' });
    expect((await userRepo(deps.store).get(tenant, user.id))?.email).toBe(user.email);
  });
});
