import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { refresh } from '#shared/auth/refresh.ts';
import { startSession } from '#shared/auth/session-start.ts';
import type { Deps } from '#shared/deps.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { sessionRepo } from '#shared/store/session-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { successorSecret } from '#shared/tokens/refresh-successor.ts';
import { hashRefreshSecret, parseRefreshToken } from '#shared/tokens/refresh-token.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

const client = { ip: '203.0.113.7', userAgent: 'vitest', language: 'en' as const };

/** Deps whose clock the test moves. */
function depsAt(start: Date) {
  let now = start.getTime();
  const deps = makeTestDeps({ clock: { now: () => new Date(now) } });
  return { deps, advance: (ms: number) => (now += ms) };
}

async function loggedIn(deps: Deps) {
  const created = await aTenantWith({}, deps);
  const tenant = (await merchantRepo(deps.store).get(created)) as Merchant;
  const testUser = await aUser(tenant, {}, deps);
  const user = await userRepo(deps.store).get(tenant, testUser.id);
  if (!user) throw new Error('no user');
  const tokens = await startSession(deps, tenant, user, client);
  return { tenant, user, tokens };
}

/** Every item of a partition, read consistently. */
async function partition(deps: Deps, pk: string) {
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return Items;
}

const rejects = (promise: Promise<unknown>, code: string) => expect(promise).rejects.toMatchObject({ code });

describe('refresh (with a clock)', () => {
  it('revokes the whole session when a token rotated more than 10 s ago is used again', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    const next = await refresh(deps, tenant, tokens.refreshToken, client);
    advance(10_001);
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_REUSED');
    // The thief's copy and the user's current token are both dead now.
    await rejects(refresh(deps, tenant, next.refreshToken, client), 'REFRESH_TOKEN_INVALID');
    const session = await sessionRepo(deps.store).get(tenant, user.id, tokens.refreshToken.split('.')[2] ?? '');
    expect(session?.revokedAt).not.toBeNull();
    expect(await activityTypes(deps, tenant, user.id)).toContain('REFRESH_TOKEN_REUSED');
  });

  it('ends 7 days after login whatever the refreshes', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, tokens } = await loggedIn(deps);
    let current = tokens.refreshToken;
    for (let day = 0; day < 6; day++) {
      advance(86_400_000);
      current = (await refresh(deps, tenant, current, client)).refreshToken;
    }
    advance(86_400_000 + 1_000);
    await rejects(refresh(deps, tenant, current, client), 'REFRESH_TOKEN_INVALID');
  });

  it('gives no tokens to a user who is no longer ACTIVE, and ends the session', async () => {
    const { deps } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    await userRepo(deps.store).update(tenant, user.id, { status: 'COMPROMISED' });
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_INVALID');
    await userRepo(deps.store).update(tenant, user.id, { status: 'ACTIVE' });
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_INVALID');
  });
});

/** A session's id, from a refresh token `rt2.<user>.<session>.<generation>.<secret>`. */
const sessionOf = (refreshToken: string) => refreshToken.split('.')[2] ?? '';
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid: string; jti: string };

async function activityTypes(deps: Deps, tenant: Merchant, userId: string): Promise<string[]> {
  return (await partition(deps, keys.activityPartition(tenant, userId))).map((i) => String(i.type));
}

describe('refresh within the 10 s grace (one chain for every holder)', () => {
  it.each([2, 5])(
    'gives all of %i simultaneous refreshes with one token tokens, with one and the same new refresh token',
    async (ways) => {
      const { deps } = depsAt(new Date());
      const { tenant, user, tokens } = await loggedIn(deps);
      const sid = sessionOf(tokens.refreshToken);

      const answers = await Promise.all(
        Array.from({ length: ways }, () => refresh(deps, tenant, tokens.refreshToken, client)),
      );

      const successors = new Set(answers.map((a) => a.refreshToken));
      expect(successors.size).toBe(1);
      const [successor = ''] = successors;
      expect(successor).not.toBe(tokens.refreshToken);
      expect(sessionOf(successor)).toBe(sid);
      // A fresh access token each, all of the one session.
      expect(answers.map((a) => claimsOf(a.accessToken).sid)).toEqual(answers.map(() => sid));
      expect(new Set(answers.map((a) => claimsOf(a.accessToken).jti)).size).toBe(ways);
      // The session stays alive, and the shared successor refreshes again.
      expect((await sessionRepo(deps.store).get(tenant, user.id, sid))?.revokedAt).toBeNull();
      const after = await refresh(deps, tenant, successor, client);
      expect(sessionOf(after.refreshToken)).toBe(sid);
      expect(after.refreshToken).not.toBe(successor);
      // Each grace answer is recorded (every refresh but the one that rotated).
      expect((await activityTypes(deps, tenant, user.id)).filter((t) => t === 'REFRESH_TOKEN_GRACE')).toHaveLength(
        ways - 1,
      );
    },
  );

  it('answers a retry 9 s after the rotation the same successor, and revokes the session at 11 s (REFRESH_TOKEN_REUSED)', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    const next = await refresh(deps, tenant, tokens.refreshToken, client);
    advance(9_000);
    expect((await refresh(deps, tenant, tokens.refreshToken, client)).refreshToken).toBe(next.refreshToken);
    advance(2_000);

    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_REUSED');

    expect(
      (await sessionRepo(deps.store).get(tenant, user.id, sessionOf(tokens.refreshToken)))?.revokedAt,
    ).not.toBeNull();
    // The chain every holder shared is dead too.
    await rejects(refresh(deps, tenant, next.refreshToken, client), 'REFRESH_TOKEN_INVALID');
    const types = await activityTypes(deps, tenant, user.id);
    expect(types).toContain('REFRESH_TOKEN_GRACE');
    expect(types).toContain('REFRESH_TOKEN_REUSED');
  });

  it('answers 401 REFRESH_TOKEN_INVALID, never a token of a dead chain, once the successor has rotated in turn', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    const second = await refresh(deps, tenant, tokens.refreshToken, client);
    advance(1_000);
    expect((await refresh(deps, tenant, tokens.refreshToken, client)).refreshToken).toBe(second.refreshToken);
    const third = await refresh(deps, tenant, second.refreshToken, client);
    advance(1_000);

    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_INVALID');

    // Nothing was revoked: the chain's current token still works.
    expect((await sessionRepo(deps.store).get(tenant, user.id, sessionOf(tokens.refreshToken)))?.revokedAt).toBeNull();
    expect((await refresh(deps, tenant, third.refreshToken, client)).refreshToken).toBeTruthy();
  });

  it('never extends the 7-day end: a grace answer near day 7 leaves refreshExpiresAt, and none is given past it', async () => {
    const login = new Date();
    const { deps, advance } = depsAt(login);
    const { tenant, user, tokens } = await loggedIn(deps);
    const sid = sessionOf(tokens.refreshToken);
    const end = (await sessionRepo(deps.store).get(tenant, user.id, sid))?.refreshExpiresAt;
    expect(end).toBe(new Date(login.getTime() + 7 * 86_400_000).toISOString());

    advance(7 * 86_400_000 - 6_000);
    const next = await refresh(deps, tenant, tokens.refreshToken, client);
    advance(3_000);
    expect((await refresh(deps, tenant, tokens.refreshToken, client)).refreshToken).toBe(next.refreshToken);
    expect((await sessionRepo(deps.store).get(tenant, user.id, sid))?.refreshExpiresAt).toBe(end);

    // 1 s past the end, 4 s after the rotation: within the grace, but not within the 7 days.
    advance(4_000);
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_INVALID');
    await rejects(refresh(deps, tenant, next.refreshToken, client), 'REFRESH_TOKEN_INVALID');
  });

  it('stores the successor only as its hash: derived under the vault-encrypted refresh-mac key, in clear nowhere', async () => {
    const { deps } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    const next = await refresh(deps, tenant, tokens.refreshToken, client);
    const successor = parseRefreshToken(next.refreshToken);
    const presented = parseRefreshToken(tokens.refreshToken);
    if (!successor || !presented) throw new Error('unparsable refresh token');

    // The server key: a KEYS item, readable only through the vault under its purpose.
    const { Item: keyItem } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: keys.refreshMacKey, ConsistentRead: true }),
    );
    if (typeof keyItem?.encryptedKey !== 'string') throw new Error('no refresh MAC key stored');
    await expect(deps.vault.decrypt(keyItem.encryptedKey, { purpose: 'totp' })).rejects.toThrow();
    const key = Buffer.from(
      await deps.vault.decrypt(keyItem.encryptedKey, { purpose: 'refresh-mac', key: 'REFRESH_MAC' }),
    );
    expect(successorSecret(key, user.id, presented.sessionId, presented.secret)).toBe(successor.secret);

    // The session holds the successor's hash; no item holds the successor (nor the key) in clear.
    const session = await sessionRepo(deps.store).get(tenant, user.id, presented.sessionId);
    expect(session?.refreshHash).toBe(hashRefreshSecret(successor.secret));
    const everything = [];
    for (const pk of [keys.userPartition(tenant, user.id), keys.signingKeysPartition]) {
      everything.push(...(await partition(deps, pk)));
    }
    const dump = JSON.stringify(everything);
    expect(dump).not.toContain(successor.secret);
    expect(dump).not.toContain(key.toString('base64'));
    expect(dump).not.toContain(key.toString('base64url'));
    expect(dump).not.toContain(key.toString('hex'));
  });
});

describe('refresh: the session item alone tells current, grace and replay apart', () => {
  const made = (token: string, generation: number) => {
    const [, user, session] = token.split('.');
    return `rt2.${user}.${session}.${generation}.${Buffer.alloc(32, 7).toString('base64url')}`;
  };

  it('ends nothing for a token made up from the ids at a rotated-out generation, past the grace', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    const second = await refresh(deps, tenant, tokens.refreshToken, client);
    const third = await refresh(deps, tenant, second.refreshToken, client);
    advance(60_000);
    for (const generation of [0, 1, 2, 3, 999_999]) {
      await rejects(refresh(deps, tenant, made(third.refreshToken, generation), client), 'REFRESH_TOKEN_INVALID');
    }
    expect((await sessionRepo(deps.store).get(tenant, user.id, sessionOf(tokens.refreshToken)))?.revokedAt).toBeNull();
    expect(await activityTypes(deps, tenant, user.id)).not.toContain('REFRESH_TOKEN_REUSED');
    expect((await refresh(deps, tenant, third.refreshToken, client)).refreshToken).toMatch(
      /^rt2\.usr_\w+\.ses_\w+\.3\./,
    );
  });

  it('revokes the session for a token several rotations old, even right after the latest rotation', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    let current = tokens.refreshToken;
    for (let i = 0; i < 4; i++) {
      advance(60_000);
      current = (await refresh(deps, tenant, current, client)).refreshToken;
    }
    advance(1_000);
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_REUSED');
    expect(
      (await sessionRepo(deps.store).get(tenant, user.id, sessionOf(tokens.refreshToken)))?.revokedAt,
    ).not.toBeNull();
    await rejects(refresh(deps, tenant, current, client), 'REFRESH_TOKEN_INVALID');
  });

  it('still answers a replay after the session ended (logout) as one: REFRESH_TOKEN_REUSED, nothing more recorded', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    const next = await refresh(deps, tenant, tokens.refreshToken, client);
    await sessionRepo(deps.store).revoke(tenant, user.id, sessionOf(tokens.refreshToken), deps.clock.now());
    advance(60_000);
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_REUSED');
    await rejects(refresh(deps, tenant, next.refreshToken, client), 'REFRESH_TOKEN_INVALID');
    expect(await activityTypes(deps, tenant, user.id)).not.toContain('REFRESH_TOKEN_REUSED');
  });

  it('rotates with one write of the session item: no other item is written', async () => {
    const { deps } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    const before = await partition(deps, keys.userPartition(tenant, user.id));
    await refresh(deps, tenant, tokens.refreshToken, client);
    const after = await partition(deps, keys.userPartition(tenant, user.id));
    const changed = after.filter((item) => !before.some((b) => JSON.stringify(b) === JSON.stringify(item)));
    expect(changed.map((item) => item.entity)).toEqual(['SESSION']);
    expect(after).toHaveLength(before.length);
  });
});

describe('refresh tokens issued before generations were counted (rt1)', () => {
  /** A session as stored before: no generation nor rotation fields, and its token in the `rt1` format. */
  async function legacySession(deps: Deps) {
    const { tenant, user, tokens } = await loggedIn(deps);
    const parsed = parseRefreshToken(tokens.refreshToken);
    if (!parsed) throw new Error('unparsable refresh token');
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.session(tenant, user.id, parsed.sessionId),
        UpdateExpression: 'REMOVE refreshGen, prevRefreshHash, prevRotatedAt, olderRotatedAt',
      }),
    );
    return { tenant, user, parsed, legacy: `rt1.${parsed.userId}.${parsed.sessionId}.${parsed.secret}` };
  }

  it('rotates the current one into the new format; within 10 s it gets the same successor, after that it is a replay', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, user, legacy } = await legacySession(deps);
    const next = await refresh(deps, tenant, legacy, client);
    expect(next.refreshToken).toMatch(/^rt2\.usr_\w+\.ses_\w+\.1\./);
    advance(5_000);
    expect((await refresh(deps, tenant, legacy, client)).refreshToken).toBe(next.refreshToken);
    advance(6_000);
    await rejects(refresh(deps, tenant, legacy, client), 'REFRESH_TOKEN_REUSED');
    expect(await activityTypes(deps, tenant, user.id)).toContain('REFRESH_TOKEN_REUSED');
  });

  it('recognises one rotated out before, by the record kept of it then', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, user, parsed } = await legacySession(deps);
    const older = Buffer.alloc(32, 9).toString('base64url');
    await deps.store.doc.send(
      new PutCommand({
        TableName: deps.store.tableName,
        Item: {
          ...keys.usedRefreshToken(tenant, user.id, hashRefreshSecret(older)),
          entity: 'USED_REFRESH_TOKEN',
          sessionId: parsed.sessionId,
          rotatedAt: deps.clock.now().toISOString(),
        },
      }),
    );
    advance(11_000);
    await rejects(refresh(deps, tenant, `rt1.${user.id}.${parsed.sessionId}.${older}`, client), 'REFRESH_TOKEN_REUSED');
    expect((await sessionRepo(deps.store).get(tenant, user.id, parsed.sessionId))?.revokedAt).not.toBeNull();
  });
});
