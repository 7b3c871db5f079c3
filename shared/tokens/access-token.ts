import type { CryptoKey } from 'jose';
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import { type SigningKeyDeps, signingKeys } from './signing-keys.ts';

/** Access tokens live 15 minutes (docs/security.md#tokens-and-lifetimes). */
export const ACCESS_TOKEN_TTL_SECONDS = 900;

export type TokenDeps = SigningKeyDeps & Pick<Deps, 'config'>;

/** Who the token is for: the user, their session and tenant, and their effective role names. */
export interface AccessTokenSubject {
  sub: string;
  sid: string;
  app: string;
  mid: string;
  roles: string[];
}

const NonEmpty = v.pipe(v.string(), v.minLength(1));
const NumericDate = v.pipe(v.number(), v.integer());

/** Exactly the claims we issue; a verified token must carry all of them. */
const AccessTokenClaims = v.object({
  iss: NonEmpty,
  aud: NonEmpty,
  sub: NonEmpty,
  sid: NonEmpty,
  app: NonEmpty,
  mid: NonEmpty,
  roles: v.array(v.string()),
  iat: NumericDate,
  exp: NumericDate,
  jti: NonEmpty,
});
export type AccessTokenClaims = v.InferOutput<typeof AccessTokenClaims>;

/**
 * Signs a 15-minute ES256 access token for one session with the active
 * signing key (`kid` in the header). `aud` is the tenant's app, a string.
 */
export async function issueAccessToken(
  deps: TokenDeps,
  subject: AccessTokenSubject,
): Promise<{ accessToken: string; expiresIn: typeof ACCESS_TOKEN_TTL_SECONDS }> {
  const accessToken = await signJwt(
    deps,
    { typ: 'JWT', lifetimeSeconds: ACCESS_TOKEN_TTL_SECONDS },
    {
      iss: deps.config.issuerUrl,
      aud: subject.app,
      sub: subject.sub,
      sid: subject.sid,
      app: subject.app,
      mid: subject.mid,
      roles: [...subject.roles],
      jti: deps.random.token(26),
    },
  );
  return { accessToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
}

/** A token this process verified: its claims, and the key and issuer it was verified with. */
interface VerifiedToken {
  claims: AccessTokenClaims;
  kid: string;
  key: CryptoKey;
  issuer: string;
}

/**
 * The tokens verified lately, by their exact text, in this process: a client sends the same access token with every
 * request for its 15 minutes, and the ECDSA check of its signature was a tenth of the CPU of a session check
 * (bench/RESULTS.md). The text is the whole proof, so the same text needs no second check; what can change is time
 * and the key: a remembered token is still refused from its `exp` on, and once its key is no longer published (the
 * key is looked up as for any token, in the caller's own table, and must be the very key it was verified with).
 * Only good tokens are kept, at most VERIFIED_TOKENS_KEPT (oldest out first).
 */
const verifiedTokens = new Map<string, VerifiedToken>();
const VERIFIED_TOKENS_KEPT = 1000;

/**
 * The claims of a good access token, or null for anything else: bad
 * signature, another algorithm, unknown or long-retired `kid`, wrong issuer,
 * expired, a claim missing, or `aud` other than the `app` claim. It does not
 * compare the tenant with the request's or check that the session is live:
 * the bearer authenticator does. Never throws for a bad token, never logs one;
 * throws only when the signing keys cannot be read (the store failing is a
 * 503 for the client to retry, not a bad token).
 */
export async function verifyAccessToken(deps: TokenDeps, token: string): Promise<AccessTokenClaims | null> {
  const known = verifiedTokens.get(token);
  if (known) {
    const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
    const stillGood =
      known.issuer === deps.config.issuerUrl &&
      known.claims.exp > nowSeconds &&
      (await signingKeys(deps).verificationKey(known.kid)) === known.key;
    // Otherwise checked afresh below, which refuses it for the same reason (the entry ages out with the others).
    if (stillGood) return known.claims;
  }
  const verified = await verifyJwt(deps, token, {
    typ: 'JWT',
    algorithms: ['ES256'],
    issuer: deps.config.issuerUrl,
    requiredClaims: ['sub', 'sid', 'app', 'mid', 'jti', 'exp', 'iat'],
  });
  if (!verified) return null;
  const claims = v.safeParse(AccessTokenClaims, verified.payload);
  // aud must be exactly the tenant the token was issued for: a string (not a list) equal to `app`.
  if (!claims.success || claims.output.aud !== claims.output.app) return null;
  // Shared by every request that sends this token: nobody may change it.
  // valibot's output is a copy of the payload, its roles too: frozen in place.
  Object.freeze(claims.output.roles);
  const frozen = Object.freeze(claims.output);
  if (verifiedTokens.size >= VERIFIED_TOKENS_KEPT) verifiedTokens.delete(verifiedTokens.keys().next().value as string);
  verifiedTokens.set(token, { claims: frozen, kid: verified.kid, key: verified.key, issuer: deps.config.issuerUrl });
  return frozen;
}
