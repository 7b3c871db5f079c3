import { describe, expect, it } from 'vitest';
import { userRepo } from '#shared/store/user-repo.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, expectInvalid, expectProblem, identityApi, isoTimestamp } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();
const { call, logIn } = identityApi(() => api.url);

const getMe = (tenant: TestTenant, token: string) => call('GET', '/users/me', bearer(tenant, token));
const patchMe = (tenant: TestTenant, token: string, body: unknown) =>
  call('PATCH', '/users/me', bearer(tenant, token), body);

/** A tenant, a user in it, and that user's access token. */
async function signedIn() {
  const tenant = await aTenantWith();
  const user = await aUser(tenant);
  return { tenant, user, token: (await logIn(tenant, user.email, user.password)).accessToken };
}

describe('GET /users/me', () => {
  it('returns 200 with exactly the UserResponse fields, empty ones as null, and no secrets', async () => {
    const { tenant, user, token } = await signedIn();
    const res = await getMe(tenant, token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      id: user.id,
      email: user.email,
      emailStatus: 'VALIDATED',
      firstName: 'Test',
      lastName: 'User',
      phone: null,
      status: 'ACTIVE',
      totpEnabled: false,
      roles: [{ roleId: expect.any(String), name: 'DEFAULT', priority: 99, expiresAt: null }],
      registeredAt: isoTimestamp,
      lastLoginAt: isoTimestamp,
    });
    // toEqual ignores undefined-valued keys only; say it plainly: these fields and no others.
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'email',
        'emailStatus',
        'firstName',
        'lastName',
        'phone',
        'status',
        'totpEnabled',
        'roles',
        'registeredAt',
        'lastLoginAt',
      ].sort(),
    );
    expect(Object.keys(res.body.roles[0]).sort()).toEqual(['expiresAt', 'name', 'priority', 'roleId']);
    const text = JSON.stringify(res.body);
    for (const secret of [
      'passwordHash',
      'totpSecret',
      'backupCodes',
      'grants',
      '"pk"',
      '"sk"',
      'argon2',
      user.password,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('answers 401 UNAUTHENTICATED without a bearer, and with an X-Api-Key only', async () => {
    const { tenant } = await signedIn();
    for (const headers of [tenant.headers, { ...tenant.headers, 'x-api-key': 'key_whatever' }]) {
      expectProblem(await call('GET', '/users/me', headers), 401, 'UNAUTHENTICATED');
    }
  });

  it('answers 400 TENANT_REQUIRED without the tenant headers, even with a valid bearer', async () => {
    const { token } = await signedIn();
    for (const headers of [{}, { 'x-app-id': 'app_x' }, { 'x-mid-key': 'mid_x' }] as Record<string, string>[]) {
      const res = await call('GET', '/users/me', { ...headers, authorization: `Bearer ${token}` });
      expectProblem(res, 400, 'TENANT_REQUIRED');
    }
  });

  it("answers 403 TENANT_MISMATCH to the token used with another tenant's headers", async () => {
    const { tenant, token } = await signedIn();
    const other = await aTenantWith();
    expectProblem(await getMe(other, token), 403, 'TENANT_MISMATCH');
    expect((await getMe(tenant, token)).status).toBe(200);
  });
});

describe('PATCH /users/me', () => {
  it('changes the names and the phone, answers the new UserResponse, and keeps them', async () => {
    const { tenant, user, token } = await signedIn();
    const res = await patchMe(tenant, token, { firstName: 'Ann', lastName: 'Lee', phone: '+44 20 7946 0018' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      email: user.email,
      firstName: 'Ann',
      lastName: 'Lee',
      phone: '+44 20 7946 0018',
      status: 'ACTIVE',
    });
    expect((await getMe(tenant, token)).body).toEqual(res.body);
  });

  it('changes only the fields sent', async () => {
    const { tenant, token } = await signedIn();
    await patchMe(tenant, token, { phone: '555-0100' });
    const res = await patchMe(tenant, token, { lastName: 'Okafor' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Test', lastName: 'Okafor', phone: '555-0100' });
  });

  it('trims the names', async () => {
    const { tenant, token } = await signedIn();
    const res = await patchMe(tenant, token, { firstName: '  Ann  ', lastName: ' B ' });
    expect(res.status).toBe(200);
    expect((await getMe(tenant, token)).body).toMatchObject({ firstName: 'Ann', lastName: 'B' });
  });

  it('clears the phone with null', async () => {
    const { tenant, token } = await signedIn();
    expect((await patchMe(tenant, token, { phone: '+1 202 555 0143' })).body.phone).toBe('+1 202 555 0143');
    const res = await patchMe(tenant, token, { phone: null });
    expect(res.status).toBe(200);
    expect(res.body.phone).toBeNull();
    const after = await getMe(tenant, token);
    expect(after.body).toHaveProperty('phone', null);
  });

  it.each(['+442079460000', '+44 (0)20 7946 0000', '(202) 555-0143', '020-7946-0000'])(
    'takes the phone %j, E.164 or a national format with spaces, dashes and parentheses, as written',
    async (phone) => {
      const { tenant, token } = await signedIn();
      expect((await patchMe(tenant, token, { phone: ` ${phone} ` })).body.phone).toBe(phone);
      expect((await getMe(tenant, token)).body.phone).toBe(phone);
    },
  );

  it.each(['call me maybe', '0800 FLOWERS', '+44 20 7946 0000 ext 2', '020--7946 0000', '++44 20 7946', '1234', ''])(
    'answers 400 VALIDATION_FAILED naming phone for %j, a sentence of what a number is, and stores nothing',
    async (phone) => {
      const { tenant, token } = await signedIn();
      await patchMe(tenant, token, { phone: '555-0100' });
      const res = await patchMe(tenant, token, { firstName: 'Ann', phone });
      expectInvalid(res, 'phone');
      expect(res.body.errors).toContainEqual({
        path: 'phone',
        message: 'must be 5 to 15 digits, with spaces, dashes or parentheses if you like, and + only in front',
      });
      expect((await getMe(tenant, token)).body).toMatchObject({ firstName: 'Test', phone: '555-0100' });
    },
  );

  it('keeps showing a phone stored before phones were checked, and a change of names leaves it as it is', async () => {
    const { tenant, user, token } = await signedIn();
    await userRepo(deps.store).update(tenant, user.id, { phone: 'evenings only' });
    expect((await getMe(tenant, token)).body.phone).toBe('evenings only');
    const res = await patchMe(tenant, token, { firstName: 'Ann' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Ann', phone: 'evenings only' });
  });

  it('answers 200 with the profile unchanged to an empty object', async () => {
    const { tenant, token } = await signedIn();
    const before = (await getMe(tenant, token)).body;
    const res = await patchMe(tenant, token, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
  });

  it('answers 400 VALIDATION_FAILED without a body', async () => {
    const { tenant, token } = await signedIn();
    expectProblem(await call('PATCH', '/users/me', bearer(tenant, token)), 400, 'VALIDATION_FAILED');
  });

  it.each([
    ['firstName', 'a'.repeat(257)],
    ['lastName', 'a'.repeat(257)],
    ['phone', '5'.repeat(65)],
    ['firstName', 42],
    ['phone', 5550100],
    ['firstName', null],
  ])('answers 400 VALIDATION_FAILED naming %s for a value out of bounds or of the wrong type', async (field, value) => {
    const { tenant, token } = await signedIn();
    const before = (await getMe(tenant, token)).body;
    expectInvalid(await patchMe(tenant, token, { [field]: value }), field);
    expect((await getMe(tenant, token)).body).toEqual(before);
  });

  it.each([
    ['firstName', ''],
    ['firstName', '   '],
    ['lastName', ''],
    ['lastName', '   '],
  ])(
    'answers 400 VALIDATION_FAILED naming %s when it is %j after trimming, and stores nothing',
    async (field, value) => {
      const { tenant, token } = await signedIn();
      const before = (await getMe(tenant, token)).body;
      expectInvalid(await patchMe(tenant, token, { phone: '555-0199', [field]: value }), field);
      expect((await getMe(tenant, token)).body).toEqual(before);
    },
  );

  it.each([
    ['status', 'DISABLED'],
    ['roles', [{ roleId: 'SUPER_ADMIN', name: 'SUPER_ADMIN', priority: 0, expiresAt: null }]],
    ['email', 'someone-else@shop.test'],
    ['emailStatus', 'VALIDATION_SENT'],
    ['totpEnabled', true],
  ])(
    'answers 400 VALIDATION_FAILED naming %s, a field the user may not set, and stores nothing',
    async (key, value) => {
      const { tenant, token } = await signedIn();
      const before = (await getMe(tenant, token)).body;
      expectInvalid(await patchMe(tenant, token, { firstName: 'Mallory', [key]: value }), key);
      expect((await getMe(tenant, token)).body).toEqual(before);
    },
  );

  it('answers 400 VALIDATION_FAILED naming __proto__, and stores nothing', async () => {
    const { tenant, token } = await signedIn();
    const before = (await getMe(tenant, token)).body;
    // A raw body: an object literal would turn __proto__ into the prototype, not a key.
    const res = await patchMe(tenant, token, '{"firstName":"Mallory","__proto__":{"status":"DISABLED"}}');
    expectInvalid(res, '__proto__');
    expect((await getMe(tenant, token)).body).toEqual(before);
  });

  it.each(['[]', '[{"firstName":"Ann"}]', '"Ann"', '42', 'null', 'true'])(
    'answers 400 VALIDATION_FAILED to a JSON body that is not an object (%s)',
    async (body) => {
      const { tenant, token } = await signedIn();
      expectProblem(await patchMe(tenant, token, body), 400, 'VALIDATION_FAILED');
    },
  );

  it('answers 400 MALFORMED_JSON to a body that is not JSON', async () => {
    const { tenant, token } = await signedIn();
    expectProblem(await patchMe(tenant, token, '{"firstName": "Ann"'), 400, 'MALFORMED_JSON');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a text/plain body and stores nothing', async () => {
    const { tenant, token } = await signedIn();
    const headers = { ...bearer(tenant, token), 'content-type': 'text/plain' };
    const res = await call('PATCH', '/users/me', headers, JSON.stringify({ firstName: 'Ann' }));
    expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect((await getMe(tenant, token)).body.firstName).toBe('Test');
  });

  it('answers 401 UNAUTHENTICATED without a bearer', async () => {
    const { tenant } = await signedIn();
    expectProblem(await call('PATCH', '/users/me', tenant.headers, '{"firstName":"Ann"}'), 401, 'UNAUTHENTICATED');
  });
});
