import { expect } from 'vitest';
import { aTenantWith, aUser, post, type TestTenant } from '#test/support/auth.ts';

/** Helpers shared by the /merchants black-box tests (a plain module: vitest runs only *.test.ts). */

export type Answer = { status: number; headers: Headers; body: any };

export function merchantsApi(baseUrl: () => string) {
  async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  async function logIn(tenant: TestTenant, email: string, password: string): Promise<string> {
    const res = await post(`${baseUrl()}/auth/login`, { email, password }, tenant.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.accessToken;
  }

  /** A fresh tenant and its first admin's (SUPER_ADMIN) bearer headers. */
  async function anAdmin(options: Parameters<typeof aTenantWith>[0] = {}) {
    const tenant = await aTenantWith(options);
    const token = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
    return { tenant, token, headers: { ...tenant.headers, authorization: `Bearer ${token}` } };
  }

  /** A user of the tenant with the DEFAULT role only, signed in. */
  async function aPlainUser(tenant: TestTenant) {
    const user = await aUser(tenant);
    const token = await logIn(tenant, user.email, user.password);
    return { user, headers: { ...tenant.headers, authorization: `Bearer ${token}` } };
  }

  function discover(tenant: TestTenant, origin: string) {
    return call('GET', `/auth/discovery?clientId=${tenant.publicApiKey}`, { origin });
  }

  return { call, logIn, anAdmin, aPlainUser, discover };
}

export function expectProblem(res: Answer, status: number, code: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toBe('application/problem+json');
}

/** A 400 VALIDATION_FAILED whose `errors[]` names `path`. */
export function expectInvalid(res: Answer, path: string) {
  expectProblem(res, 400, 'VALIDATION_FAILED');
  expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
}

export const isoTimestamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

let counter = 0;
/** An origin no other test (or tenant) uses, so preflight answers depend on this test's tenant alone. */
export function aUniqueOrigin(label: string): string {
  return `https://${label}-${process.pid}-${Date.now().toString(36)}-${++counter}.example`;
}
