import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { bearer, identityApi } from '#test/support/http.ts';

/** Helpers shared by the /merchants black-box tests (a plain module: vitest runs only *.test.ts). */

export function merchantsApi(baseUrl: () => string) {
  const identity = identityApi(baseUrl);
  const { call, logIn } = identity;

  /** A fresh tenant and its first admin's (SUPER_ADMIN) bearer headers. */
  async function anAdmin(options: Parameters<typeof aTenantWith>[0] = {}) {
    const tenant = await aTenantWith(options);
    const { accessToken: token } = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
    return { tenant, token, headers: bearer(tenant, token) };
  }

  /** A user of the tenant with the DEFAULT role only, signed in. */
  async function aPlainUser(tenant: TestTenant) {
    const user = await aUser(tenant);
    const { accessToken } = await logIn(tenant, user.email, user.password);
    return { user, headers: bearer(tenant, accessToken) };
  }

  function discover(tenant: TestTenant, origin: string) {
    return call('GET', `/auth/discovery?clientId=${tenant.publicApiKey}`, { origin });
  }

  return { ...identity, anAdmin, aPlainUser, discover };
}

let counter = 0;
/** An origin no other test (or tenant) uses, so preflight answers depend on this test's tenant alone. */
export function aUniqueOrigin(label: string): string {
  return `https://${label}-${process.pid}-${Date.now().toString(36)}-${++counter}.example`;
}
