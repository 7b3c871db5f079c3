import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
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

const client = { ip: '203.0.113.7', userAgent: 'vitest' };

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
    const { Items } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, user.id) },
      }),
    );
    expect(Items?.map((i) => i.type)).toContain('REFRESH_TOKEN_REUSED');
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

/** A session's id, from a refresh token `rt1.<user>.<session>.<secret>`. */
const sessionOf = (refreshToken: string) => refreshToken.split('.')[2] ?? '';
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid: string; jti: string };

async function activityTypes(deps: Deps, tenant: Merchant, userId: string): Promise<string[]> {
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, userId) },
      ConsistentRead: true,
    }),
  );
  return Items.map((i) => String(i.type));
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
      const { Items = [] } = await deps.store.doc.send(
        new QueryCommand({
          TableName: deps.store.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
        }),
      );
      everything.push(...Items);
    }
    const dump = JSON.stringify(everything);
    expect(dump).not.toContain(successor.secret);
    expect(dump).not.toContain(key.toString('base64'));
    expect(dump).not.toContain(key.toString('base64url'));
    expect(dump).not.toContain(key.toString('hex'));
  });
});
