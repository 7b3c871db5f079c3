import { expect } from 'vitest';

/**
 * The black-box vocabulary of the http project: the answer of a request, the
 * requests themselves, signing in, and the expectations on problem+json
 * answers. Area helpers (test/support/admin.ts, test/http/<area>/helpers.ts)
 * build on these rather than keep their own.
 */

/** An answer of the local stack: status, headers, the body as sent, and parsed (undefined when empty). */
export type Answer = { status: number; headers: Headers; text: string; body: any };

/** Headers that carry a tenant (X-App-ID, X-Mid-Key and a JSON content type): a TestTenant has them. */
export interface WithTenantHeaders {
  headers: Record<string, string>;
}

/** What a successful login answers in `data`. */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
  user: { id: string };
}

/** Reads an answer. A non-empty body must be JSON: anything else fails the test where it is read. */
async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** The JSON body of a response, loosely typed for assertions. */
export async function bodyOf(res: Response): Promise<any> {
  return res.json();
}

/**
 * Sends `method path` to a base URL. A string body goes as given (so that a
 * test can send malformed JSON), anything else as JSON; no body, none at all.
 */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return answerOf(res);
}

/** POSTs a body, always as JSON (a string too), to a full URL. */
export async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
  return answerOf(await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }));
}

/** The tenant's headers with a bearer token. */
export const bearer = (tenant: WithTenantHeaders, token: string): Record<string, string> => ({
  ...tenant.headers,
  authorization: `Bearer ${token}`,
});

/** A problem+json answer with this status and `code`. */
export function expectProblem(res: Answer, status: number, code: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toBe('application/problem+json');
}

/** A 400 VALIDATION_FAILED whose `errors[]` names `path`. */
export function expectInvalid(res: Answer, path: string) {
  expectProblem(res, 400, 'VALIDATION_FAILED');
  expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
}

/** A timestamp as the service writes it: `Date.prototype.toISOString`, milliseconds and all. */
export const isoTimestamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/**
 * The identity service of one local stack, bound to its base URL (read when
 * a request is made, so it can be called before the stack is up):
 * `call(method, path, headers, body?)`, a password `login` as it answers, and
 * `logIn`, which insists on tokens (no second step) and returns them.
 */
export function identityApi(baseUrl: () => string) {
  const callHere = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    call(baseUrl(), method, path, headers, body);

  const login = (tenant: WithTenantHeaders, email: string, password: string, extra: Record<string, string> = {}) =>
    post(`${baseUrl()}/auth/login`, { email, password }, { ...tenant.headers, ...extra });

  async function logIn(
    tenant: WithTenantHeaders,
    email: string,
    password: string,
    extra: Record<string, string> = {},
  ): Promise<Tokens> {
    const res = await login(tenant, email, password, extra);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.accessToken).toEqual(expect.any(String));
    return res.body.data;
  }

  return { call: callHere, login, logIn, bearer };
}
