import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { expectProblem, identityApi, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();
const { call, logIn } = identityApi(() => api.url);

const refresh = (tenant: TestTenant, refreshToken: string) =>
  post(`${api.url}/auth/refresh`, { refreshToken }, tenant.headers);

const logout = (headers: Record<string, string>, accessToken?: string) =>
  call('DELETE', '/auth/logout', accessToken ? { ...headers, authorization: `Bearer ${accessToken}` } : headers);

describe('POST /auth/refresh', () => {
  it('rotates the refresh token and returns new tokens with the user', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const first = await logIn(tenant, user.email, user.password);
    const res = await refresh(tenant, first.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      tokenType: 'Bearer',
      expiresIn: 900,
      user: { id: user.id, email: user.email },
    });
    expect(res.body.data.refreshToken).not.toBe(first.refreshToken);
    // The new refresh token works in turn.
    expect((await refresh(tenant, res.body.data.refreshToken)).status).toBe(200);
  });

  it('answers a token just rotated (within the grace) the same new refresh token and a fresh access token; the session lives on', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const first = await logIn(tenant, user.email, user.password);
    const rotated = await refresh(tenant, first.refreshToken);
    const replay = await refresh(tenant, first.refreshToken);
    expect(replay.status).toBe(200);
    expect(replay.body.data.refreshToken).toBe(rotated.body.data.refreshToken);
    expect(replay.body.data.accessToken).not.toBe(rotated.body.data.accessToken);
    expect((await refresh(tenant, rotated.body.data.refreshToken)).status).toBe(200);
  });

  it('answers 401 REFRESH_TOKEN_INVALID to a token used within the grace once its successor has rotated in turn', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const first = await logIn(tenant, user.email, user.password);
    const second = await refresh(tenant, first.refreshToken);
    const third = await refresh(tenant, second.body.data.refreshToken);
    expectProblem(await refresh(tenant, first.refreshToken), 401, 'REFRESH_TOKEN_INVALID');
    expect((await refresh(tenant, third.body.data.refreshToken)).status).toBe(200);
  });

  it('answers 401 REFRESH_TOKEN_INVALID to malformed, unknown and other-tenant tokens', async () => {
    const tenant = await aTenantWith();
    const other = await aTenantWith();
    const user = await aUser(tenant);
    const { refreshToken } = await logIn(tenant, user.email, user.password);
    const forged = refreshToken.replace(/.{5}$/, 'AAAAA');
    for (const token of ['nonsense', forged, `${refreshToken}x`]) {
      const res = await refresh(tenant, token);
      expect([res.status, res.body.code]).toEqual([401, 'REFRESH_TOKEN_INVALID']);
    }
    const elsewhere = await refresh(other, refreshToken);
    expect([elsewhere.status, elsewhere.body.code]).toEqual([401, 'REFRESH_TOKEN_INVALID']);
    // None of these hurt the real session.
    expect((await refresh(tenant, refreshToken)).status).toBe(200);
  });

  it('stores the refresh token only as a hash', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { refreshToken } = await logIn(tenant, user.email, user.password);
    const { Items } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.userPartition(tenant, user.id) },
      }),
    );
    const secret = refreshToken.split('.').at(-1) ?? '';
    expect(secret).toHaveLength(43);
    expect(JSON.stringify(Items)).not.toContain(secret);
  });
});

describe('DELETE /auth/logout', () => {
  it('answers 204 and ends the session at once: its access and refresh tokens stop working', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken, refreshToken } = await logIn(tenant, user.email, user.password);
    const res = await logout(tenant.headers, accessToken);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const again = await logout(tenant.headers, accessToken);
    expect([again.status, again.body.code]).toEqual([401, 'SESSION_REVOKED']);
    const refreshed = await refresh(tenant, refreshToken);
    expect([refreshed.status, refreshed.body.code]).toEqual([401, 'REFRESH_TOKEN_INVALID']);
  });

  it("leaves the user's other sessions alone", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const phone = await logIn(tenant, user.email, user.password);
    const laptop = await logIn(tenant, user.email, user.password);
    expect((await logout(tenant.headers, phone.accessToken)).status).toBe(204);
    expect((await logout(tenant.headers, laptop.accessToken)).status).toBe(204);
  });

  it('records LOGOUT in the activity', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logIn(tenant, user.email, user.password);
    await logout(tenant.headers, accessToken);
    const { Items } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, user.id) },
      }),
    );
    expect(Items?.map((i) => i.type)).toEqual(['LOGIN', 'LOGOUT']);
  });
});

describe('the bearer check', () => {
  it('answers 401 UNAUTHENTICATED without a token, with a malformed one, or with an API key on a bearer route', async () => {
    const tenant = await aTenantWith();
    for (const headers of [
      {},
      { authorization: 'Bearer not.a.jwt' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { 'x-api-key': 'key_whatever' },
    ] as Record<string, string>[]) {
      const res = await logout({ ...tenant.headers, ...headers });
      expect([res.status, res.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it('refuses an unsigned token (alg none) that claims a real session', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logIn(tenant, user.email, user.password);
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString());
    const unsigned = new UnsecuredJWT(claims).encode();
    const res = await logout(tenant.headers, unsigned);
    expect([res.status, res.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it("answers 403 TENANT_MISMATCH to a token used with another tenant's headers", async () => {
    const tenant = await aTenantWith();
    const other = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logIn(tenant, user.email, user.password);
    const res = await logout(other.headers, accessToken);
    expect([res.status, res.body.code]).toEqual([403, 'TENANT_MISMATCH']);
    // Nothing happened to the session in its own tenant.
    expect((await logout(tenant.headers, accessToken)).status).toBe(204);
  });

  it('answers 401 SESSION_REVOKED once the user is disabled', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logIn(tenant, user.email, user.password);
    await userRepo(deps.store).update(tenant, user.id, { status: 'DISABLED' });
    const res = await logout(tenant.headers, accessToken);
    expect([res.status, res.body.code]).toEqual([401, 'SESSION_REVOKED']);
  });
});
