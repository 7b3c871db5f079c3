import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { refresh } from '#shared/auth/refresh.ts';
import { startSession } from '#shared/auth/session-start.ts';
import type { Deps } from '#shared/deps.ts';
import { keys } from '#shared/store/keys.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
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
  const tenant = (await deps.merchants.get(created)) as Merchant;
  const testUser = await aUser(tenant, {}, deps);
  const user = await deps.users.get(tenant, testUser.id);
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
    const session = await deps.sessions.get(tenant, user.id, tokens.refreshToken.split('.')[2] ?? '');
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

  it('treats a replay within the 10 s grace as a lost race: 401 REFRESH_TOKEN_INVALID, session kept', async () => {
    const { deps, advance } = depsAt(new Date());
    const { tenant, tokens } = await loggedIn(deps);
    const next = await refresh(deps, tenant, tokens.refreshToken, client);
    advance(9_000);
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_INVALID');
    expect((await refresh(deps, tenant, next.refreshToken, client)).refreshToken).toBeTruthy();
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

  it('lets exactly one of ten simultaneous refreshes with one token win', async () => {
    const { deps } = depsAt(new Date());
    const { tenant, tokens } = await loggedIn(deps);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => refresh(deps, tenant, tokens.refreshToken, client)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'REFRESH_TOKEN_INVALID' });
    }
  });

  it('gives no tokens to a user who is no longer ACTIVE, and ends the session', async () => {
    const { deps } = depsAt(new Date());
    const { tenant, user, tokens } = await loggedIn(deps);
    await deps.users.update(tenant, user.id, { status: 'COMPROMISED' });
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_INVALID');
    await deps.users.update(tenant, user.id, { status: 'ACTIVE' });
    await rejects(refresh(deps, tenant, tokens.refreshToken, client), 'REFRESH_TOKEN_INVALID');
  });
});
