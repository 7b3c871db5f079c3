import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { requestEmailChange, verifyEmailChange } from '#shared/account/email-change.ts';
import type { UserPrincipal } from '#shared/auth/principal.ts';
import type { Deps } from '#shared/deps.ts';
import type { MailMessage } from '#shared/mail/message.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aTenantWith, aUser, forgetMailsTo } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

const client = { ip: '203.0.113.9', userAgent: 'vitest', language: 'en' as const };

/** Deps whose mailer keeps every mail it is given. */
function recordingDeps() {
  const sent: { to: string; message: MailMessage }[] = [];
  const deps = makeTestDeps({
    mailer: {
      send: async (_tenant, to, message) => {
        sent.push({ to, message });
      },
    },
  });
  /** The code of the latest EMAIL_CHANGE_CODE mail. */
  const latestCode = () => {
    const message = sent.at(-1)?.message;
    if (message?.kind !== 'EMAIL_CHANGE_CODE') throw new Error(`no code mail (${sent.length} mails)`);
    return message.code;
  };
  return { deps, sent, latestCode };
}

async function tenantOf(deps: Deps) {
  const created = await aTenantWith({}, deps);
  return (await merchantRepo(deps.store).get(created)) as Merchant;
}

const principalOf = (userId: string): UserPrincipal => ({
  kind: 'user',
  userId,
  sessionId: 'ses_x',
  roles: [],
  authority: 99,
  // Signed in just now: an e-mail change needs a recent authentication.
  authenticatedAt: new Date().toISOString(),
});

/** Every e-mail claim item on the address's key. */
async function claimsOf(deps: Deps, tenant: Merchant, email: string) {
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.userEmail(tenant, email).pk },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

describe('requestEmailChange and verifyEmailChange (DynamoDB Local)', () => {
  it('move the e-mail claim and the profile to the new address, and tell the old address', async () => {
    const { deps, sent, latestCode } = recordingDeps();
    const tenant = await tenantOf(deps);
    const user = await aUser(tenant, {}, deps);
    const newEmail = `new-${randomUUID()}@elsewhere.test`;
    const { challengeId } = await requestEmailChange(deps, tenant, principalOf(user.id), newEmail, client);
    // The current address hears of the request first, before any code exists, then the new one gets the code.
    expect(sent.map((mail) => [mail.to, mail.message.kind])).toEqual([
      [user.email, 'EMAIL_CHANGE_REQUESTED'],
      [newEmail, 'EMAIL_CHANGE_CODE'],
    ]);
    expect(sent[0]?.message).toEqual({ kind: 'EMAIL_CHANGE_REQUESTED', newEmail });

    await expect(
      verifyEmailChange(deps, tenant, principalOf(user.id), { challengeId, code: latestCode() }, client),
    ).resolves.toEqual({ challengeId, type: 'EMAIL', status: 'COMPLETED' });
    expect(await userRepo(deps.store).get(tenant, user.id)).toMatchObject({
      email: newEmail,
      emailStatus: 'VALIDATED',
    });
    expect((await claimsOf(deps, tenant, newEmail)).map((claim) => claim.userId)).toEqual([user.id]);
    expect(await claimsOf(deps, tenant, user.email)).toEqual([]);
    expect(sent.at(-1)).toEqual({ to: user.email, message: { kind: 'EMAIL_CHANGED', newEmail } });
  });

  it('let exactly one of 10 users verifying one address at once take it; 9 get CONFLICT (or, past 5 at once, TOO_MANY_ATTEMPTS)', async () => {
    const { deps, latestCode } = recordingDeps();
    const tenant = await tenantOf(deps);
    const newEmail = `wanted-${randomUUID()}@elsewhere.test`;
    const users = await Promise.all(Array.from({ length: 10 }, () => aUser(tenant, {}, deps)));
    const attempts: { userId: string; challengeId: string; code: string }[] = [];
    for (const user of users) {
      // A minute later each time, as far as the mail limit goes (one code a minute per address and purpose).
      await forgetMailsTo(tenant, 'EMAIL_CHANGE', newEmail, deps);
      const { challengeId } = await requestEmailChange(deps, tenant, principalOf(user.id), newEmail, client);
      attempts.push({ userId: user.id, challengeId, code: latestCode() });
    }

    const results = await Promise.allSettled(
      attempts.map(({ userId, challengeId, code }) =>
        verifyEmailChange(deps, tenant, principalOf(userId), { challengeId, code }, client),
      ),
    );
    const winners = attempts.filter((_, i) => results[i]?.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const rejections = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []));
    // The new address's code lockout evaluates at most 5 answers at once: the others
    // are refused unseen (TOO_MANY_ATTEMPTS); none takes the address.
    expect(rejections).toHaveLength(9);
    for (const code of rejections) expect(['CONFLICT', 'TOO_MANY_ATTEMPTS']).toContain(code);

    const claims = await claimsOf(deps, tenant, newEmail);
    expect(claims.map((claim) => claim.userId)).toEqual([winners[0]?.userId]);
    for (const user of users) {
      const stored = await userRepo(deps.store).get(tenant, user.id);
      const won = user.id === winners[0]?.userId;
      expect(stored?.email).toBe(won ? newEmail : user.email);
      expect((await claimsOf(deps, tenant, user.email)).map((claim) => claim.userId)).toEqual(won ? [] : [user.id]);
    }
  });
});
