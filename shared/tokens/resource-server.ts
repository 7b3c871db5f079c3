import { createRemoteJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import * as v from 'valibot';

/**
 * What a resource server knows of its caller: the verified claims of an
 * identity access token (docs/security.md#tokens-and-lifetimes). The tenant is the
 * token's `app` and `mid`.
 */
export interface TokenPrincipal {
  kind: 'token';
  /** The user id. */
  sub: string;
  /** The session id. */
  sid: string;
  app: string;
  mid: string;
  /** The user's effective role names when the token was issued. */
  roles: string[];
  /** Expiry, epoch seconds. */
  exp: number;
}

/** Checks a bearer token as a resource server does: the claims of a good token, null for any other. Never throws for a bad token. */
export type TokenVerifier = (token: string) => Promise<TokenPrincipal | null>;

/** app and mid are generated from this alphabet (as the tenant stage checks them); anything else names no tenant. */
const TenantValue = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/));
const NonEmpty = v.pipe(v.string(), v.minLength(1));

/** The claims a resource server needs to scope a request: who, which session, which tenant. */
const Claims = v.object({
  sub: NonEmpty,
  sid: NonEmpty,
  app: TenantValue,
  mid: TenantValue,
  roles: v.array(v.string()),
  exp: v.pipe(v.number(), v.integer()),
});

export interface RemoteVerifierOptions {
  /** The identity base URL: the `iss` every accepted token must carry. */
  issuerUrl: string;
  /** Where the issuer publishes its public keys (its `jwks_uri`). */
  jwksUrl: string;
  /** The keys; a test may pass a local set. Default: fetched from `jwksUrl` and cached by jose. */
  keys?: JWTVerifyGetKey;
  /** The time `exp` is checked against (tests). */
  now?: () => Date;
}

/**
 * The bearer check of a resource server (the plant store): signature, `iss`
 * and `exp` only, against the identity service's published keys, as an API
 * Gateway JWT authorizer checks them. It does not ask the identity service
 * whether the session is still live, so a token of a revoked session works
 * until its `exp` (at most 15 minutes).
 *
 * Why not API Gateway's JWT authorizer: it checks `aud` against a fixed list,
 * and an identity token's `aud` is its tenant's `app`, one per tenant, which
 * a multi-tenant resource server cannot list in advance. So the check runs in
 * the handler, with the tenant taken from the `app`/`mid` claims instead.
 *
 * Build it once per cold start: the remote key set is fetched on first use,
 * kept, and fetched again only for an unknown `kid` (a rotated key), at most
 * every 30 s (jose's cooldown).
 */
export function remoteJwksVerifier(options: RemoteVerifierOptions): TokenVerifier {
  const keys = options.keys ?? createRemoteJWKSet(new URL(options.jwksUrl));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuerUrl,
        // Pinned: `none`, HS256 keyed with a public key and every other algorithm are refused before any key is used.
        algorithms: ['ES256'],
        requiredClaims: ['exp', 'sub'],
        ...(options.now ? { currentDate: options.now() } : {}),
      });
      const claims = v.safeParse(Claims, payload);
      if (!claims.success) return null;
      const { sub, sid, app, mid, roles, exp } = claims.output;
      return { kind: 'token', sub, sid, app, mid, roles, exp };
    } catch (error) {
      // The issuer's keys could not be read: our dependency failed, not the caller (503, logged, retried).
      if (keySetUnavailable(error)) {
        throw new KeySetUnavailableError(`the key set at ${options.jwksUrl} could not be read`, { cause: error });
      }
      // Anything else (bad signature, expired, wrong issuer, unknown kid, a claim missing): not a good token.
      return null;
    }
  };
}

/**
 * The issuer's key set could not be fetched or read. Named `ServiceUnavailable`
 * so that httpHandler answers 503 UNAVAILABLE with Retry-After and logs the cause.
 */
export class KeySetUnavailableError extends Error {
  override readonly name = 'ServiceUnavailable';
}

/** Failures of the JWKS fetch itself (network, timeout, a non-200 or non-JWKS answer), as jose reports them. */
function keySetUnavailable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true;
  // jose's base class: a JWKS answer other than 200, or not JSON. Every token problem has a subclass of its own.
  if (error instanceof errors.JOSEError) return error.code === 'ERR_JOSE_GENERIC';
  // fetch itself failed (connection refused, DNS).
  return error instanceof TypeError;
}
