import type { CookieOptions, CookieStore, FetchInit, User } from '../../../client/src/index.ts';

/** One request as the client sent it. */
export interface SentRequest {
  method: string;
  /** Path under the base URL, e.g. `/users/me`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: any;
  /** `this` inside fetch: undefined when the client calls it as a plain function. */
  thisArg: unknown;
}

export type Responder = (request: SentRequest) => Response | Promise<Response>;

export const BASE_URL = 'https://id.example.test/api/v1';

/** A fetch that records every request and answers with `respond`. */
export function fakeFetch(respond: Responder) {
  const requests: SentRequest[] = [];
  const fetch = function (this: unknown, url: string, init: FetchInit): Promise<Response> {
    const parsed = new URL(url);
    const request: SentRequest = {
      method: init.method,
      path: parsed.pathname.replace(/^\/api\/v1/, ''),
      query: Object.fromEntries(parsed.searchParams),
      headers: { ...init.headers },
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      thisArg: this,
    };
    requests.push(request);
    return Promise.resolve().then(() => respond(request));
  };
  return {
    fetch,
    requests,
    to: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
  };
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export function problem(status: number, code: string, detail?: string): Response {
  return new Response(
    JSON.stringify({ type: 'about:blank', title: 'Error', status, code, ...(detail ? { detail } : {}) }),
    {
      status,
      headers: { 'content-type': 'application/problem+json' },
    },
  );
}

export const noContent = () => new Response(null, { status: 204 });

export const aUserResponse = (overrides: Partial<User> = {}): User => ({
  id: 'usr_1',
  email: 'fern@shop.test',
  emailStatus: 'VALIDATED',
  firstName: 'Fern',
  lastName: 'Gully',
  phone: null,
  status: 'ACTIVE',
  totpEnabled: false,
  roles: [{ roleId: 'rol_default', name: 'DEFAULT', priority: 99, expiresAt: null }],
  registeredAt: '2026-01-01T00:00:00.000Z',
  lastLoginAt: null,
  ...overrides,
});

/** A LoginResponse envelope with tokens `at-<n>` / `rt-<n>`. */
export function tokens(n: number | string, refreshToken = `rt-${n}`): Response {
  return json(200, {
    success: true,
    data: { accessToken: `at-${n}`, refreshToken, tokenType: 'Bearer', expiresIn: 900, user: aUserResponse() },
  });
}

export const tenantConfig = {
  name: 'Shop',
  app: 'app_1',
  mid: 'mid_1',
  publicApiKey: 'pk_1',
  subdomain: 'shop',
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
} as const;

/** A CookieStore that records what the client hands it. */
export function recordingCookies() {
  const jar = new Map<string, { value: string; options: CookieOptions }>();
  const log: Array<{ op: 'set' | 'remove'; name: string; value?: string; options?: CookieOptions }> = [];
  const store: CookieStore = {
    get: (name) => jar.get(name)?.value,
    set: (name, value, options) => {
      log.push({ op: 'set', name, value, options });
      jar.set(name, { value, options });
    },
    remove: (name) => {
      log.push({ op: 'remove', name });
      jar.delete(name);
    },
  };
  return { store, jar, log };
}
