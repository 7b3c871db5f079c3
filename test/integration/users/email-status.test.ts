import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { getUser } from '#shared/admin/users.ts';
import { createInvitation } from '#shared/auth/invitations.ts';
import { signup } from '#shared/auth/signup.ts';
import { verifySignup } from '#shared/auth/signup-verify.ts';
import type { Deps } from '#shared/deps.ts';
import type { MailMessage } from '#shared/mail/message.ts';
import { cryptoRandom, newId } from '#shared/random.ts';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { merchantOf } from '#test/support/faults.ts';

/**
 * UserResponse.emailStatus: VALIDATION_SENT while
 * the signup code or invitation that went out can be answered, UNVALIDATED
 * once it lapsed, VALIDATED once proven; and profiles stored with the old
 * value PENDING read back in the new shape.
 */

const START = Date.parse('2026-11-23T10:00:00.000Z');
const MINUTE = 60_000;

/** Deps whose clock the test moves, and whose mail it reads. */
function clockedDeps() {
  let now = START;
  const codes: string[] = [];
  const deps: Deps = makeTestDeps({
    clock: { now: () => new Date(now) },
    mailer: {
      send: async (_tenant, _to, message: MailMessage) => {
        if ('code' in message) codes.push(message.code);
      },
    },
  });
  return { deps, at: (ms: number) => (now = START + ms), lastCode: () => codes.at(-1) ?? '' };
}

const client = { ip: '203.0.113.9', userAgent: 'vitest', language: 'en' as const };
let tenant: Merchant;
beforeAll(async () => {
  tenant = await merchantOf(await aTenantWith());
});

const signupBody = (email: string) => ({
  app: tenant.app,
  mid: tenant.mid,
  email,
  password: 'Monstera-42-leaf',
  firstName: 'Moss',
  lastName: 'Stone',
});

async function emailStatusOf(deps: Deps, email: string) {
  const user = await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now());
  if (!user) throw new Error(`no user ${email}`);
  return (await getUser(deps, tenant, user.id)).emailStatus;
}

describe('emailStatus of an unverified signup', () => {
  it('is VALIDATION_SENT for the 10 minutes of its code, then UNVALIDATED; a new code makes it VALIDATION_SENT again', async () => {
    const { deps, at } = clockedDeps();
    const email = anEmail('status');
    await signup(deps, tenant, signupBody(email), client);
    at(9 * MINUTE + 59_000);
    expect(await emailStatusOf(deps, email)).toBe('VALIDATION_SENT');
    at(10 * MINUTE);
    expect(await emailStatusOf(deps, email)).toBe('UNVALIDATED');

    // Signing up again mails a fresh code: pending again, for its 10 minutes.
    at(30 * MINUTE);
    await signup(deps, tenant, signupBody(email), client);
    at(39 * MINUTE);
    expect(await emailStatusOf(deps, email)).toBe('VALIDATION_SENT');
    at(40 * MINUTE);
    expect(await emailStatusOf(deps, email)).toBe('UNVALIDATED');
  });

  it('is VALIDATED once the code is verified', async () => {
    const { deps, at, lastCode } = clockedDeps();
    const email = anEmail('verified');
    const opened = await signup(deps, tenant, signupBody(email), client);
    at(MINUTE);
    await verifySignup(deps, tenant, { challengeId: opened?.challengeId ?? '', code: lastCode() }, client);
    at(60 * MINUTE);
    expect(await emailStatusOf(deps, email)).toBe('VALIDATED');
  });

  it('stays as it was when the new code cannot be mailed (the answer does not change; nothing is said to be sent)', async () => {
    const { deps, at } = clockedDeps();
    const email = anEmail('unsent');
    await signup(deps, tenant, signupBody(email), client);
    at(20 * MINUTE);
    const failing: Deps = {
      ...deps,
      log: { info: () => {}, error: () => {} },
      mailer: {
        send: async () => {
          throw new Error('SES is down');
        },
      },
    };
    expect(await signup(failing, tenant, signupBody(email), client)).toEqual({ challengeId: expect.any(String) });
    expect(await emailStatusOf(deps, email)).toBe('UNVALIDATED');
    expect((await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now()))?.emailValidationExpiresAt).toBe(
      new Date(START + 10 * MINUTE).toISOString(),
    );
  });
});

describe('emailStatus of an invited user', () => {
  it('is VALIDATION_SENT for the 7 days of the invitation, then UNVALIDATED', async () => {
    const { deps, at } = clockedDeps();
    const email = anEmail('invited');
    await createInvitation(deps, tenant, { email, invitedBy: tenant.id });
    at(7 * 24 * 60 * MINUTE - 1);
    expect(await emailStatusOf(deps, email)).toBe('VALIDATION_SENT');
    at(7 * 24 * 60 * MINUTE);
    expect(await emailStatusOf(deps, email)).toBe('UNVALIDATED');
  });
});

describe('a profile stored before VALIDATION_SENT existed (emailStatus PENDING)', () => {
  it('reads back as VALIDATION_SENT while its code could be live, UNVALIDATED after, and is listed that way', async () => {
    const { deps, at } = clockedDeps();
    const email = anEmail('legacy');
    // Written as the service wrote it before: PENDING, no lapse instant.
    await deps.store.doc.send(
      new PutCommand({ TableName: deps.store.tableName, Item: await legacyProfile(deps, email) }),
    );
    at(5 * MINUTE);
    expect(await emailStatusOf(deps, email)).toBe('VALIDATION_SENT');
    at(10 * MINUTE);
    expect(await emailStatusOf(deps, email)).toBe('UNVALIDATED');
  });
});

async function legacyProfile(deps: Deps, email: string) {
  const id = newId(cryptoRandom, 'usr');
  await deps.store.doc.send(
    new PutCommand({
      TableName: deps.store.tableName,
      Item: { ...keys.userEmail(tenant, email), entity: 'USER_EMAIL', userId: id },
    }),
  );
  return {
    ...keys.user(tenant, id),
    ...keys.usersOfTenant(tenant, id),
    entity: 'USER',
    id,
    email,
    emailStatus: 'PENDING',
    firstName: 'Old',
    lastName: 'Item',
    phone: null,
    status: 'INACTIVE',
    passwordHash: null,
    totpEnabled: false,
    grants: {},
    registeredAt: new Date(START).toISOString(),
    lastLoginAt: null,
  };
}
