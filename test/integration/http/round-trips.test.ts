import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { authRoutes } from '#functions/auth/routes.ts';
import { userRoutes } from '#functions/users/routes.ts';
import { getMe } from '#shared/account/me.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { login, loginPrefetch } from '#shared/auth/login.ts';
import { refresh, refreshPrefetch } from '#shared/auth/refresh.ts';
import { depsWithStore } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { deviceFingerprint } from '#shared/sessions/fingerprint.ts';
import { guardRepo } from '#shared/store/guard-repo.ts';
import { keys } from '#shared/store/keys.ts';
import { mailSuppressionKey } from '#shared/store/mail-suppression-repo.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { withPrefetch } from '#shared/store/prefetch.ts';
import { sessionRepo } from '#shared/store/session-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { refreshMacKey } from '#shared/tokens/refresh-successor.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { aContext, anEvent } from '#test/support/events.ts';

/**
 * DynamoDB round trips of the hot paths (the benchmark's targets), through the real
 * handler code: the bearer check reads the tenant, the session and the user in
 * ONE BatchGetItem, while the answers keep their order (unknown tenant 404,
 * Origin 403, then the token's verdict); login and refresh read what they need
 * first together with the tenant.
 */

const deps = makeTestDeps();
const guards = guardRepo(deps.store);
const calls: string[] = [];
/** Each call's command and input, as the document client sends it (since `calls` was last emptied). */
const sent: { command: string; input: Record<string, any> }[] = [];
deps.store.doc.middlewareStack.add(
  (next, context) => async (args) => {
    if (calls.length === 0) sent.length = 0;
    calls.push(String(context.commandName));
    sent.push({ command: String(context.commandName), input: args.input as Record<string, any> });
    return next(args);
  },
  { step: 'initialize', name: 'countCalls' },
);

const getMeHandler = httpHandler(userRoutes.getMe, ({ tenant, auth }, routeDeps) => getMe(routeDeps, tenant, auth), {
  deps: () => deps,
  authenticators: identityAuthenticators,
});

async function getMeWith(headers: Record<string, string>) {
  calls.length = 0;
  const res = (await getMeHandler(anEvent({ path: '/api/v1/users/me', headers }), aContext())) as {
    statusCode: number;
    body: string;
  };
  return { status: res.statusCode, body: JSON.parse(res.body), calls: [...calls] };
}

let tenant: Merchant;
let tenantHeaders: Record<string, string>;
let accessToken: string;
let otherTenantToken: string;

async function signIn(of: Merchant) {
  const user = await aUser(of);
  const answer = (await login(
    deps,
    of,
    { email: user.email, password: user.password },
    { ip: '203.0.113.9', userAgent: 'vitest', language: 'en' as const },
  )) as { accessToken: string };
  return answer.accessToken;
}

beforeAll(async () => {
  const [created, other] = await Promise.all([aTenantWith(), aTenantWith()]);
  tenant = (await merchantRepo(deps.store).get(created)) as Merchant;
  tenantHeaders = { 'x-app-id': created.app, 'x-mid-key': created.mid };
  accessToken = await signIn(tenant);
  otherTenantToken = await signIn((await merchantRepo(deps.store).get(other)) as Merchant);
  // Warm: the signing key is read once per process, not per request.
  await getMeWith({ ...tenantHeaders, authorization: `Bearer ${accessToken}` });
});

describe('GET /users/me', () => {
  it('reads the tenant, the session and the user in one BatchGetItem', async () => {
    const res = await getMeWith({ ...tenantHeaders, authorization: `Bearer ${accessToken}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(JSON.stringify(res.body)).toMatch(/"id":"usr_/);
    expect(res.calls).toEqual(['BatchGetItemCommand']);
  });

  it('still answers 404 TENANT_NOT_FOUND for an unknown tenant with a good token of it', async () => {
    const res = await getMeWith({
      'x-app-id': tenant.app,
      'x-mid-key': 'mid_unknown',
      authorization: `Bearer ${accessToken}`,
    });
    expect(res).toMatchObject({ status: 404, body: { code: 'TENANT_NOT_FOUND' } });
  });

  it("answers 403 TENANT_MISMATCH to another tenant's token", async () => {
    const res = await getMeWith({ ...tenantHeaders, authorization: `Bearer ${otherTenantToken}` });
    expect(res).toMatchObject({ status: 403, body: { code: 'TENANT_MISMATCH' } });
  });

  it('refuses a disallowed Origin before looking at the token, even a good one', async () => {
    const res = await getMeWith({
      ...tenantHeaders,
      origin: 'https://evil.example',
      authorization: `Bearer ${accessToken}`,
    });
    expect(res).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } });
  });

  it('writes nothing: not on the first request of a new session, nor on the next ones', async () => {
    const token = await signIn(tenant);
    for (let i = 0; i < 3; i++) {
      const res = await getMeWith({ ...tenantHeaders, authorization: `Bearer ${token}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.calls.filter((call) => !/^(Get|BatchGet|Query)/.test(call))).toEqual([]);
    }
  });

  it('answers 401 SESSION_REVOKED once the session is revoked', async () => {
    const revokedToken = await signIn(tenant);
    const { sub, sid } = JSON.parse(Buffer.from(revokedToken.split('.')[1] as string, 'base64url').toString());
    await sessionRepo(deps.store).revoke(tenant, sub, sid, deps.clock.now());
    const res = await getMeWith({ ...tenantHeaders, authorization: `Bearer ${revokedToken}` });
    expect(res).toMatchObject({ status: 401, body: { code: 'SESSION_REVOKED' } });
  });
});

const loginHandler = httpHandler(
  authRoutes.login,
  async ({ tenant, body, client }, routeDeps) => ({
    success: true as const,
    data: await login(routeDeps, tenant, body, client),
  }),
  // A password login sends no mail; the route is flagged `ses` for e-mail codes.
  { deps: () => deps, prefetch: loginPrefetch, mailer: () => ({ send: async () => {} }) },
);
const refreshHandler = httpHandler(
  authRoutes.refresh,
  async ({ tenant, body, client }, routeDeps) => ({
    success: true as const,
    data: await refresh(routeDeps, tenant, body.refreshToken, client),
  }),
  { deps: () => deps, prefetch: refreshPrefetch },
);

async function post(handler: typeof loginHandler, path: string, body: unknown) {
  calls.length = 0;
  const res = (await handler(
    anEvent({
      method: 'POST',
      path,
      headers: { ...tenantHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    aContext(),
  )) as { statusCode: number; body: string };
  return { status: res.statusCode, body: JSON.parse(res.body), calls: [...calls] };
}

/** An item's size as DynamoDB bills it: names and values in UTF-8, numbers by digits, 3 bytes per map or list. */
function itemSize(item: Record<string, unknown>): number {
  const size = (value: unknown): number => {
    if (value === null || typeof value === 'boolean') return 1;
    if (typeof value === 'string') return Buffer.byteLength(value);
    if (typeof value === 'number') return Math.ceil(String(Math.abs(value)).replace('.', '').length / 2) + 1;
    const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value as object);
    return 3 + entries.reduce((sum, [name, v]) => sum + Buffer.byteLength(name) + size(v) + 1, 0);
  };
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + size(value), 0);
}

/** The kind of item a write names (`PROFILE`, `SESSION`, `DEVICE`, `LOCK`, `RATE`, `ACT` for an activity). */
function writtenKinds(): string[] {
  const kindOf = (key: { pk: string; sk: string }) => (key.pk.endsWith('#ACT') ? 'ACT' : key.sk.split('#')[0]);
  return sent
    .flatMap(({ command, input }) => {
      if (command === 'TransactWriteItemsCommand') return [`transaction of ${input.TransactItems.length}`];
      if (command === 'PutItemCommand') return [kindOf(input.Item)];
      if (command === 'UpdateItemCommand' || command === 'DeleteItemCommand') return [kindOf(input.Key)];
      return [];
    })
    .sort() as string[];
}

describe('POST /auth/login (password)', () => {
  it('reads the tenant, the e-mail claim and the lockout together; then the rate counter, the attempt reserved, the profile and the device; then the profile; then the session, its activity, the device and the place given back: no transaction', async () => {
    const user = await aUser(tenant);
    const res = await post(loginHandler, '/api/v1/auth/login', { email: user.email, password: user.password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.calls[0]).toBe('BatchGetItemCommand');
    expect([...res.calls.slice(1, 5)].sort()).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'UpdateItemCommand',
      'UpdateItemCommand',
    ]);
    expect(res.calls[5]).toBe('UpdateItemCommand');
    expect([...res.calls.slice(6)].sort()).toEqual([
      'PutItemCommand',
      'PutItemCommand',
      'PutItemCommand',
      'UpdateItemCommand',
    ]);
    // A new device: its record is written; the lock item held no count, so only this attempt's place is given back.
    expect(writtenKinds()).toEqual(['ACT', 'DEVICE', 'LOCK', 'LOCK', 'PROFILE', 'RATE', 'SESSION']);
  });

  it('writes no device item on a second login from the same device, and no transaction: six items, each under 1 KB', async () => {
    const user = await aUser(tenant);
    await post(loginHandler, '/api/v1/auth/login', { email: user.email, password: user.password });
    const again = await post(loginHandler, '/api/v1/auth/login', { email: user.email, password: user.password });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(writtenKinds()).toEqual(['ACT', 'LOCK', 'LOCK', 'PROFILE', 'RATE', 'SESSION']);
    expect(again.calls).not.toContain('TransactWriteItemsCommand');
    // Each item it writes stays below 1 KB (one write unit each): the profile lists two sessions now.
    const stored = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: keys.user(tenant, user.id), ConsistentRead: true }),
    );
    expect(Object.keys(stored.Item?.liveSessions ?? {})).toHaveLength(2);
    for (const { input } of sent.filter((s) => s.command === 'PutItemCommand')) {
      expect(itemSize(input.Item), input.Item.sk).toBeLessThan(1024);
    }
    expect(itemSize(stored.Item ?? {})).toBeLessThan(1024);
  });

  it('writes the device again once its record is a day old, counting one more sign-in', async () => {
    const user = await aUser(tenant);
    await post(loginHandler, '/api/v1/auth/login', { email: user.email, password: user.password });
    const userAgent = anEvent({ path: '/' }).headers['user-agent'] ?? '';
    const deviceKey = keys.device(tenant, user.id, deviceFingerprint(userAgent));
    const dayAgo = new Date(Date.now() - 86_400_000 - 1000).toISOString();
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: deviceKey,
        UpdateExpression: 'SET lastSeenAt = :at, firstSeenAt = :at',
        ExpressionAttributeValues: { ':at': dayAgo },
      }),
    );
    const again = await post(loginHandler, '/api/v1/auth/login', { email: user.email, password: user.password });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(writtenKinds()).toContain('DEVICE');
    const { Item } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: deviceKey, ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ firstSeenAt: dayAgo, seenCount: 2 });
    expect(Date.parse(Item?.lastSeenAt)).toBeGreaterThan(Date.parse(dayAgo) + 86_400_000);
  });

  it('still refuses a wrong password and counts it (the prefetched lockout is not stale for the next one)', async () => {
    const user = await aUser(tenant);
    const wrong = await post(loginHandler, '/api/v1/auth/login', { email: user.email, password: 'Wrong-password-1' });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
    expect((await guards.lockState(tenant, user.email, new Date())).counted).toBe(true);
    // The next success clears the counter by one plain delete, beside the session's writes: no round trip of its own.
    const right = await post(loginHandler, '/api/v1/auth/login', { email: user.email, password: user.password });
    expect(right.status).toBe(200);
    expect(right.calls).toContain('DeleteItemCommand');
    expect(right.calls).not.toContain('TransactWriteItemsCommand');
    expect((await guards.lockState(tenant, user.email, new Date())).counted).toBe(false);
  });
});

describe('POST /auth/login (e-mail code)', () => {
  it("reads the address's mail suppression with the tenant, the claim and the lockout: no GetItem of its own", async () => {
    const codeTenant = (await merchantRepo(deps.store).get(
      await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' }),
    )) as Merchant;
    const user = await aUser(codeTenant);
    calls.length = 0;
    const res = (await loginHandler(
      anEvent({
        method: 'POST',
        path: '/api/v1/auth/login',
        headers: { 'x-app-id': codeTenant.app, 'x-mid-key': codeTenant.mid, 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, loginMode: 'OTP_EMAIL' }),
      }),
      aContext(),
    )) as { statusCode: number; body: string };
    expect(res.statusCode, res.body).toBe(200);
    expect(calls[0]).toBe('BatchGetItemCommand');
    // The suppression came with the tenant: the reads after it are the profile's alone (findByEmail).
    expect(calls.filter((call) => call === 'GetItemCommand')).toEqual(['GetItemCommand']);
    expect(loginPrefetch({ email: user.email, loginMode: 'OTP_EMAIL' }, codeTenant)).toContainEqual(
      mailSuppressionKey(codeTenant, user.email),
    );
    // A password login never mails: its prefetch leaves the suppression out.
    expect(loginPrefetch({ email: user.email, password: 'x' }, codeTenant)).not.toContainEqual(
      mailSuppressionKey(codeTenant, user.email),
    );
  });
});

describe('POST /auth/refresh', () => {
  it("reads the tenant, the token's user and session and (on a cold start) the successor key together, then rotates the session item: two round trips, no rate item, no transaction", async () => {
    // The successor key exists (another process made it), but this process has not read it yet.
    await refreshMacKey(makeTestDeps());
    const user = await aUser(tenant);
    const signedIn = (await login(
      deps,
      tenant,
      { email: user.email, password: user.password },
      { ip: '203.0.113.9', userAgent: 'vitest', language: 'en' as const },
    )) as { refreshToken: string };
    const cold = await post(refreshHandler, '/api/v1/auth/refresh', { refreshToken: signedIn.refreshToken });
    expect(cold.status, JSON.stringify(cold.body)).toBe(200);
    // Refresh counts in no per-IP limit: the rotation is its one write.
    expect(cold.calls).toEqual(['BatchGetItemCommand', 'UpdateItemCommand']);
    // Warm: the key is cached, and the same two.
    const warm = await post(refreshHandler, '/api/v1/auth/refresh', { refreshToken: cold.body.data.refreshToken });
    expect(warm.status, JSON.stringify(warm.body)).toBe(200);
    expect(warm.calls).toEqual(['BatchGetItemCommand', 'UpdateItemCommand']);
  });
});

describe('a request view with what it prefetched', () => {
  it('answers the first read of a prefetched key without a call, and the next one from the table', async () => {
    const user = await aUser(tenant);
    const { prefetched } = await merchantRepo(deps.store).getWith(tenant, [
      keys.user(tenant, user.id),
      keys.user(tenant, 'usr_missing'),
    ]);
    const view = depsWithStore(deps, withPrefetch(deps.store, prefetched));
    calls.length = 0;
    expect((await userRepo(view.store).get(tenant, user.id))?.email).toBe(user.email);
    expect(await userRepo(view.store).get(tenant, 'usr_missing')).toBeNull();
    expect(calls).toEqual([]);
    await userRepo(deps.store).update(tenant, user.id, { firstName: 'Changed' });
    calls.length = 0;
    expect((await userRepo(view.store).get(tenant, user.id))?.firstName).toBe('Changed');
    expect(calls).toEqual(['GetItemCommand']);
  });
});
