import { type CryptoKey, type JWTHeaderParameters, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { type SigningAlg, type SigningKeyDeps, signingKeys } from './signing-keys.ts';

/**
 * Every token this service signs goes through signJwt and comes back through verifyJwt, over the one key ring
 * (signing-keys.ts). What differs between the API's access token, the OpenID access token and the ID token is
 * their profile: `typ`, the algorithms accepted, the claims required, the lifetime.
 */

const secondsOf = (date: Date) => Math.floor(date.getTime() / 1000);

export interface SigningProfile {
  /** The header's `typ`: `JWT`, or `at+jwt` for an OpenID access token (RFC 9068). */
  typ: string;
  lifetimeSeconds: number;
  /** The key ring's algorithm to sign with (ES256 unless said: an OpenID client may ask for RS256). */
  alg?: SigningAlg;
}

/** Signs `claims` with the active key of the profile's algorithm; `kid`, `alg`, `typ`, `iat` and `exp` are set here. */
export async function signJwt(deps: SigningKeyDeps, profile: SigningProfile, claims: JWTPayload): Promise<string> {
  const { kid, privateKey, alg } = await signingKeys(deps).active(profile.alg);
  const iat = secondsOf(deps.clock.now());
  return new SignJWT(claims)
    .setProtectedHeader({ alg, kid, typ: profile.typ })
    .setIssuedAt(iat)
    .setExpirationTime(iat + profile.lifetimeSeconds)
    .sign(privateKey);
}

export interface VerifyingProfile {
  typ: string;
  /** Pinned: `none`, HS256 keyed with a public key and every other algorithm are refused before any key is read. */
  algorithms: SigningAlg[];
  issuer: string;
  requiredClaims: string[];
  /** A token given back only as a hint (an ID token at logout) may be old: its signature and issuer are what count. */
  acceptExpired?: boolean;
}

/** A good token: its payload, and the key (with its `kid`) that verified it. */
export interface VerifiedJwt {
  payload: JWTPayload;
  kid: string;
  key: CryptoKey;
}

/**
 * The payload of a token one of our keys signed for this profile, or null for anything else: a bad signature,
 * an algorithm outside the profile, a `kid` unknown or retired over an hour ago, a key whose own algorithm is not
 * the header's, another `typ` or issuer, expired, a required claim missing. Never throws for a bad token; throws
 * only when the keys cannot be read (the store failing is a 503 for the client to retry, not a bad token).
 */
export async function verifyJwt(
  deps: SigningKeyDeps,
  token: string,
  profile: VerifyingProfile,
): Promise<VerifiedJwt | null> {
  const keys = signingKeys(deps);
  let keysUnreadable: { error: unknown } | undefined;
  let used: { kid: string; key: CryptoKey } | undefined;
  try {
    const { payload } = await jwtVerify(
      token,
      async (header: JWTHeaderParameters) => {
        const found =
          header.kid === undefined
            ? null
            : await keys.verificationKeyFor(header.kid).catch((error: unknown) => {
                keysUnreadable = { error };
                throw error;
              });
        // The key's own algorithm, never the header's word for it.
        if (!found || found.alg !== header.alg) throw new Error('unknown signing key');
        used = { kid: header.kid as string, key: found.key };
        return found.key;
      },
      {
        algorithms: profile.algorithms,
        typ: profile.typ,
        issuer: profile.issuer,
        requiredClaims: profile.requiredClaims,
        currentDate: profile.acceptExpired ? new Date(0) : deps.clock.now(),
      },
    );
    return used ? { payload, ...used } : null;
  } catch {
    if (keysUnreadable) throw keysUnreadable.error;
    return null;
  }
}
