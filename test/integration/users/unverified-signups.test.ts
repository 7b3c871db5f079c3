import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { requestEmailChange, verifyEmailChange } from '#shared/account/email-change.ts';
import { getUser, inviteUser, listUsers } from '#shared/admin/users.ts';
import { signup } from '#shared/auth/signup.ts';
import { verifySignup } from '#shared/auth/signup-verify.ts';
import type { Deps } from '#shared/deps.ts';
import type { MailMessage } from '#shared/mail/message.ts';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { merchantOf } from '#test/support/faults.ts';

/**
 * A signup never verified expires after 24 h and frees its address
 * (docs/security.md#unverified-signups). With a clock the test moves (DynamoDB
 * Local never deletes by `ttl`: every read filters).
 */

const START = Date.parse('2026-11-23T10:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Deps whose clock the test moves, and whose mailed codes it reads. */
function clockedDeps() {
  let now = START;
  const mails: { to: string; message: MailMessage }[] = [];
  const deps: Deps = makeTestDeps({
    clock: { now: () => new Date(now) },
    mailer: {
      send: async (_tenant, to, message) => {
        mails.push({ to, message });
      },
    },
  });
  const codeTo = (to: string) => {
    const message = mails.filter((m) => m.to === to).at(-1)?.message;
    if (!message || !('code' in message)) throw new Error(`no code mailed to ${to}`);
    return message.code;
  };
  return { deps, at: (ms: number) => (now = START + ms), codeTo };
}

const client = { ip: '203.0.113.24', userAgent: 'vitest', language: 'en' as const };
const admin = { kind: 'apiKey' as const, keyId: 'key_test', authority: 1 };
let tenant: Merchant;
beforeAll(async () => {
  tenant = await merchantOf(await aTenantWith());
});

const signupBody = (email: string, firstName = 'Moss') => ({
  app: tenant.app,
  mid: tenant.mid,
  email,
  password: 'Monstera-42-leaf',
  firstName,
  lastName: 'Stone',
});

/** An unverified signup made at START: its user id and the challenge of its code. */
async function anUnverifiedSignup(deps: Deps, email = anEmail('squat')) {
  const opened = await signup(deps, tenant, signupBody(email), client);
  const user = await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now());
  if (!opened || !user) throw new Error('no signup');
  return { email, userId: user.id, challengeId: opened.challengeId };
}

const listedIds = async (deps: Deps) => (await listUsers(deps, tenant)).map((u) => u.id);

async function stored(deps: Deps, key: { pk: string; sk: string }) {
  const { Item } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: key, ConsistentRead: true }),
  );
  return Item;
}

describe('a signup never verified', () => {
  it('carries a ttl 24 h out on its profile and its e-mail claim', async () => {
    const { deps } = clockedDeps();
    const { email, userId } = await anUnverifiedSignup(deps);
    const ttl = (START + DAY) / 1000;
    expect((await stored(deps, keys.user(tenant, userId)))?.ttl).toBe(ttl);
    expect((await stored(deps, keys.userEmail(tenant, email)))?.ttl).toBe(ttl);
  });

  it('is listed, found and holds its address for 24 h (a repeated signup gets a fresh code, same user)', async () => {
    const { deps, at, codeTo } = clockedDeps();
    const { email, userId } = await anUnverifiedSignup(deps);
    at(DAY - MINUTE);
    expect(await listedIds(deps)).toContain(userId);
    expect((await getUser(deps, tenant, userId)).status).toBe('INACTIVE');
    await expect(inviteUser(deps, tenant, admin, { email }, client)).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });

    const again = await signup(deps, tenant, signupBody(email, 'Grace'), client);
    expect((await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now()))?.id).toBe(userId);
    const verified = await verifySignup(
      deps,
      tenant,
      { challengeId: again?.challengeId as string, code: codeTo(email) },
      client,
    );
    expect(verified.user).toMatchObject({ id: userId, firstName: 'Grace', status: 'ACTIVE' });
  });

  it('is not listed, not found by id, and its address is free once 24 h have passed', async () => {
    const { deps, at } = clockedDeps();
    const { email, userId } = await anUnverifiedSignup(deps);
    at(DAY);
    expect(await listedIds(deps)).not.toContain(userId);
    await expect(getUser(deps, tenant, userId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now())).toBeNull();
  });

  it('can be signed up again after 24 h: a new user, whose code verifies; the stale profile is deleted', async () => {
    const { deps, at, codeTo } = clockedDeps();
    const { email, userId } = await anUnverifiedSignup(deps);
    at(DAY + HOUR);
    const again = await signup(deps, tenant, signupBody(email, 'Ada'), client);
    const verified = await verifySignup(
      deps,
      tenant,
      { challengeId: again?.challengeId as string, code: codeTo(email) },
      client,
    );
    expect(verified.user).toMatchObject({ email, firstName: 'Ada', status: 'ACTIVE' });
    expect(verified.user.id).not.toBe(userId);
    expect(await stored(deps, keys.user(tenant, userId))).toBeUndefined();
    expect((await stored(deps, keys.userEmail(tenant, email)))?.userId).toBe(verified.user.id);
  });

  it('goes to exactly one of five signups racing for its address after 24 h', async () => {
    const { deps, at } = clockedDeps();
    const { email, userId } = await anUnverifiedSignup(deps);
    at(DAY);
    const answers = await Promise.all(Array.from({ length: 5 }, () => signup(deps, tenant, signupBody(email), client)));
    for (const answer of answers) expect(answer).toEqual({ challengeId: expect.any(String) });
    const holder = (await stored(deps, keys.userEmail(tenant, email)))?.userId as string;
    expect(holder).not.toBe(userId);
    expect((await listUsers(deps, tenant)).filter((u) => u.email === email).map((u) => u.id)).toEqual([holder]);
  });

  it('cannot be verified with a code of its own once 24 h have passed', async () => {
    const { deps, at, codeTo } = clockedDeps();
    const { email } = await anUnverifiedSignup(deps);
    at(DAY - 5 * MINUTE);
    const again = await signup(deps, tenant, signupBody(email), client);
    at(DAY);
    await expect(
      verifySignup(deps, tenant, { challengeId: again?.challengeId as string, code: codeTo(email) }, client),
    ).rejects.toMatchObject({ code: 'INVALID_CODE' });
  });

  it('gives its address to an invitation after 24 h', async () => {
    const { deps, at } = clockedDeps();
    const { email, userId } = await anUnverifiedSignup(deps);
    at(DAY);
    const invited = await inviteUser(deps, tenant, admin, { email }, client);
    expect(invited).toMatchObject({ status: 'INVITED' });
    expect((await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now()))?.id).toBe(invited.userId);
    expect(await stored(deps, keys.user(tenant, userId))).toBeUndefined();
  });

  it('gives its address to an e-mail change after 24 h, and not before (409 CONFLICT)', async () => {
    const { deps, at, codeTo } = clockedDeps();
    const { email, userId } = await anUnverifiedSignup(deps);
    const mover = await aUser(tenant, {}, deps);
    // Signed in just now, whenever the clock stands: an e-mail change needs a recent authentication.
    const signedIn = () => ({
      kind: 'user' as const,
      userId: mover.id,
      sessionId: 'ses_x',
      roles: [],
      authority: 99,
      authenticatedAt: deps.clock.now().toISOString(),
    });

    at(DAY - 10 * MINUTE);
    const principal = signedIn();
    const early = await requestEmailChange(deps, tenant, principal, email, client);
    await expect(
      verifyEmailChange(deps, tenant, principal, { challengeId: early.challengeId, code: codeTo(email) }, client),
    ).rejects.toMatchObject({ code: 'CONFLICT' });

    at(DAY);
    const late = await requestEmailChange(deps, tenant, signedIn(), email, client);
    await expect(
      verifyEmailChange(deps, tenant, signedIn(), { challengeId: late.challengeId, code: codeTo(email) }, client),
    ).resolves.toMatchObject({ status: 'COMPLETED' });
    expect((await userRepo(deps.store).get(tenant, mover.id))?.email).toBe(email);
    expect(await stored(deps, keys.user(tenant, userId))).toBeUndefined();
  });
});

describe('a verified signup', () => {
  it('never expires: its ttl is taken off the profile and the claim when its code is verified', async () => {
    const { deps, at, codeTo } = clockedDeps();
    const { email, challengeId } = await anUnverifiedSignup(deps);
    const { user } = await verifySignup(deps, tenant, { challengeId, code: codeTo(email) }, client);
    expect(typeof (await stored(deps, keys.user(tenant, user.id)))?.ttl).not.toBe('number');
    expect(await stored(deps, keys.userEmail(tenant, email))).not.toHaveProperty('ttl');

    at(30 * DAY);
    expect(await listedIds(deps)).toContain(user.id);
    expect((await getUser(deps, tenant, user.id)).status).toBe('ACTIVE');
    expect((await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now()))?.id).toBe(user.id);
  });
});
