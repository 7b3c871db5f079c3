import {
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { localhostFetch } from './localhost-fetch.ts';

/**
 * The local stand-in for an API Gateway HTTP API JWT authorizer (the plant store's second mode: README, Plant
 * store; infra/plants-stack.ts puts the real one on AWS). It checks a request's token as API Gateway documents
 * it ("Control access to HTTP APIs with JWT authorizers"), before any function runs:
 *
 * 1. the identity source, `$request.header.Authorization`: the token alone or after `Bearer `;
 * 2. the header's `kid` names a key of the issuer's `jwks_uri` (read from `<issuer>/.well-known/openid-configuration`,
 *    both over HTTP, and kept), and the signature is good: RSA algorithms only, as API Gateway verifies them;
 * 3. `iss` equals the configured issuer exactly; `aud` or `client_id` is one of the configured audience entries;
 *    `exp` is after now, `nbf` and `iat` not after now.
 *
 * A refused request gets API Gateway's own answer (`authorizerRefusal`); a good one reaches the function with
 * `requestContext.authorizer = { jwt: { claims, scopes } }`, every claim a string as API Gateway writes it
 * (`awsClaimString`), `scopes` null (the routes require no authorization scopes).
 */

export interface JwtAuthorizerSettings {
  /** The issuer (`iss`) exactly: a tenant's hosted origin. */
  issuer: string;
  /** The client ids accepted in `aud` or `client_id`. */
  audience: readonly string[];
}

/** What API Gateway puts in `requestContext.authorizer` for a JWT authorizer (payload format 2.0). */
export interface JwtAuthorizerContext {
  jwt: { claims: Record<string, string>; scopes: string[] | null };
}

/** The check of one request by its Authorization header: the authorizer context, or null to refuse it. */
export type JwtAuthorize = (authorization: string | undefined) => Promise<JwtAuthorizerContext | null>;

/** API Gateway's answer to a request its JWT authorizer refuses. */
export const authorizerRefusal = { status: 401, body: '{"message":"Unauthorized"}' } as const;

/** API Gateway verifies RSA signatures only (an ES256 token is refused, whatever its key). */
const RSA_ALGORITHMS = ['RS256', 'RS384', 'RS512'];

export interface JwtAuthorizerOptions {
  /** The authorizer's issuer and audience; a function is read at each request (a test learns them after start). */
  settings: JwtAuthorizerSettings | (() => JwtAuthorizerSettings);
  /** Reads the discovery document and the JWKS: a `*.localhost` issuer is reached on 127.0.0.1 unless given. */
  fetch?: typeof fetch;
  /** The time `exp`, `nbf` and `iat` are checked against (tests). */
  now?: () => Date;
  /** Why a token was refused, for the console (never the token). */
  onRefuse?: (reason: string) => void;
}

export function jwtAuthorizer(options: JwtAuthorizerOptions): JwtAuthorize {
  const fetchImpl = options.fetch ?? localhostFetch;
  const now = options.now ?? (() => new Date());
  const settingsOf =
    typeof options.settings === 'function' ? options.settings : () => options.settings as JwtAuthorizerSettings;
  // Per issuer: its jwks_uri, read once, and jose's remote key set (fetched again for an unknown kid).
  const keySets = new Map<string, Promise<JWTVerifyGetKey>>();
  const keysOf = (issuer: string) => {
    let keys = keySets.get(issuer);
    if (!keys) {
      keys = discoverKeys(issuer, fetchImpl);
      keySets.set(issuer, keys);
      // A failed read is tried again at the next request.
      keys.catch(() => keySets.delete(issuer));
    }
    return keys;
  };
  const refuse = (reason: string) => {
    options.onRefuse?.(reason);
    return null;
  };

  return async (authorization) => {
    const { issuer, audience } = settingsOf();
    const token = authorization?.trim().replace(/^Bearer /i, '');
    if (!token) return refuse('no token in the Authorization header');
    let alg: string | undefined;
    let kid: string | undefined;
    try {
      ({ alg, kid } = decodeProtectedHeader(token));
    } catch {
      return refuse('not a JWT');
    }
    if (!alg || !RSA_ALGORITHMS.includes(alg)) return refuse(`algorithm ${alg}: RSA only`);
    if (!kid) return refuse('no kid');
    let payload: JWTPayload;
    try {
      const keys = await keysOf(issuer);
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        algorithms: RSA_ALGORITHMS,
        requiredClaims: ['exp'],
        currentDate: now(),
      }));
    } catch (error) {
      return refuse(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    }
    const seconds = Math.floor(now().getTime() / 1000);
    if (typeof payload.iat === 'number' && payload.iat > seconds) return refuse('iat in the future');
    const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
    const clientId = payload.client_id;
    const accepted =
      audiences.some((aud) => audience.includes(aud)) || (typeof clientId === 'string' && audience.includes(clientId));
    if (!accepted) return refuse('neither aud nor client_id is an audience entry');
    return {
      jwt: {
        claims: Object.fromEntries(Object.entries(payload).map(([name, value]) => [name, awsClaimString(value)])),
        scopes: null,
      },
    };
  };
}

/** The issuer's key set, from its discovery document's `jwks_uri`, as API Gateway finds it. */
async function discoverKeys(issuer: string, fetchImpl: typeof fetch): Promise<JWTVerifyGetKey> {
  const res = await fetchImpl(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { redirect: 'manual' });
  if (res.status !== 200) throw new Error(`the discovery document of ${issuer} answered ${res.status}`);
  const { jwks_uri: jwksUri } = (await res.json()) as { jwks_uri?: unknown };
  if (typeof jwksUri !== 'string') throw new Error(`the discovery document of ${issuer} names no jwks_uri`);
  return createRemoteJWKSet(new URL(jwksUri), { [customFetch]: fetchImpl });
}

/**
 * A claim's value as API Gateway passes it to the function: every value a string, the number's digits as in the
 * token (`"exp": "1767225600"`), an array as its items between brackets, separated by a space
 * (`"roles": "[DEFAULT SUPER_ADMIN]"`), an object as Go writes a map (`map[key:value]`).
 */
export function awsClaimString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(awsClaimString).join(' ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${entries.map(([key, item]) => `${key}:${awsClaimString(item)}`).join(' ')}]`;
}
