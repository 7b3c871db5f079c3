import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { jsonLogger } from '#shared/log.ts';
import { keys } from '#shared/store/keys.ts';
import { type AdminTenant, adminApi, anEmail } from '#test/support/admin.ts';
import { latestCodeTo } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, bearer } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * Secrets: canary passwords, the e-mailed codes, access and
 * refresh tokens, an API key, a TOTP secret and its backup codes are pushed
 * through signup, login, refresh, TOTP enrolment, password change and reset,
 * and API key use. None may appear in the logs written meanwhile (the local
 * gateway runs the handlers in this process, so their stdout and stderr are
 * captured here), in the answers where they do not belong, or in clear in
 * any stored item of the tenant.
 */

// Every line a deployed function writes, here too: each request's line, its summary and its metrics (the test
// run keeps them quiet elsewhere: vitest.config.ts). This file's handlers build their deps after this.
process.env.LOG_LEVEL = 'info';

const api = useLocalStack();
const { call, aSuperAdmin } = adminApi(() => api.url);
const deps = makeTestDeps();

const run = `${process.pid}${Date.now().toString(36)}`;
const CANARY_SIGNUP = `Canary-Signup-${run}-Zq9`;
const CANARY_CHANGED = `Canary-Changed-${run}-Xk7`;
const CANARY_RESET = `Canary-Reset-${run}-Wv5`;

/** Every secret the flow handed out or took in, by name (so a failure says which one leaked). */
const secrets = new Map<string, string>();
const remember = (name: string, value: unknown) => {
  expect(typeof value, name).toBe('string');
  secrets.set(name, value as string);
  return value as string;
};

let captured = '';
const originalWrites = { out: process.stdout.write, err: process.stderr.write };

function startCapture() {
  const tap = (original: typeof process.stdout.write) =>
    function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof process.stdout.write;
  process.stdout.write = tap(originalWrites.out);
  process.stderr.write = tap(originalWrites.err);
}

function stopCapture() {
  process.stdout.write = originalWrites.out;
  process.stderr.write = originalWrites.err;
}

let owner: AdminTenant;
let userId: string;
let email: string;
/** Answers to reads where no secret belongs: path → body text. */
const reads = new Map<string, string>();

const expectOk = (res: Answer, status: number, what: string) =>
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);

beforeAll(async () => {
  owner = await aSuperAdmin({ signupMode: 'OPEN' });
  const tenant = owner.tenant;
  email = anEmail('canary');
  startCapture();
  try {
    // Signup with a canary password, and its e-mailed code.
    const signup = await call('POST', '/auth/signup', tenant.headers, {
      app: tenant.app,
      mid: tenant.mid,
      email,
      password: CANARY_SIGNUP,
      firstName: 'Canary',
      lastName: 'Bird',
    });
    expectOk(signup, 201, 'signup');
    const signupCode = remember('signup code', await latestCodeTo(api.stack.sesUrl, email));
    const verified = await call('POST', '/auth/signup/verify', tenant.headers, {
      challengeId: signup.body.data.challengeId,
      code: signupCode,
    });
    expectOk(verified, 200, 'signup verify');
    userId = verified.body.data.user.id;
    remember('signup access token', verified.body.data.accessToken);
    remember('signup refresh token', verified.body.data.refreshToken);

    // Login with the password, and a refresh.
    const login = await call('POST', '/auth/login', tenant.headers, { email, password: CANARY_SIGNUP });
    expectOk(login, 200, 'login');
    remember('login access token', login.body.data.accessToken);
    const refreshToken = remember('login refresh token', login.body.data.refreshToken);
    const refreshed = await call('POST', '/auth/refresh', tenant.headers, { refreshToken });
    expectOk(refreshed, 200, 'refresh');
    const accessToken = remember('refreshed access token', refreshed.body.data.accessToken);
    remember('refreshed refresh token', refreshed.body.data.refreshToken);
    const asUser = bearer(tenant, accessToken);

    // TOTP enrolment: its secret and backup codes.
    const init = await call('POST', '/users/me/totp/init', asUser);
    expectOk(init, 200, 'totp init');
    const totpSecret = remember('TOTP secret', new URL(init.body.qrUri).searchParams.get('secret'));
    const backupCodes = init.body.backupCodes as string[];
    backupCodes.forEach((code, i) => {
      remember(`backup code ${i}`, code);
    });
    const totpCode = totpCodeAt(totpSecret, new Date());
    expectOk(await call('POST', '/users/me/totp/verify', asUser, { code: totpCode }), 204, 'totp verify');

    // Password change (with a backup code), then a reset by e-mailed code.
    const changed = await call('POST', '/users/me/password', asUser, {
      currentPassword: CANARY_SIGNUP,
      newPassword: CANARY_CHANGED,
      totpCode: backupCodes[0],
    });
    expectOk(changed, 204, 'password change');
    const forgot = await call('POST', '/auth/forgot-password', tenant.headers, { email });
    expectOk(forgot, 202, 'forgot password');
    const resetCode = remember('reset code', await latestCodeTo(api.stack.sesUrl, email));
    const reset = await call('POST', '/auth/reset-password', tenant.headers, {
      challengeId: forgot.body.challengeId ?? forgot.body.data?.challengeId,
      code: resetCode,
      newPassword: CANARY_RESET,
    });
    expectOk(reset, 204, 'reset password');

    // Login again: the TOTP step, answered with a backup code.
    const again = await call('POST', '/auth/login', tenant.headers, { email, password: CANARY_RESET });
    expectOk(again, 200, 'login after reset');
    expect(again.body.data.challengeType).toBe('TOTP');
    const second = await call('POST', '/auth/login/verify', tenant.headers, {
      challengeId: again.body.data.challengeId,
      code: backupCodes[1],
    });
    expectOk(second, 200, 'login verify');
    const lastAccess = remember('last access token', second.body.data.accessToken);
    remember('last refresh token', second.body.data.refreshToken);

    // An API key, created by the owner and used.
    const created = await call('POST', `/merchants/${tenant.id}/api-keys`, owner.headers, { label: 'canary' });
    expectOk(created, 201, 'api key');
    const apiKey = remember('API key', created.body.apiKey);
    const asKey = { ...tenant.headers, 'x-api-key': apiKey };
    expectOk(await call('GET', '/users', asKey), 200, 'api key use');

    // The reads where none of it belongs.
    const paths: [string, Record<string, string>][] = [
      ['/users/me', bearer(tenant, lastAccess)],
      ['/users/me/sessions', bearer(tenant, lastAccess)],
      ['/users', asKey],
      [`/users/${userId}`, asKey],
      [`/users/${userId}/activity?limit=100`, asKey],
      [`/users/${userId}/devices`, asKey],
      [`/merchants/${tenant.id}/api-keys`, owner.headers],
      ['/merchants/me', owner.headers],
      ['/roles', owner.headers],
    ];
    for (const [path, headers] of paths) {
      const res = await call('GET', path, headers);
      expectOk(res, 200, `GET ${path}`);
      reads.set(path, JSON.stringify(res.body));
    }
  } finally {
    stopCapture();
  }
  secrets.set('signup password', CANARY_SIGNUP);
  secrets.set('changed password', CANARY_CHANGED);
  secrets.set('reset password', CANARY_RESET);
  // The secret halves too, in case a token is stored or logged in pieces.
  for (const [name, value] of [...secrets]) {
    if (value.startsWith('rt2.')) secrets.set(`${name} (secret)`, value.split('.').at(-1) ?? '');
    if (value.startsWith('sk_key_')) secrets.set(`${name} (secret)`, value.split('_').slice(3).join('_'));
  }
}, 60_000);

afterAll(stopCapture);

/** The secrets (by name) found in a text; short numeric codes only as whole numbers. */
function leaked(text: string): string[] {
  return [...secrets]
    .filter(([, value]) =>
      /^\d{1,8}$/.test(value) ? new RegExp(`(^|\\D)${value}(\\D|$)`).test(text) : text.includes(value),
    )
    .map(([name]) => name);
}

describe('secrets pushed through signup, login, refresh, TOTP, password change and reset, and an API key', () => {
  it('the flow handed out every kind of secret, and the capture hears the service logger', () => {
    expect(secrets.size).toBeGreaterThanOrEqual(20);
    const before = captured.length;
    startCapture();
    jsonLogger.info('capture check', { marker: run });
    stopCapture();
    expect(captured.slice(before)).toContain(run);
    // The flow's requests wrote their lines, summary and metrics, and the capture heard them.
    expect(captured).toContain('"message":"request"');
    expect(captured).toContain('"route":"login"');
    expect(captured).toContain('"CloudWatchMetrics"');
  });

  it('never appear in the logs written during the flow', () => {
    expect(leaked(captured)).toEqual([]);
  });

  for (const path of [
    '/users/me',
    '/users/me/sessions',
    '/users',
    '/users/{id}',
    '/users/{id}/activity',
    '/users/{id}/devices',
    '/merchants/{id}/api-keys',
    '/merchants/me',
    '/roles',
  ]) {
    it(`never appear in GET ${path}`, () => {
      const entry = [...reads].find(([read]) =>
        read.startsWith(path.replace('{id}', path.startsWith('/merchants/') ? owner.tenant.id : userId)),
      );
      expect(entry, path).toBeDefined();
      expect(leaked(entry?.[1] ?? '')).toEqual([]);
    });
  }

  it('are stored only as hashes or ciphertexts: no item of the tenant holds one in clear', async () => {
    const tenantPrefix = keys.merchant(owner.tenant).pk;
    // Tests may Scan (the service never does): every item whose key names the tenant, and every index key.
    const items: Record<string, unknown>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await deps.store.doc.send(
        new ScanCommand({ TableName: deps.store.tableName, ExclusiveStartKey, ConsistentRead: true }),
      );
      items.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    const ofTenant = items.filter((item) => JSON.stringify(item).includes(tenantPrefix));
    // The user's partition alone, as the service reads it, must be among them.
    const partition = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.userPartition(owner.tenant, userId) },
      }),
    );
    expect(partition.Items?.length).toBeGreaterThan(1);
    expect(ofTenant.length).toBeGreaterThanOrEqual(partition.Items?.length ?? 0);

    // Binary attributes (ciphertexts) are searched as text too: a secret kept in clear bytes would show.
    const asText = (item: unknown) =>
      JSON.stringify(item, (_, value) =>
        value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : (value as unknown),
      );
    const found = ofTenant
      .map((item) => ({ key: `${item.pk} ${item.sk}`, leaks: leaked(asText(item)) }))
      .filter((hit) => hit.leaks.length > 0);
    expect(found).toEqual([]);
  });
});
