import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { codeMatches } from '#shared/auth/codes.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { challengeRepo } from '#shared/store/challenge-repo.ts';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { type AdminTenant, adminApi, anEmail, aStoredUser } from '#test/support/admin.ts';
import {
  aUser,
  forgetMailsTo,
  latestCodeTo,
  rotationPastGrace,
  type TestTenant,
  type TestUser,
  userPartitionItems,
} from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, expectProblem } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * Races, one suite through the HTTP API: the same request
 * fired several ways at once, over several rounds so that the interleavings
 * vary. Each race has exactly one winner, the losers get the contract's
 * refusal, and the store read straight from DynamoDB afterwards is consistent:
 * - double refresh with one token (every holder gets the one successor; the reuse rule under concurrency);
 * - double TOTP verification with one code (enrolment and login);
 * - double signup with one e-mail;
 * - several users taking one new address;
 * - concurrent assign and revoke of one role, and two SUPER_ADMINs revoking each other;
 * - concurrent wrong passwords: exactly 5 evaluated, counted exactly by the lockout.
 */

const api = useLocalStack();
const { call, login, logIn, bearer, aSuperAdmin, aSignedInUser, roleId, aRole, assign, revoke, getUser, activityOf } =
  adminApi(() => api.url);
const deps = makeTestDeps();

const ROUNDS = 5;
const WAYS = 8;
/** Generous: on a loaded 2-core machine, some races take well over the project's 20 s default. */
const TIMEOUT = 60_000;

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
/** The rounds of a race, run at once: each on its own user, session or address, so the interleavings vary. */
const inRounds = async (round: (i: number) => Promise<void>) => {
  await Promise.all(times(ROUNDS, round));
};
const statusesOf = (answers: Answer[]) => answers.map((a) => `${a.status} ${a.body?.code ?? ''}`.trim()).sort();
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid: string; sub: string };

const refresh = (tenant: TestTenant, refreshToken: string) =>
  call('POST', '/auth/refresh', tenant.headers, { refreshToken });
const getMe = (tenant: TestTenant, token: string) => call('GET', '/users/me', bearer(tenant, token));

const partitionOf = (tenant: TestTenant, userId: string) => userPartitionItems(tenant, userId, deps);

/** The profiles the tenant's user index lists. */
async function indexedProfiles(tenant: TestTenant) {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.usersOfTenant(tenant, 'x').gsi1pk },
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Which user the tenant's e-mail claim names, if any. */
async function claimHolder(tenant: TestTenant, email: string): Promise<string | undefined> {
  const { Item } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: keys.userEmail(tenant, email), ConsistentRead: true }),
  );
  return Item?.userId as string | undefined;
}

describe('POST /auth/refresh raced with one token', () => {
  it(
    `gives all ${WAYS} refreshes with one token tokens, with one and the same new refresh token; the session stays alive`,
    async () => {
      const owner = await aSuperAdmin();
      const user = await aUser(owner.tenant);
      await inRounds(async () => {
        const first = await logIn(owner.tenant, user.email, user.password);
        const { sid } = claimsOf(first.accessToken);

        const answers = await Promise.all(times(WAYS, () => refresh(owner.tenant, first.refreshToken)));

        expect(statusesOf(answers)).toEqual(times(WAYS, () => '200'));
        const won = answers.map((a) => a.body.data as { accessToken: string; refreshToken: string });
        expect(new Set(won.map((w) => w.refreshToken)).size).toBe(1);
        for (const w of won) expect(claimsOf(w.accessToken).sid).toBe(sid);
        const successor = won[0]?.refreshToken ?? '';

        // The store: the session is live, and exactly one rotation happened (the chain's generation is 1).
        const items = await partitionOf(owner.tenant, user.id);
        const session = items.find((item) => item.entity === 'SESSION' && item.id === sid);
        expect(session).toMatchObject({ revokedAt: null, refreshHash: expect.any(String), refreshGen: 1 });

        // One chain: the old token still answers the same successor within the grace, and the successor rotates on.
        const again = await refresh(owner.tenant, first.refreshToken);
        expect(again.status).toBe(200);
        expect((again.body.data as { refreshToken: string }).refreshToken).toBe(successor);
        for (const w of won) expect((await getMe(owner.tenant, w.accessToken)).status).toBe(200);
        const next = await refresh(owner.tenant, successor);
        expect(next.status).toBe(200);
        expect((next.body.data as { refreshToken: string }).refreshToken).not.toBe(successor);
      });
    },
    TIMEOUT,
  );

  it(
    'revokes the session once when replays of a token rotated out over 10 s ago race each other and a legitimate refresh',
    async () => {
      const owner = await aSuperAdmin();
      const user = await aUser(owner.tenant);
      await inRounds(async () => {
        const first = await logIn(owner.tenant, user.email, user.password);
        const { sid } = claimsOf(first.accessToken);
        const current = (await refresh(owner.tenant, first.refreshToken)).body.data as {
          accessToken: string;
          refreshToken: string;
        };
        await rotationPastGrace(owner.tenant, user.id, sid);

        const [legitimate, ...replays] = await Promise.all([
          refresh(owner.tenant, current.refreshToken),
          ...times(WAYS - 1, () => refresh(owner.tenant, first.refreshToken)),
        ]);

        for (const replay of replays) expectProblem(replay as Answer, 401, 'REFRESH_TOKEN_REUSED');
        // The legitimate refresh came before the revocation (200) or after it (refused); either way the session ends.
        if (legitimate?.status !== 200) expectProblem(legitimate as Answer, 401, 'REFRESH_TOKEN_INVALID');
        const session = (await partitionOf(owner.tenant, user.id)).find(
          (item) => item.entity === 'SESSION' && item.id === sid,
        );
        expect(session?.revokedAt).toEqual(expect.any(String));
        expect(session?.refreshHash ?? null).toBeNull();
        expectProblem(await getMe(owner.tenant, current.accessToken), 401, 'SESSION_REVOKED');
        if (legitimate?.status === 200) {
          const issued = legitimate.body.data as { accessToken: string; refreshToken: string };
          expectProblem(await getMe(owner.tenant, issued.accessToken), 401, 'SESSION_REVOKED');
          expectProblem(await refresh(owner.tenant, issued.refreshToken), 401, 'REFRESH_TOKEN_INVALID');
        }
      });
      // One REFRESH_TOKEN_REUSED record per revoked session, however many replays.
      const reused = (await activityOf(owner, user.id)).filter((record) => record.type === 'REFRESH_TOKEN_REUSED');
      expect(reused).toHaveLength(ROUNDS);
    },
    TIMEOUT,
  );
});

describe('TOTP codes raced', () => {
  /** Starts enrolment and reads the secret out of the otpauth:// URI, as an authenticator app does. */
  async function startEnrolment(tenant: TestTenant, token: string) {
    const res = await call('POST', '/users/me/totp/init', {
      'x-app-id': tenant.app,
      'x-mid-key': tenant.mid,
      authorization: `Bearer ${token}`,
    });
    expect(res.status).toBe(200);
    const secret = new URL(res.body.qrUri).searchParams.get('secret');
    if (!secret) throw new Error('no secret in the otpauth URI');
    return { secret, backupCodes: res.body.backupCodes as string[] };
  }

  it(
    `turns TOTP on for exactly one of ${WAYS} verifications of one code; the store holds that enrolment whole`,
    async () => {
      const owner = await aSuperAdmin();
      await inRounds(async () => {
        const { user, token } = await aSignedInUser(owner.tenant);
        const { secret, backupCodes } = await startEnrolment(owner.tenant, token);
        const code = totpCodeAt(secret, new Date());

        const answers = await Promise.all(
          times(WAYS, () => call('POST', '/users/me/totp/verify', bearer(owner.tenant, token), { code })),
        );

        expect(
          answers.filter((a) => a.status === 204),
          statusesOf(answers).join(', '),
        ).toHaveLength(1);
        for (const loser of answers.filter((a) => a.status !== 204)) {
          // Past the 5 guesses a burst may have evaluated at once, the rest are refused unseen.
          expect([
            [401, 'INVALID_CODE'],
            [409, 'TOTP_ALREADY_ENABLED'],
            [429, 'TOO_MANY_ATTEMPTS'],
          ]).toContainEqual([loser.status, loser.body?.code]);
          expect(loser.headers.get('content-type')).toBe('application/problem+json');
        }
        const profile = (await partitionOf(owner.tenant, user.id)).find((item) => item.entity === 'USER');
        expect(profile).toMatchObject({ totpEnabled: true, totpPendingSecret: null, totpLastStep: expect.any(Number) });
        expect(Object.keys(profile?.backupCodes ?? {})).toHaveLength(10);
        expect(Object.keys(profile?.totpPendingBackupCodes ?? {})).toHaveLength(0);
        const enabled = (await activityOf(owner, user.id)).filter((record) => record.type === 'TOTP_ENABLED');
        expect(enabled).toHaveLength(1);
        // The enrolment that won is the one in force: its backup codes finish a login.
        const started = await login(owner.tenant, user.email, user.password);
        expect(started.body.data).toMatchObject({ challengeRequired: true, challengeType: 'TOTP' });
        const finished = await call('POST', '/auth/login/verify', owner.tenant.headers, {
          challengeId: started.body.data.challengeId,
          code: backupCodes[0],
        });
        expect(finished.status).toBe(200);
      });
    },
    TIMEOUT,
  );

  it(
    'logs in exactly once when one TOTP code is sent twice on each of two challenges at once',
    async () => {
      const owner = await aSuperAdmin();
      await inRounds(async () => {
        const user = await aUser(owner.tenant, { totp: true });
        const challenges = await Promise.all(
          times(2, async () => (await login(owner.tenant, user.email, user.password)).body.data.challengeId as string),
        );
        const code = totpCodeAt(user.totpSecret as string, new Date());

        const answers = await Promise.all(
          [...challenges, ...challenges].map((challengeId) =>
            call('POST', '/auth/login/verify', owner.tenant.headers, { challengeId, code }),
          ),
        );

        expect(
          answers.filter((a) => a.status === 200),
          statusesOf(answers).join(', '),
        ).toHaveLength(1);
        for (const loser of answers.filter((a) => a.status !== 200)) expectProblem(loser, 401, 'INVALID_CODE');
        const sessions = (await partitionOf(owner.tenant, user.id)).filter((item) => item.entity === 'SESSION');
        expect(sessions).toHaveLength(1);
        const winner = answers.find((a) => a.status === 200)?.body.data as { accessToken: string };
        expect(claimsOf(winner.accessToken).sid).toBe(sessions[0]?.id);
      });
    },
    TIMEOUT,
  );
});

describe('POST /auth/signup raced with one e-mail', () => {
  it(
    `makes one account and one e-mail claim of ${WAYS} signups at once, and answers each the same`,
    async () => {
      const owner = await aSuperAdmin({ signupMode: 'OPEN' });
      const tenant = owner.tenant;
      await inRounds(async (round) => {
        const email = anEmail('twin');
        // The same address in different cases: one account, as e-mail addresses compare case-insensitively.
        const spellings = times(WAYS, (i) => (i % 2 === 0 ? email : email.toUpperCase()));
        const passwords = times(WAYS, (i) => `Twin-${round}-${i}-pass`);

        const answers = await Promise.all(
          spellings.map((spelling, i) =>
            call('POST', '/auth/signup', tenant.headers, {
              app: tenant.app,
              mid: tenant.mid,
              email: spelling,
              password: passwords[i],
              firstName: 'Twin',
              lastName: `Number ${i}`,
            }),
          ),
        );

        for (const answer of answers) {
          expect(answer.status).toBe(201);
          expect(answer.body).toEqual({ success: true, data: { challengeId: expect.any(String) } });
        }
        const profiles = (await indexedProfiles(tenant)).filter((item) => item.email === email);
        expect(profiles).toHaveLength(1);
        const userId = profiles[0]?.id as string;
        expect(await claimHolder(tenant, email)).toBe(userId);
        expect((await partitionOf(tenant, userId)).filter((item) => item.entity === 'USER')).toHaveLength(1);

        // The account is usable: the latest code mailed finishes its signup, with that signup's password. Its
        // challenge is found in the store, not by trying the code on each: wrong codes count against the address.
        const code = await latestCodeTo(api.stack.sesUrl, email);
        let verified: { index: number; userId: string } | undefined;
        for (const [index, answer] of answers.entries()) {
          const challenge = await challengeRepo(deps.store).get(tenant, answer.body.data.challengeId);
          if (!challenge?.codeHash || !codeMatches(challenge.codeHash, code, challenge.id)) continue;
          const res = await call('POST', '/auth/signup/verify', tenant.headers, {
            challengeId: answer.body.data.challengeId,
            code,
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          verified = { index, userId: res.body.data.user.id };
          break;
        }
        expect(verified?.userId).toBe(userId);
        const loggedIn = await login(tenant, email, passwords[verified?.index ?? 0] as string);
        expect(loggedIn.body.data?.user).toMatchObject({ id: userId, email, status: 'ACTIVE' });
      });
    },
    TIMEOUT,
  );
});

describe('POST /users/me/email-change/verify raced for one address', () => {
  it(
    `gives the address to exactly one of ${WAYS} users verifying it at once, 409 CONFLICT to the rest; the claims follow`,
    async () => {
      const owner = await aSuperAdmin();
      const tenant = owner.tenant;
      // The same users every round: the losers keep their address, the winner moves on to the next round's.
      const users = await Promise.all(times(WAYS, () => aSignedInUser(tenant)));
      const addressOf = new Map(users.map((u) => [u.userId, u.user.email]));
      for (let round = 0; round < ROUNDS; round++) {
        const target = anEmail('wanted');
        const started: { challengeId: string; code: string }[] = [];
        // One at a time, so that each code can be told apart in the shared inbox.
        for (const [i, u] of users.entries()) {
          const newEmail = i % 2 === 0 ? target : target.toUpperCase();
          // A minute later each time, as far as the mail limit goes (one code a minute per address and purpose).
          await forgetMailsTo(tenant, 'EMAIL_CHANGE', target);
          const res = await call('POST', '/users/me/email-change', u.headers, { newEmail });
          expect(res.status).toBe(200);
          started.push({ challengeId: res.body.challengeId, code: await latestCodeTo(api.stack.sesUrl, target) });
        }

        const answers = await Promise.all(
          users.map((u, i) => call('POST', '/users/me/email-change/verify', u.headers, started[i])),
        );

        const winnerIndex = answers.findIndex((a) => a.status === 200);
        expect(
          answers.filter((a) => a.status === 200),
          statusesOf(answers).join(', '),
        ).toHaveLength(1);
        // The new address's code lockout evaluates at most 5 answers at once: the rest are refused unseen.
        const losers = answers.filter((a) => a.status !== 200);
        for (const loser of losers) {
          expect([
            [409, 'CONFLICT'],
            [429, 'TOO_MANY_ATTEMPTS'],
          ]).toContainEqual([loser.status, loser.body?.code]);
        }
        expect(losers.filter((a) => a.status === 429).length).toBeLessThanOrEqual(WAYS - 5);
        const winner = users[winnerIndex] as (typeof users)[number];
        const previous = addressOf.get(winner.userId) as string;
        addressOf.set(winner.userId, target);

        // Every claim names its user, every profile holds its claimed address, and the old address is free.
        expect(await claimHolder(tenant, target)).toBe(winner.userId);
        expect(await claimHolder(tenant, previous)).toBeUndefined();
        const profiles = await indexedProfiles(tenant);
        for (const u of users) {
          const address = addressOf.get(u.userId) as string;
          expect(await claimHolder(tenant, address)).toBe(u.userId);
          expect(profiles.find((p) => p.id === u.userId)?.email).toBe(address);
          expect((await call('GET', '/users/me', u.headers)).body.email).toBe(address);
        }
        expect(profiles.filter((p) => p.email === target)).toHaveLength(1);
      }
      const winnerUser = users.find((u) => addressOf.get(u.userId) !== u.user.email) as {
        user: TestUser;
        userId: string;
      };
      const wonAddress = addressOf.get(winnerUser.userId) as string;
      expect((await logIn(tenant, wonAddress, winnerUser.user.password)).user.id).toBe(winnerUser.userId);
      // A user who lost every round signs in with the address they kept, not with one they lost.
      const neverWon = users.find((u) => addressOf.get(u.userId) === u.user.email) as (typeof users)[number];
      expect((await logIn(tenant, neverWon.user.email, neverWon.user.password)).user.id).toBe(neverWon.userId);
      expectProblem(await login(tenant, wonAddress, neverWon.user.password), 401, 'INVALID_CREDENTIALS');
    },
    TIMEOUT,
  );
});

/** Whether some serial order of the assigns and revokes gives exactly these answers and this end state. */
function explainedBySerialOrder(
  heldBefore: boolean,
  counts: { assigns: number; revoked: number; notHeld: number },
  heldAfter: boolean,
): boolean {
  const explain = (held: boolean, assigns: number, revoked: number, notHeld: number): boolean => {
    if (assigns + revoked + notHeld === 0) return held === heldAfter;
    return (
      (assigns > 0 && explain(true, assigns - 1, revoked, notHeld)) ||
      // A revoke answers 204 only while the role is held, 404 only while it is not.
      (held && revoked > 0 && explain(false, assigns, revoked - 1, notHeld)) ||
      (!held && notHeld > 0 && explain(false, assigns, revoked, notHeld - 1))
    );
  };
  return explain(heldBefore, counts.assigns, counts.revoked, counts.notHeld);
}

describe('POST /roles/assign and /roles/revoke raced', () => {
  it.each([
    ['not held', false],
    ['held', true],
  ])(
    `settles ${WAYS} assigns and revokes of one role (%s before) as some serial order would; every view agrees`,
    async (_, heldBefore) => {
      const owner = await aSuperAdmin();
      const role = await aRole(owner, 10);
      await inRounds(async () => {
        const target = await aStoredUser(owner.tenant);
        if (heldBefore) expect((await assign(owner, { userId: target.id, roleId: role.id })).status).toBe(204);

        const answers = await Promise.all(
          times(WAYS, (i) =>
            i % 2 === 0
              ? assign(owner, { userId: target.id, roleId: role.id })
              : revoke(owner, { userId: target.id, roleId: role.id }),
          ),
        );

        const assigns = answers.filter((_, i) => i % 2 === 0);
        const revokes = answers.filter((_, i) => i % 2 === 1);
        for (const a of assigns) expect(a.status).toBe(204);
        for (const r of revokes.filter((a) => a.status !== 204)) expectProblem(r, 404, 'NOT_FOUND');
        const revoked = revokes.filter((r) => r.status === 204).length;

        const stored = Object.keys((await userRepo(deps.store).get(owner.tenant, target.id))?.grants ?? {}).sort();
        const shown = ((await getUser(owner, target.id)).body.roles as { roleId: string }[])
          .map((r) => r.roleId)
          .sort();
        const listed = (
          (await call('GET', '/users', owner.headers)).body as { id: string; roles: { roleId: string }[] }[]
        )
          .find((u) => u.id === target.id)
          ?.roles.map((r) => r.roleId)
          .sort();
        expect(shown).toEqual(stored);
        expect(listed).toEqual(stored);
        // Nothing else moved: besides the raced role, the user holds DEFAULT only.
        expect(stored.filter((id) => id !== role.id)).toEqual([await roleId(owner, 'DEFAULT')]);
        const heldAfter = stored.includes(role.id);
        const counts = { assigns: assigns.length, revoked, notHeld: revokes.length - revoked };
        expect(explainedBySerialOrder(heldBefore, counts, heldAfter), JSON.stringify({ counts, heldAfter })).toBe(true);

        // The activity says what happened: one record per assign and per revoke that took effect.
        const activity = await activityOf(owner, target.id);
        expect(activity.filter((r) => r.type === 'ROLE_ASSIGNED')).toHaveLength(assigns.length + (heldBefore ? 1 : 0));
        expect(activity.filter((r) => r.type === 'ROLE_REVOKED')).toHaveLength(revoked);
      });
    },
    TIMEOUT,
  );
});

/**
 * The last SUPER_ADMIN cannot be removed. Only a SUPER_ADMIN may act on one, never
 * on themselves; two of them removing each other must therefore end as a serial order would: the first
 * wins, the second is refused because by then it is no longer an active SUPER_ADMIN.
 *
 * Both requests pass the authority check, made on grants read before either write; what settles it is
 * the ConditionCheck on the actor's profile (still holds SUPER_ADMIN, still ACTIVE) that revokeRole,
 * setUserStatus and deleteUser put in their transaction when the target holds SUPER_ADMIN.
 */
describe('two SUPER_ADMINs removing each other at once', () => {
  type By = { headers: Record<string, string> };
  const removals = {
    "revoke each other's SUPER_ADMIN role": {
      remove: (by: By, userId: string, superAdmin: string) => revoke(by, { userId, roleId: superAdmin }),
      won: '204',
      // By then the loser holds DEFAULT only.
      lost: '403 FORBIDDEN',
    },
    'disable each other': {
      remove: (by: By, userId: string) => call('PATCH', `/users/${userId}/status`, by.headers, { status: 'DISABLED' }),
      won: '200',
      // By then the loser is disabled, its sessions ended.
      lost: '401 SESSION_REVOKED',
    },
    'delete each other': {
      remove: (by: By, userId: string) => call('DELETE', `/users/${userId}`, by.headers),
      won: '204',
      lost: '401 SESSION_REVOKED',
    },
  };

  it.each(Object.keys(removals) as (keyof typeof removals)[])(
    'keeps exactly one active SUPER_ADMIN when two %s at once: one wins, the other is refused',
    async (how) => {
      const { remove, won, lost } = removals[how];
      for (let round = 0; round < ROUNDS; round++) {
        const owner: AdminTenant = await aSuperAdmin();
        const superAdmin = await roleId(owner, 'SUPER_ADMIN');
        const second = await aSignedInUser(owner.tenant);
        expect((await assign(owner, { userId: second.userId, roleId: superAdmin })).status).toBe(204);

        const answers = await Promise.all([
          remove(owner, second.userId, superAdmin),
          remove(second, owner.userId, superAdmin),
        ]);

        const left = await Promise.all(
          [owner.userId, second.userId].map((id) => userRepo(deps.store).get(owner.tenant, id)),
        );
        const activeSuperAdmins = left.filter((u) => u?.status === 'ACTIVE' && Object.hasOwn(u.grants, superAdmin));
        expect(activeSuperAdmins, statusesOf(answers).join(', ')).toHaveLength(1);
        expect(statusesOf(answers)).toEqual([won, lost].sort());
      }
    },
    TIMEOUT,
  );
});

describe('POST /auth/login lockout counting raced', () => {
  it(
    'evaluates exactly 5 of 10 wrong passwords sent at once, for a known and an unknown e-mail alike, and locks both',
    async () => {
      const owner = await aSuperAdmin();
      const tenant = owner.tenant;
      const user = await aUser(tenant);
      const unknown = anEmail('nobody');

      const answers = await Promise.all(
        [user.email, unknown].map((email) => Promise.all(times(10, (i) => login(tenant, email, `Wrong-guess-${i}-x`)))),
      );

      for (const [index, email] of [user.email, unknown].entries()) {
        const own = answers[index] as Answer[];
        const counted = own.filter((a) => a.status === 401);
        for (const a of counted) expectProblem(a, 401, 'INVALID_CREDENTIALS');
        for (const a of own.filter((a) => a.status !== 401)) expectProblem(a, 429, 'TOO_MANY_ATTEMPTS');
        // Each guess is reserved before it is evaluated: of any burst, exactly 5 are
        // looked at; the others answer 429 unseen. (The check read first and counted after let all 10 through.)
        expect(counted).toHaveLength(5);
        // Every evaluated failure was counted, none twice.
        const { Item } = await deps.store.doc.send(
          new GetCommand({ TableName: deps.store.tableName, Key: keys.lockout(tenant, email), ConsistentRead: true }),
        );
        expect(Item?.failures).toBe(counted.length);
        expect(Item?.lockedUntil).toEqual(expect.any(String));
        // Locked: even the right password answers 429 with Retry-After.
        const locked = await login(tenant, email, email === user.email ? user.password : 'Any-password-1');
        expectProblem(locked, 429, 'TOO_MANY_ATTEMPTS');
        expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      const activity = await activityOf(owner, user.id);
      expect(activity.filter((r) => r.type === 'LOGIN_FAILED')).toHaveLength(
        (answers[0] as Answer[]).filter((a) => a.status === 401).length,
      );
      expect(activity.filter((r) => r.type === 'ACCOUNT_LOCKED')).toHaveLength(1);
      expect((await getUser(owner, user.id)).body.status).toBe('TIMED_OUT');
    },
    TIMEOUT,
  );
});
