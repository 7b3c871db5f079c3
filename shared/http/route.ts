import type { GenericSchema } from 'valibot';
import type { VaultGrant } from '../crypto/key-vault.ts';
import type { ErrorCode } from '../errors.ts';

/** The identity API's base path: every route's path is under it. */
export const BASE_PATH = '/api/v1';

/** `ANY`: every method, as API Gateway writes it (the `$default` route's). */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS' | 'ANY';

/**
 * The path of the HTTP API's `$default` route, whose route key is this word alone: it takes
 * every request that no other route matches, whatever its method and path (outside the base
 * path too). Its row says `method: 'ANY', path: '$default'`.
 */
export const DEFAULT_ROUTE = '$default';

/**
 * The DynamoDB actions a route's function may call; the CDK stack grants
 * exactly these. Transactions have no IAM action of their own: IAM checks
 * each item's PutItem, UpdateItem, DeleteItem or ConditionCheckItem, so a
 * route that writes in a transaction lists those.
 */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

/**
 * One row of the route list: plain data and valibot schemas, nothing else, so
 * that the CDK app, the local gateway and the OpenAPI builder can all import it.
 */
export interface RouteDef {
  operationId: string;
  method: HttpMethod;
  /** Path under the base path, API Gateway syntax: `/users/{id}`, `/{proxy+}`; or `$default` (DEFAULT_ROUTE). */
  path: string;
  /** The handler module, relative to the repository root; it exports `handler`. */
  entry: string;
  summary: string;
  tag: string;
  /**
   * Where the tenant comes from: `headers` (X-App-ID + X-Mid-Key, the default
   * for the API), `clientId` (discovery's public client key), `token` (the
   * `app` and `mid` claims of the bearer access token: a resource server such
   * as the plant store, which takes no tenant headers; needs `auth: 'bearer'`)
   * `issuer` (an OpenID Connect endpoint: the tenant whose hosted origin, the
   * issuer, the viewer used: shared/http/viewer-origin.ts) or `none`.
   */
  tenant: 'headers' | 'clientId' | 'token' | 'issuer' | 'none';
  /** Who may call: anyone (with the tenant), a bearer, or an admin bearer or API key. */
  auth: 'none' | 'bearer' | 'admin';
  /** 302: a redirect (the OpenID Connect authorize and end-session endpoints); its `Location` is the answer. */
  status: 200 | 201 | 202 | 204 | 302;
  /**
   * A route with two outcomes (POST /auth/reauthenticate): it answers `status`
   * with `response` when its service returns a value, and 204 No Content when
   * it returns nothing. Both are documented.
   */
  alsoNoContent?: boolean;
  body?: GenericSchema;
  /**
   * How the body is sent: JSON (the default), or `form` (`application/x-www-form-urlencoded`,
   * as OAuth's token and revocation endpoints take it: RFC 6749 3.2). A form body is an object
   * of strings; a field sent twice is refused (400).
   */
  bodyType?: 'json' | 'form';
  /**
   * An OAuth protocol endpoint (token, userinfo, revocation, discovery): errors are OAuth's
   * `{ error, error_description }` (RFC 6749 5.2) instead of problem+json, and it carries no
   * ambient credential (no cookie is read), so any origin may call it: CORS `*`, no Origin check.
   */
  oauth?: boolean;
  query?: GenericSchema;
  params?: GenericSchema;
  /** Response body schema; absent for 204 and for the OpenAPI document itself. */
  response?: GenericSchema;
  /** Error codes this route answers beyond the common ones (for the OpenAPI document). */
  errors?: readonly ErrorCode[];
  /** DynamoDB actions the route's own logic uses (tenant and auth lookups are added for it). */
  table: readonly TableAction[];
  /** Sends e-mail through SES. */
  ses?: boolean;
  /**
   * What the route does with the service's KMS key, per encryption-context purpose
   * (shared/crypto/key-vault.ts): `SIGNS_TOKENS` for a route that signs access tokens
   * (it decrypts the signing key, and makes one on first use), `totp:encrypt` where
   * TOTP secrets are stored, `totp:decrypt` where they are checked. The stack grants
   * exactly these (kms:Encrypt / kms:Decrypt, conditioned on kms:EncryptionContext:purpose),
   * and the handler's vault refuses anything else, locally too.
   */
  kms?: readonly VaultGrant[];
  /** Hashes or verifies passwords: its bundle carries the argon2 native module. */
  argon2?: boolean;
  /**
   * A route a user waits on at sign-in (discovery, login and its verification, refresh, `/users/me`, the OpenID
   * authorize and token endpoints): its bundle carries the AWS SDK's DynamoDB client instead of importing the
   * runtime's, which halves its cold start for a bundle several times larger (bench/NOTES.md, cold init;
   * infra/http-api.ts, bundlingFor; test/infra/bundles.test.ts, the budgets).
   */
  bundleSdk?: boolean;
  /**
   * The function's timeout in seconds (10 unless said; API Gateway's HTTP API waits 30 at most) and memory in MB
   * (256, or 1024 for argon2 routes: Lambda's CPU grows with its memory). Only a route that answers a whole
   * tenant at once needs more (GET /users).
   */
  timeoutSeconds?: number;
  memoryMb?: number;
  /**
   * The stage throttle of its class (infra/http-api.ts, context apiThrottle*): `session` for the cheap calls every
   * signed-in page and client makes again and again (refresh, /users/me, discovery, the key set, the issuers'
   * metadata, the token and userinfo endpoints), sized in the thousands; argon2 routes have their own, near what
   * their functions can hash; every other route the stage's default.
   */
  throttle?: 'session';
  /**
   * The access tokens' issuer metadata and key set, which resource servers read at the issuer's URL (`iss`: the
   * API's own domain): answered to callers that did not come through CloudFront even when the deployment's
   * functions refuse such callers (EDGE_ONLY, shared/http/client-ip.ts). Public, read-only, and throttled as `session`.
   */
  servedAtIssuer?: true;
  /** Left out of the OpenAPI document (only the catch-alls: CORS preflight and `$default`). */
  undocumented?: boolean;
  /** Refused without an `Origin` header (403 ORIGIN_NOT_ALLOWED), browsers only: documented as a required header. */
  requiresOrigin?: boolean;
  /**
   * Taken from any Origin: a sign-in provider's answer, which the provider's own page may post (Apple's form_post
   * comes with `Origin: https://appleid.apple.com`). It reads no cookie or other ambient credential: its `state`,
   * single use and bound to the tenant, is what it acts on, so the Origin check defends nothing here.
   */
  anyOrigin?: true;
}

/**
 * The shared part of a signed-in user's route: the tenant from the headers, a bearer access token.
 * Spread it first in a row: `{ ...bearerRoute({ tag: 'me' }), operationId: 'getMe', … }`. The
 * result keeps its literal types (`auth: 'bearer'`), which the handler's input type is read from.
 */
export function bearerRoute<const Tag extends string>({ tag }: { tag: Tag }) {
  return { tag, tenant: 'headers', auth: 'bearer' } as const satisfies Partial<RouteDef>;
}

/**
 * The shared part of an admin route: the tenant from the headers, the bearer of an ADMIN or
 * SUPER_ADMIN user or an admin API key (`X-Api-Key`).
 */
export function adminRoute<const Tag extends string>({ tag }: { tag: Tag }) {
  return { tag, tenant: 'headers', auth: 'admin' } as const satisfies Partial<RouteDef>;
}

/** The function's memory (MB): its own, or 1024 for argon2id (memory-bound; Lambda's CPU grows with memory), or 256. */
export const memoryOf = (route: RouteDef): number => route.memoryMb ?? (route.argon2 ? 1024 : 256);
/** The function's timeout (s): its own, or 10. */
export const timeoutOf = (route: RouteDef): number => route.timeoutSeconds ?? 10;

/** The stage throttle class of a route (RouteDef.throttle). */
export type ThrottleClass = 'default' | 'session' | 'argon2';
export const throttleClassOf = (route: RouteDef): ThrottleClass =>
  route.throttle ?? (route.argon2 ? 'argon2' : 'default');

/** The kms grants of a route that signs access tokens: decrypt the active signing key, and create one on first use. */
export const SIGNS_TOKENS = ['jwt-signing:encrypt', 'jwt-signing:decrypt'] as const satisfies readonly VaultGrant[];

/** The error codes every bearer route answers; a row adds its own: `errors: [...BEARER_ERRORS, 'NOT_FOUND']`. */
export const BEARER_ERRORS = [
  'UNAUTHENTICATED',
  'SESSION_REVOKED',
  'TENANT_MISMATCH',
] as const satisfies readonly ErrorCode[];

/** The error codes every admin route answers: a bearer route's, and FORBIDDEN for too little authority. */
export const ADMIN_ERRORS = [...BEARER_ERRORS, 'FORBIDDEN'] as const satisfies readonly ErrorCode[];

/** The actions a route's function needs in all: its own plus those of the tenant and auth stages. */
export function tableActionsOf(route: RouteDef): TableAction[] {
  const actions = new Set<TableAction>(route.table);
  if (route.tenant === 'headers') actions.add('GetItem');
  // By client key (the gsi1 Query), or for a hosted page by subdomain (the claim, then the merchant: GetItem).
  if (route.tenant === 'clientId') {
    actions.add('Query');
    actions.add('GetItem');
  }
  // By the issuer's subdomain: its claim, then the merchant.
  if (route.tenant === 'issuer') actions.add('GetItem');
  // The bearer check: the public signing keys (Query), then session and user together (BatchGetItem).
  // A `token` route reads nothing for it: the JWT is checked against the issuer's JWKS, fetched over HTTPS.
  if (route.auth !== 'none' && route.tenant !== 'token') {
    actions.add('Query');
    actions.add('BatchGetItem');
  }
  // Admin routes take API keys too: the key is read (GetItem) and its lastUsedAt noted (UpdateItem).
  if (route.auth === 'admin') {
    actions.add('GetItem');
    actions.add('UpdateItem');
  }
  // Signing: the keys are read (Query) and, on first use, created (PutItem).
  if (route.kms?.some((grant) => grant.startsWith('jwt-signing:'))) {
    actions.add('Query');
    actions.add('PutItem');
  }
  return [...actions].sort();
}

/** The row of the HTTP API's `$default` route, which answers what no other route matches. */
export function isDefaultRoute(route: RouteDef): boolean {
  return route.path === DEFAULT_ROUTE;
}

/**
 * `GET /users/{id}` as API Gateway writes a route key (the path with the base path in front);
 * `$default` for the `$default` route.
 */
export function routeKey(route: RouteDef, basePath: string): string {
  return isDefaultRoute(route) ? DEFAULT_ROUTE : `${route.method} ${basePath}${route.path}`;
}
