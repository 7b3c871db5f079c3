import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { bearer, expectInvalid, expectProblem, isoTimestamp, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { aUniqueOrigin, merchantsApi } from './helpers.ts';

const api = useLocalStack();
const { call, anAdmin, aPlainUser, discover } = merchantsApi(() => api.url);

const MERCHANT_FIELDS = [
  'id',
  'name',
  'app',
  'mid',
  'publicApiKey',
  'subdomain',
  'logoUrl',
  'primaryColor',
  'secondaryColor',
  'darkPrimaryColor',
  'darkSecondaryColor',
  'privacyPolicyUrl',
  'termsUrl',
  'defaultLanguage',
  'loginMode',
  'signupMode',
  'totpAllowed',
  'allowUserDisableTotp',
  'passkeysAllowed',
  'signInProviders',
  'adminUserId',
  'allowedOrigins',
  'createdAt',
  'updatedAt',
];

const getMine = (headers: Record<string, string>) => call('GET', '/merchants/me', headers);
const patch = (id: string, headers: Record<string, string>, body: unknown) =>
  call('PATCH', `/merchants/${id}`, headers, body);

describe('GET /merchants/me', () => {
  it("returns the tenant's MerchantResponse to its admin, with its allowed origins and nothing else", async () => {
    const origins = [aUniqueOrigin('me-a'), 'http://localhost:5173'];
    const { tenant, headers } = await anAdmin({ origins });
    const res = await getMine(headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      id: tenant.id,
      name: expect.stringMatching(/^Shop /),
      app: tenant.app,
      mid: tenant.mid,
      publicApiKey: tenant.publicApiKey,
      subdomain: tenant.subdomain,
      logoUrl: null,
      primaryColor: null,
      secondaryColor: null,
      darkPrimaryColor: null,
      darkSecondaryColor: null,
      privacyPolicyUrl: null,
      termsUrl: null,
      defaultLanguage: 'en',
      loginMode: 'PASSWORD',
      signupMode: 'OPEN',
      totpAllowed: true,
      allowUserDisableTotp: true,
      passkeysAllowed: true,
      signInProviders: [],
      adminUserId: tenant.adminUserId,
      allowedOrigins: origins,
      createdAt: isoTimestamp,
      updatedAt: isoTimestamp,
    });
    expect(Object.keys(res.body).sort()).toEqual([...MERCHANT_FIELDS].sort());
    for (const internal of ['"pk"', '"sk"', 'gsi1', 'entity']) expect(JSON.stringify(res.body)).not.toContain(internal);
  });

  it('returns 403 FORBIDDEN to a signed-in user without an admin role', async () => {
    const { tenant } = await anAdmin();
    const { headers } = await aPlainUser(tenant);
    expectProblem(await getMine(headers), 403, 'FORBIDDEN');
  });

  it('returns 401 UNAUTHENTICATED without a credential, or with a malformed bearer', async () => {
    const { tenant } = await anAdmin();
    expectProblem(await getMine(tenant.headers), 401, 'UNAUTHENTICATED');
    expectProblem(await getMine({ ...tenant.headers, authorization: 'Bearer not-a-jwt' }), 401, 'UNAUTHENTICATED');
    expectProblem(await getMine({ ...tenant.headers, authorization: 'Basic YTpi' }), 401, 'UNAUTHENTICATED');
  });

  it('returns 400 TENANT_REQUIRED without tenant headers, and 403 TENANT_MISMATCH for another tenant', async () => {
    const { token } = await anAdmin();
    const other = await aTenantWith();
    expectProblem(await getMine({ authorization: `Bearer ${token}` }), 400, 'TENANT_REQUIRED');
    expectProblem(await getMine(bearer(other, token)), 403, 'TENANT_MISMATCH');
  });
});

describe('PATCH /merchants/{id}', () => {
  it.each([
    ['name', 'Fern & Moss'],
    ['logoUrl', 'https://cdn.example/logo.png'],
    ['logoUrl', 'http://localhost:5173/logo.svg'],
    ['primaryColor', '#1a2B3c'],
    ['secondaryColor', '#ffffff'],
    ['darkPrimaryColor', '#8FD3b6'],
    ['darkSecondaryColor', '#101816'],
    ['privacyPolicyUrl', 'https://shop.example/privacy'],
    ['termsUrl', 'https://shop.example/legal/terms?lang=en#use'],
    ['defaultLanguage', 'de'],
    ['loginMode', 'PASSWORD_OR_OTP_EMAIL'],
    ['signupMode', 'INVITATION_ONLY'],
    ['totpAllowed', false],
    ['allowUserDisableTotp', false],
    ['passkeysAllowed', false],
  ])('sets %s to %j: in the answer, in GET /merchants/me and in discovery', async (field, value) => {
    const { tenant, headers } = await anAdmin();
    const before = (await getMine(headers)).body;
    const res = await patch(tenant.id, headers, { [field]: value });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, [field]: value, updatedAt: isoTimestamp });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(res.body.createdAt).toBe(before.createdAt);
    expect((await getMine(headers)).body).toEqual(res.body);
    const discovered = await discover(tenant, 'https://shop.example');
    expect(discovered.status).toBe(200);
    expect(discovered.body[field]).toEqual(value);
  });

  it.each(['totpAllowed', 'allowUserDisableTotp', 'passkeysAllowed'])(
    'restores %s to its default (allowed) with null: answered, kept and discovered as true',
    async (field) => {
      const { tenant, headers } = await anAdmin();
      expect((await patch(tenant.id, headers, { [field]: false })).body[field]).toBe(false);
      const res = await patch(tenant.id, headers, { [field]: null });
      expect(res.status).toBe(200);
      expect(res.body[field]).toBe(true);
      expect((await getMine(headers)).body).toEqual(res.body);
      expect((await discover(tenant, 'https://shop.example')).body[field]).toBe(true);
    },
  );

  it('changes several fields at once, trims the name, and clears the logo and colours with null', async () => {
    const { tenant, headers } = await anAdmin();
    const set = await patch(tenant.id, headers, {
      name: '  Moss Co  ',
      logoUrl: 'https://cdn.example/moss.png',
      primaryColor: '#000000',
      secondaryColor: '#abcdef',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ name: 'Moss Co', logoUrl: 'https://cdn.example/moss.png' });
    const cleared = await patch(tenant.id, headers, { logoUrl: null, primaryColor: null, secondaryColor: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ name: 'Moss Co', logoUrl: null, primaryColor: null, secondaryColor: null });
    expect((await discover(tenant, 'https://shop.example')).body).toMatchObject({
      name: 'Moss Co',
      logoUrl: null,
      primaryColor: null,
      secondaryColor: null,
    });
  });

  it('sets the dark pair and the policy links together, trims the links, and clears them with null', async () => {
    const { tenant, headers } = await anAdmin();
    const set = await patch(tenant.id, headers, {
      darkPrimaryColor: '#8fd3b6',
      darkSecondaryColor: '#101816',
      privacyPolicyUrl: '  https://shop.example/privacy ',
      termsUrl: 'https://shop.example/terms',
    });
    expect(set.status).toBe(200);
    const chosen = {
      darkPrimaryColor: '#8fd3b6',
      darkSecondaryColor: '#101816',
      privacyPolicyUrl: 'https://shop.example/privacy',
      termsUrl: 'https://shop.example/terms',
    };
    expect(set.body).toMatchObject(chosen);
    expect((await discover(tenant, 'https://shop.example')).body).toMatchObject(chosen);
    // The light pair is another setting: clearing it leaves the dark pair as chosen.
    expect((await patch(tenant.id, headers, { primaryColor: null })).body).toMatchObject(chosen);
    const cleared = await patch(tenant.id, headers, {
      darkPrimaryColor: null,
      darkSecondaryColor: null,
      privacyPolicyUrl: null,
      termsUrl: null,
    });
    const none = { darkPrimaryColor: null, darkSecondaryColor: null, privacyPolicyUrl: null, termsUrl: null };
    expect(cleared.body).toMatchObject(none);
    expect((await getMine(headers)).body).toMatchObject(none);
    expect((await discover(tenant, 'https://shop.example')).body).toMatchObject(none);
  });

  it("keeps one tenant's dark pair and policy links its own: another admin's change is 404 and reaches no one else", async () => {
    const a = await anAdmin();
    const b = await anAdmin();
    const before = (await getMine(b.headers)).body;
    const links = { darkPrimaryColor: '#ffcc00', privacyPolicyUrl: 'https://evil.example/privacy' };
    expectProblem(await patch(b.tenant.id, a.headers, links), 404, 'NOT_FOUND');
    expect((await getMine(b.headers)).body).toEqual(before);
    expect((await patch(a.tenant.id, a.headers, links)).status).toBe(200);
    expect((await discover(b.tenant, 'https://shop.example')).body).toMatchObject({
      darkPrimaryColor: null,
      privacyPolicyUrl: null,
    });
    expect((await discover(a.tenant, 'https://shop.example')).body).toMatchObject(links);
  });

  it('answers 200 with the merchant unchanged (updatedAt too) to an empty object', async () => {
    const { tenant, headers } = await anAdmin();
    const before = (await getMine(headers)).body;
    const res = await patch(tenant.id, headers, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
    expect((await getMine(headers)).body).toEqual(before);
  });

  it.each([
    ['primaryColor', '#fff'],
    ['primaryColor', 'red'],
    ['secondaryColor', '#fff'],
    ['secondaryColor', 'red'],
    ['secondaryColor', '#12345g'],
    ['primaryColor', 123456],
    ['name', ''],
    ['name', '   '],
    ['name', 'n'.repeat(129)],
    ['name', null],
    ['logoUrl', 'javascript:alert(1)'],
    ['logoUrl', 'data:image/png;base64,AAAA'],
    ['logoUrl', 'ftp://files.example/logo.png'],
    ['logoUrl', 'not a url'],
    ['logoUrl', `https://cdn.example/${'a'.repeat(2048)}`],
    ['darkPrimaryColor', '#fff'],
    ['darkPrimaryColor', 'white'],
    ['darkSecondaryColor', '#12345g'],
    ['darkSecondaryColor', 0],
    ['privacyPolicyUrl', 'http://shop.example/privacy'],
    ['privacyPolicyUrl', 'javascript:alert(1)'],
    ['privacyPolicyUrl', 'shop.example/privacy'],
    ['privacyPolicyUrl', `https://shop.example/${'p'.repeat(2048)}`],
    ['termsUrl', 'http://localhost:5173/terms'],
    ['termsUrl', 'data:text/html,terms'],
    ['termsUrl', `https://shop.example/${'t'.repeat(2048)}`],
    ['termsUrl', 42],
    ['defaultLanguage', 'fr'],
    ['defaultLanguage', 'DE'],
    ['defaultLanguage', null],
    ['loginMode', 'SMS'],
    ['loginMode', null],
    ['signupMode', 'CLOSED'],
    ['totpAllowed', 'yes'],
    ['allowUserDisableTotp', 'no'],
    ['passkeysAllowed', 'yes'],
    ['allowedOrigins', 'https://shop.example'],
    ['allowedOrigins', null],
  ])('answers 400 VALIDATION_FAILED naming %s for %j, and changes nothing', async (field, value) => {
    const { tenant, headers } = await anAdmin();
    const before = (await getMine(headers)).body;
    expectInvalid(await patch(tenant.id, headers, { name: 'Changed', [field]: value }), field);
    expect((await getMine(headers)).body).toEqual(before);
  });

  it.each([
    ['https://shop.example/path', 'allowedOrigins.0'],
    ['shop.example', 'allowedOrigins.0'],
    ['ftp://shop.example', 'allowedOrigins.0'],
  ])('answers 400 naming %s → %s for an origin that is not scheme, host and port', async (origin, path) => {
    const { tenant, headers } = await anAdmin();
    expectInvalid(await patch(tenant.id, headers, { allowedOrigins: [origin] }), path);
  });

  it('answers 400 to more than 20 origins, and de-duplicates the list', async () => {
    const { tenant, headers } = await anAdmin();
    const many = Array.from({ length: 21 }, (_, i) => `https://o${i}.example`);
    expectInvalid(await patch(tenant.id, headers, { allowedOrigins: many }), 'allowedOrigins');
    const res = await patch(tenant.id, headers, {
      allowedOrigins: ['https://shop.example', 'https://b.example', 'https://shop.example'],
    });
    expect(res.status).toBe(200);
    expect(res.body.allowedOrigins).toEqual(['https://shop.example', 'https://b.example']);
  });

  it.each([
    ['id', 'mer_other'],
    ['app', 'app_other'],
    ['mid', 'mid_other'],
    ['publicApiKey', 'pk_other'],
    ['subdomain', 'other'],
    ['createdAt', '2020-01-01T00:00:00.000Z'],
    ['updatedAt', '2020-01-01T00:00:00.000Z'],
    ['passwordPolicy', 'weak'],
  ])('answers 400 VALIDATION_FAILED naming %s, a field no admin may set, and changes nothing', async (key, value) => {
    const { tenant, headers } = await anAdmin();
    const before = (await getMine(headers)).body;
    expectInvalid(await patch(tenant.id, headers, { name: 'Mallory', [key]: value }), key);
    expect((await getMine(headers)).body).toEqual(before);
  });

  it('answers 400 naming __proto__, and to a body that is not an object', async () => {
    const { tenant, headers } = await anAdmin();
    expectInvalid(await patch(tenant.id, headers, '{"name":"M","__proto__":{"loginMode":"OTP_EMAIL"}}'), '__proto__');
    for (const body of ['[]', '"x"', 'null']) {
      expectProblem(await patch(tenant.id, headers, body), 400, 'VALIDATION_FAILED');
    }
    expectProblem(await call('PATCH', `/merchants/${tenant.id}`, headers), 400, 'VALIDATION_FAILED');
  });

  it('replaces allowedOrigins: a removed origin is refused and an added one served, preflight included', async () => {
    const kept = aUniqueOrigin('kept');
    const removed = aUniqueOrigin('removed');
    const added = aUniqueOrigin('added');
    const { tenant, headers } = await anAdmin({ origins: [kept, removed] });
    expect((await discover(tenant, removed)).status).toBe(200);

    const res = await patch(tenant.id, headers, { allowedOrigins: [kept, added] });
    expect(res.status).toBe(200);
    expect(res.body.allowedOrigins).toEqual([kept, added]);
    expect((await getMine(headers)).body.allowedOrigins).toEqual([kept, added]);

    // Discovery, from the next request on.
    expectProblem(await discover(tenant, removed), 403, 'ORIGIN_NOT_ALLOWED');
    const fromAdded = await discover(tenant, added);
    expect(fromAdded.status).toBe(200);
    expect(fromAdded.headers.get('access-control-allow-origin')).toBe(added);
    expect((await discover(tenant, kept)).status).toBe(200);
    // Any tenant route: the CSRF check reads the new list too.
    expectProblem(await getMine({ ...headers, origin: removed }), 403, 'ORIGIN_NOT_ALLOWED');
    expect((await getMine({ ...headers, origin: added })).status).toBe(200);

    // The CORS preflight reads the ORIGIN index, written in the same transaction.
    const preflight = (origin: string) =>
      fetch(`${api.url}/merchants/me`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
    expect((await preflight(added)).headers.get('access-control-allow-origin')).toBe(added);
    expect((await preflight(kept)).headers.get('access-control-allow-origin')).toBe(kept);
    const refused = await preflight(removed);
    expect(refused.status).toBe(204);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('an empty allowedOrigins refuses every browser origin, and preflight with it', async () => {
    const only = aUniqueOrigin('only');
    const { tenant, headers } = await anAdmin({ origins: [only] });
    expect((await patch(tenant.id, headers, { allowedOrigins: [] })).body.allowedOrigins).toEqual([]);
    expectProblem(await discover(tenant, only), 403, 'ORIGIN_NOT_ALLOWED');
    const preflight = await fetch(`${api.url}/merchants/me`, { method: 'OPTIONS', headers: { origin: only } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // Non-browser clients (no Origin) still work.
    expect((await getMine(headers)).status).toBe(200);
  });

  it('applies a new loginMode to the very next login request', async () => {
    const { tenant, headers } = await anAdmin();
    const login = () =>
      post(`${api.url}/auth/login`, { email: tenant.adminEmail, password: tenant.adminPassword }, tenant.headers);
    expect((await patch(tenant.id, headers, { loginMode: 'OTP_EMAIL' })).status).toBe(200);
    const refused = await login();
    expect({ status: refused.status, code: refused.body?.code }).toEqual({
      status: 403,
      code: 'LOGIN_MODE_NOT_ALLOWED',
    });
    // The admin's access token still works; switching back lets passwords in again at once.
    expect((await patch(tenant.id, headers, { loginMode: 'PASSWORD' })).status).toBe(200);
    expect((await login()).status).toBe(200);
  });

  it('applies a new signupMode to the very next signup request', async () => {
    const { tenant, headers } = await anAdmin();
    expect((await patch(tenant.id, headers, { signupMode: 'INVITATION_ONLY' })).status).toBe(200);
    const res = await post(
      `${api.url}/auth/signup`,
      {
        app: tenant.app,
        mid: tenant.mid,
        email: `new-${Date.now()}@shop.test`,
        password: 'Fern-leaf-42',
        firstName: 'New',
        lastName: 'User',
      },
      tenant.headers,
    );
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 403, code: 'SIGNUP_NOT_ALLOWED' });
  });

  it("answers 404 NOT_FOUND for another tenant's merchant id, and changes nothing there", async () => {
    const a = await anAdmin();
    const b = await anAdmin();
    const before = (await getMine(b.headers)).body;
    expectProblem(await patch(b.tenant.id, a.headers, { name: 'Hijacked', loginMode: 'OTP_EMAIL' }), 404, 'NOT_FOUND');
    expect((await getMine(b.headers)).body).toEqual(before);
    expect((await getMine(a.headers)).body.name).not.toBe('Hijacked');
  });

  it.each(['mer_00000000000000000000', 'me', 'mer%23x', 'x'.repeat(300)])(
    'answers 404 NOT_FOUND for the id %s, which is not the caller’s merchant',
    async (id) => {
      const { headers } = await anAdmin();
      expectProblem(await patch(id, headers, { name: 'X' }), 404, 'NOT_FOUND');
    },
  );

  it('answers 403 FORBIDDEN to a user without an admin role and 401 without a credential; nothing changes', async () => {
    const { tenant, headers } = await anAdmin();
    const before = (await getMine(headers)).body;
    const plain = await aPlainUser(tenant);
    expectProblem(await patch(tenant.id, plain.headers, { name: 'Mallory' }), 403, 'FORBIDDEN');
    expectProblem(await patch(tenant.id, tenant.headers, { name: 'Mallory' }), 401, 'UNAUTHENTICATED');
    expect((await getMine(headers)).body).toEqual(before);
  });
});
