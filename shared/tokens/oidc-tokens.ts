import type { JWTPayload } from 'jose';
import type { Deps } from '../deps.ts';
import type { StoredOidcClient } from '../store/oidc-client-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from '../users/types.ts';
import { signJwt, verifyJwt } from './jwt.ts';

/**
 * The tokens an OpenID Connect client gets (README.md, Codes and tokens), signed by today's signing keys in
 * the client's algorithm: the ID token, and an RFC 9068 access token (`typ: at+jwt`) that only this
 * issuer's userinfo (and resource servers that trust the issuer) accept; the API's bearer check refuses it
 * (another `iss`), as userinfo refuses the API's access tokens (another `typ` and `iss`). Which user claims a
 * scope releases is the OpenID Provider's rule (shared/oidc/scopes.ts): its caller passes them in.
 */

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

const profileOf = (client: StoredOidcClient, typ: string) => ({
  typ,
  alg: client.idTokenSigningAlg,
  lifetimeSeconds: client.accessTokenLifetimeSeconds,
});

/** The ID token (OIDC Core 2): who signed in, when and how, and the user claims its scopes release. */
export function signIdToken(
  deps: Deps,
  issuerUrl: string,
  client: StoredOidcClient,
  grant: UserGrant,
  userClaims: Record<string, unknown>,
) {
  return signJwt(deps, profileOf(client, 'JWT'), {
    iss: issuerUrl,
    sub: grant.user.id,
    aud: client.clientId,
    azp: client.clientId,
    auth_time: Math.floor(Date.parse(grant.authenticatedAt) / 1000),
    amr: grant.amr,
    sid: grant.sessionId,
    ...(grant.nonce === null ? {} : { nonce: grant.nonce }),
    ...userClaims,
  });
}

/**
 * The access token (RFC 9068): for a user's grant (with the claims its scopes release, `roles` at most), or for
 * the client itself (`client_credentials`: `sub` is the client id, no session, no roles).
 */
export async function signAccessToken(
  deps: Deps,
  issuerUrl: string,
  tenant: Merchant,
  client: StoredOidcClient,
  grant: { user: User; sessionId: string; scopes: string[]; userClaims: { roles?: string[] } } | null,
) {
  const accessToken = await signJwt(deps, profileOf(client, 'at+jwt'), {
    iss: issuerUrl,
    sub: grant?.user.id ?? client.clientId,
    aud: client.clientId,
    client_id: client.clientId,
    scope: grant?.scopes.join(' ') ?? '',
    app: tenant.app,
    mid: tenant.mid,
    jti: deps.random.token(26),
    ...(grant ? { sid: grant.sessionId, ...grant.userClaims } : {}),
  });
  return { accessToken, expiresIn: client.accessTokenLifetimeSeconds };
}

/** The claims of a good access token of this issuer, or null (bad signature, expired, another issuer or type). */
export async function verifyOidcAccessToken(
  deps: Deps,
  issuerUrl: string,
  token: string,
): Promise<{ sub: string; sid?: string; client_id: string; scope: string } | null> {
  return verifyIssued(deps, issuerUrl, token, { typ: 'at+jwt', acceptExpired: false }) as Promise<{
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
  issuerUrl: string,
  token: string,
  options: { typ: string; acceptExpired: boolean },
): Promise<JWTPayload | null> {
  const verified = await verifyJwt(deps, token, {
    typ: options.typ,
    algorithms: ['ES256', 'RS256'],
    issuer: issuerUrl,
    requiredClaims: ['sub', 'iat', 'exp'],
    acceptExpired: options.acceptExpired,
  });
  return verified?.payload ?? null;
}
