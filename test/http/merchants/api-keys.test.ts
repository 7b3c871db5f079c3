import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/store/keys.ts';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { expectInvalid, expectProblem, isoTimestamp } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { merchantsApi } from './helpers.ts';

const api = useLocalStack();
const { call, anAdmin, aPlainUser } = merchantsApi(() => api.url);

/** `sk_` + keyId (`key_` + 20 base32) + `_` + 43 base64url characters of secret. */
const KEY_FORMAT = /^sk_(key_[0-9a-hjkmnp-tv-z]{20})_([A-Za-z0-9_-]{43})$/;

const keysPath = (tenant: TestTenant) => `/merchants/${tenant.id}/api-keys`;
const createKey = (tenant: TestTenant, headers: Record<string, string>, label = 'CI deploy') =>
  call('POST', keysPath(tenant), headers, { label });
const listKeys = (tenant: TestTenant, headers: Record<string, string>) => call('GET', keysPath(tenant), headers);
const revokeKey = (tenant: TestTenant, headers: Record<string, string>, keyId: string) =>
  call('DELETE', `${keysPath(tenant)}/${keyId}`, headers);
const withKey = (tenant: TestTenant, key: string) => ({ ...tenant.headers, 'x-api-key': key });

/** An admin's tenant and a fresh key of it. */
async function aKey(label = 'CI deploy') {
  const admin = await anAdmin();
  const res = await createKey(admin.tenant, admin.headers, label);
  expect(res.status).toBe(201);
  return { ...admin, created: res.body as { keyId: string; apiKey: string; keyPrefix: string; label: string } };
}

/** Every item in the tenant's own partition (merchant, roles, keys …), as stored. */
async function rawTenantItems(tenant: TestTenant): Promise<Record<string, unknown>[]> {
  const deps = makeTestDeps();
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.merchant(tenant).pk },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

describe('POST /merchants/{id}/api-keys', () => {
  it('answers 201 with the whole key once; the list and the store never hold the key or its secret', async () => {
    const { tenant, headers } = await anAdmin();
    const res = await createKey(tenant, headers, '  CI deploy  ');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      keyId: expect.stringMatching(/^key_[0-9a-hjkmnp-tv-z]{20}$/),
      apiKey: expect.stringMatching(KEY_FORMAT),
      keyPrefix: expect.any(String),
      label: 'CI deploy',
      createdAt: isoTimestamp,
    });
    const { keyId, apiKey: key, keyPrefix } = res.body;
    const [, idInKey, secret] = KEY_FORMAT.exec(key) ?? [];
    expect(idInKey).toBe(keyId);
    expect(keyPrefix).toBe(key.slice(0, 12));
    // The prefix ends before the secret begins.
    expect(key.indexOf(secret ?? '')).toBeGreaterThan(keyPrefix.length);

    const list = await listKeys(tenant, headers);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        keyId,
        keyPrefix,
        label: 'CI deploy',
        createdAt: res.body.createdAt,
        lastUsedAt: null,
        createdBy: tenant.adminUserId,
      },
    ]);
    const listed = JSON.stringify(list.body);
    for (const hidden of [key, secret, 'secretHash', 'hash']) expect(listed).not.toContain(hidden);

    // As stored: the SHA-256 of the secret, never the key or the secret themselves.
    const stored = await rawTenantItems(tenant);
    const item = stored.find((i) => i.keyId === keyId);
    expect(item).toMatchObject({
      entity: 'API_KEY',
      keyId,
      keyPrefix,
      label: 'CI deploy',
      lastUsedAt: null,
      revokedAt: null,
      secretHash: createHash('sha256')
        .update(secret ?? '')
        .digest('hex'),
      createdBy: tenant.adminUserId,
    });
    const raw = JSON.stringify(stored);
    expect(raw).not.toContain(key);
    expect(raw).not.toContain(secret);
  });

  it('makes distinct keys, listed oldest first', async () => {
    const { tenant, headers } = await anAdmin();
    const first = (await createKey(tenant, headers, 'first')).body;
    const second = (await createKey(tenant, headers, 'second')).body;
    expect(first.apiKey).not.toBe(second.apiKey);
    expect(first.keyId).not.toBe(second.keyId);
    expect((await listKeys(tenant, headers)).body.map((k: { label: string }) => k.label)).toEqual(['first', 'second']);
  });

  it.each([
    [{ label: '' }, 'label'],
    [{ label: '   ' }, 'label'],
    [{ label: 'l'.repeat(65) }, 'label'],
    [{ label: 42 }, 'label'],
    [{}, 'label'],
    [{ label: 'ok', scopes: ['*'] }, 'scopes'],
    [{ label: 'ok', key: 'sk_mine' }, 'key'],
  ])('answers 400 VALIDATION_FAILED to %j naming %s, and makes no key', async (body, path) => {
    const { tenant, headers } = await anAdmin();
    expectInvalid(await call('POST', keysPath(tenant), headers, body), path);
    expect((await listKeys(tenant, headers)).body).toEqual([]);
  });

  it('accepts a 64-character label', async () => {
    const { tenant, headers } = await anAdmin();
    expect((await createKey(tenant, headers, 'l'.repeat(64))).status).toBe(201);
  });
});

describe('X-Api-Key', () => {
  it('gives ADMIN access to GET /merchants/me, and the list then shows lastUsedAt', async () => {
    const { tenant, headers, created } = await aKey();
    const res = await call('GET', '/merchants/me', withKey(tenant, created.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(tenant.id);
    const [listed] = (await listKeys(tenant, headers)).body;
    expect(listed).toMatchObject({ keyId: created.keyId, lastUsedAt: isoTimestamp });
  });

  it('may change the merchant, and list and revoke keys, but not make them (403 FORBIDDEN)', async () => {
    const { tenant, headers, created } = await aKey();
    const keyHeaders = withKey(tenant, created.apiKey);
    const patched = await call('PATCH', `/merchants/${tenant.id}`, keyHeaders, { name: 'Set by a key' });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('Set by a key');

    // A leaked key must not plant others that outlive its revocation.
    expectProblem(await createKey(tenant, keyHeaders, 'made by a key'), 403, 'FORBIDDEN');
    const other = await createKey(tenant, headers, 'made by the admin');
    expect(other.status).toBe(201);
    const listed = (await listKeys(tenant, keyHeaders)).body;
    expect(listed).toHaveLength(2);
    expect((await revokeKey(tenant, keyHeaders, other.body.keyId)).status).toBe(204);
    expectProblem(await call('GET', '/merchants/me', withKey(tenant, other.body.apiKey)), 401, 'UNAUTHENTICATED');
  });

  it('is never accepted on /users/me (401 UNAUTHENTICATED)', async () => {
    const { tenant, created } = await aKey();
    expectProblem(await call('GET', '/users/me', withKey(tenant, created.apiKey)), 401, 'UNAUTHENTICATED');
    expectProblem(await call('GET', '/users/me/sessions', withKey(tenant, created.apiKey)), 401, 'UNAUTHENTICATED');
  });

  it("answers 401 UNAUTHENTICATED with another tenant's headers", async () => {
    const { tenant, created } = await aKey();
    const other = await aTenantWith();
    expectProblem(await call('GET', '/merchants/me', withKey(other, created.apiKey)), 401, 'UNAUTHENTICATED');
    const res = await call('GET', `/merchants/${other.id}/api-keys`, withKey(other, created.apiKey));
    expectProblem(res, 401, 'UNAUTHENTICATED');
    expect((await call('GET', '/merchants/me', withKey(tenant, created.apiKey))).status).toBe(200);
  });

  it('answers 401 UNAUTHENTICATED to a forged key: the right keyId with another secret', async () => {
    const { tenant, created } = await aKey();
    const secret = created.apiKey.slice(-43);
    const forged = [
      `sk_${created.keyId}_${'A'.repeat(43)}`,
      `sk_${created.keyId}_${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`,
      `sk_${created.keyId}_${secret}x`,
      `sk_${created.keyId}_${secret.slice(1)}`,
      `sk_${created.keyId}`,
      created.keyId,
      created.keyPrefix,
      `${created.apiKey.slice(0, -43)}${secret.replace(/./, '#')}`,
      '',
      'x'.repeat(4000),
    ];
    for (const key of forged) {
      expectProblem(await call('GET', '/merchants/me', withKey(tenant, key)), 401, 'UNAUTHENTICATED');
    }
  });

  it('answers 401 UNAUTHENTICATED for a revoked key at once', async () => {
    const { tenant, headers, created } = await aKey();
    expect((await call('GET', '/merchants/me', withKey(tenant, created.apiKey))).status).toBe(200);
    const res = await revokeKey(tenant, headers, created.keyId);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectProblem(await call('GET', '/merchants/me', withKey(tenant, created.apiKey)), 401, 'UNAUTHENTICATED');
    expect((await listKeys(tenant, headers)).body).toEqual([]);
  });

  it('may revoke itself: 204, then 401 from the next request on', async () => {
    const { tenant, created } = await aKey();
    const keyHeaders = withKey(tenant, created.apiKey);
    expect((await revokeKey(tenant, keyHeaders, created.keyId)).status).toBe(204);
    expectProblem(await call('GET', '/merchants/me', keyHeaders), 401, 'UNAUTHENTICATED');
  });
});

describe('DELETE /merchants/{id}/api-keys/{keyId}', () => {
  it.each(['key_00000000000000000000', 'key_nope', 'key%23x', 'APIKEY', ''.padEnd(300, 'k')])(
    'answers 404 NOT_FOUND for the unknown keyId %s',
    async (keyId) => {
      const { tenant, headers } = await anAdmin();
      expectProblem(await revokeKey(tenant, headers, keyId), 404, 'NOT_FOUND');
    },
  );

  it('answers 404 for a key revoked already', async () => {
    const { tenant, headers, created } = await aKey();
    expect((await revokeKey(tenant, headers, created.keyId)).status).toBe(204);
    expectProblem(await revokeKey(tenant, headers, created.keyId), 404, 'NOT_FOUND');
  });

  it("answers 404 for another tenant's key, which keeps working", async () => {
    const mine = await anAdmin();
    const theirs = await aKey();
    expectProblem(await revokeKey(mine.tenant, mine.headers, theirs.created.keyId), 404, 'NOT_FOUND');
    expect((await call('GET', '/merchants/me', withKey(theirs.tenant, theirs.created.apiKey))).status).toBe(200);
  });
});

describe('/merchants/{id}/api-keys of another tenant, and without admin authority', () => {
  it("answers 404 NOT_FOUND for another tenant's merchant id on every key route, and changes nothing", async () => {
    const mine = await anAdmin();
    const theirs = await aKey();
    const path = keysPath(theirs.tenant);
    expectProblem(await call('GET', path, mine.headers), 404, 'NOT_FOUND');
    expectProblem(await call('POST', path, mine.headers, { label: 'x' }), 404, 'NOT_FOUND');
    expectProblem(await call('DELETE', `${path}/${theirs.created.keyId}`, mine.headers), 404, 'NOT_FOUND');
    expect((await listKeys(theirs.tenant, theirs.headers)).body).toHaveLength(1);
    expect((await listKeys(mine.tenant, mine.headers)).body).toEqual([]);
  });

  it('answers 403 FORBIDDEN to a user without an admin role and 401 without a credential', async () => {
    const { tenant, created } = await aKey();
    const plain = await aPlainUser(tenant);
    expectProblem(await listKeys(tenant, plain.headers), 403, 'FORBIDDEN');
    expectProblem(await createKey(tenant, plain.headers), 403, 'FORBIDDEN');
    expectProblem(await revokeKey(tenant, plain.headers, created.keyId), 403, 'FORBIDDEN');
    expectProblem(await listKeys(tenant, tenant.headers), 401, 'UNAUTHENTICATED');
    expectProblem(await revokeKey(tenant, tenant.headers, created.keyId), 401, 'UNAUTHENTICATED');
    expect((await call('GET', '/merchants/me', withKey(tenant, created.apiKey))).status).toBe(200);
  });
});
