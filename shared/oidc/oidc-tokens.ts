import { type JWTHeaderParameters, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { signingKeys } from '../auth/signing-keys.ts';
import type { Deps } from '../deps.ts';
import type { StoredOidcClient } from '../store/oidc-client-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from '../users/types.ts';
import type { Issuer } from './issuer.ts';
import { claimsFor, rolesClaim } from './scopes.ts';

/**
 * The tokens an OpenID Connect client gets (README.md, Codes and tokens), signed by today's signing keys in
 * the client's algorithm: the ID token, and an RFC 9068 access token (`typ: at+jwt`) that only this
 * issuer's userinfo (and resource servers that trust the issuer) accept; the API's bearer check refuses it
 * (another `iss`), as userinfo refuses the API's access tokens (another `typ` and `iss`).
 */

const nowSeconds = (deps: Pick<Deps, 'clock'>) => Math.floor(deps.clock.now().getTime() / 1000);

/** What a user's tokens are about: the client's session and how the user signed in. */
export interface UserGrant {
  user: User;
  sessionId: string;
  scopes: string[];
  authenticatedAt: string;
  amr: string[];
  /** Only in the ID token answering a code whose request had one (never on refresh: OIDC Core 12.2). */
  nonce: string | null;
}

async function sign(deps: Deps, client: StoredOidcClient, typ: string, claims: JWTPayload, lifetime: number) {
  const { kid, privateKey, alg } = await signingKeys(deps).active(client.idTokenSigningAlg);
  const iat = nowSeconds(deps);
  return new SignJWT(claims)
    .setProtectedHeader({ alg, kid, typ })
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetime)
    .sign(privateKey);
}

/** The ID token (OIDC Core 2): who signed in, when and how, and the claims its scopes allow. */
export function signIdToken(deps: Deps, issuer: Issuer, client: StoredOidcClient, grant: UserGrant) {
  const now = deps.clock.now();
  return sign(
    deps,
    client,
    'JWT',
    {
      iss: issuer.url,
      sub: grant.user.id,
      aud: client.clientId,
      azp: client.clientId,
      auth_time: Math.floor(Date.parse(grant.authenticatedAt) / 1000),
      amr: grant.amr,
      sid: grant.sessionId,
      ...(grant.nonce === null ? {} : { nonce: grant.nonce }),
      ...claimsFor(grant.user, grant.scopes, now),
    },
    client.accessTokenLifetimeSeconds,
  );
}

/**
 * The access token (RFC 9068): for a user's grant (`roles` with that scope only), or for the client itself
 * (`client_credentials`: `sub` is the client id, no session, no roles).
 */
export async function signAccessToken(
  deps: Deps,
  issuer: Issuer,
  tenant: Merchant,
  client: StoredOidcClient,
  grant: Pick<UserGrant, 'user' | 'sessionId' | 'scopes'> | null,
) {
  const token = await sign(
    deps,
    client,
    'at+jwt',
    {
      iss: issuer.url,
      sub: grant?.user.id ?? client.clientId,
      aud: client.clientId,
      client_id: client.clientId,
      scope: grant?.scopes.join(' ') ?? '',
      app: tenant.app,
      mid: tenant.mid,
      jti: deps.random.token(26),
      ...(grant ? { sid: grant.sessionId, ...rolesClaim(grant.user, grant.scopes, deps.clock.now()) } : {}),
    },
    client.accessTokenLifetimeSeconds,
  );
  return { accessToken: token, expiresIn: client.accessTokenLifetimeSeconds };
}

/** The claims of a good access token of this issuer, or null (bad signature, expired, another issuer or type). */
export async function verifyOidcAccessToken(
  deps: Deps,
  issuer: Issuer,
  token: string,
): Promise<{ sub: string; sid?: string; client_id: string; scope: string } | null> {
  return verifyIssued(deps, issuer, token, { typ: 'at+jwt', acceptExpired: false }) as Promise<{
    sub: string;
    sid?: string;
    client_id: string;
    scope: string;
  } | null>;
}

/**
 * The claims of a token this issuer signed, or null. `acceptExpired`: an ID token given back as a logout
 * hint may be old (OIDC RP-Initiated Logout 1.0, 2); its signature and issuer are what count.
 */
export async function verifyIssued(
  deps: Deps,
  issuer: Issuer,
  token: string,
  options: { typ: string; acceptExpired: boolean },
): Promise<JWTPayload | null> {
  const keys = signingKeys(deps);
  let unreadable: { error: unknown } | undefined;
  try {
    const { payload } = await jwtVerify(
      token,
      async (header: JWTHeaderParameters) => {
        const found =
          header.kid === undefined
            ? null
            : await keys.verificationKeyFor(header.kid).catch((error: unknown) => {
                unreadable = { error };
                throw error;
              });
        // The key's own algorithm, never the header's word for it.
        if (!found || found.alg !== header.alg) throw new Error('unknown signing key');
        return found.key;
      },
      {
        algorithms: ['ES256', 'RS256'],
        typ: options.typ,
        issuer: issuer.url,
        requiredClaims: ['sub', 'iat', 'exp'],
        currentDate: options.acceptExpired ? new Date(0) : deps.clock.now(),
      },
    );
    return payload;
  } catch {
    if (unreadable) throw unreadable.error;
    return null;
  }
}
