import { hashToken } from '../auth/codes.ts';
import { type Rotated, rotateRefreshToken } from '../auth/refresh.ts';
import { beginSession } from '../auth/session-start.ts';
import { pkceMatches } from '../crypto/pkce.ts';
import type { Deps } from '../deps.ts';
import { type AppError, fail, failField, isAppError } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { conditionFailedAt } from '../store/errors.ts';
import type { StoredOidcClient } from '../store/oidc-client-repo.ts';
import { type AuthorizationCode, oidcFlowRepo } from '../store/oidc-flow-repo.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { signAccessToken, signIdToken, type UserGrant } from '../tokens/oidc-tokens.ts';
import { authenticateClient, type ClientCredentials } from './client-auth.ts';
import { endClientSession } from './client-sessions.ts';
import { type Issuer, issuerOf } from './issuer.ts';
import type { TokenRequest } from './protocol-schemas.ts';
import { sameRedirectUri } from './schemas.ts';
import { claimsFor, rolesClaim } from './scopes.ts';

const required = (value: string | undefined, name: string): string => {
  if (value === undefined || value === '') {
    throw failField(name, 'is required');
  }
  return value;
};

/**
 * POST /oidc/token (RFC 6749 3.2, OIDC Core 3.1.3): the client is authenticated first (401 INVALID_CLIENT),
 * then its grant: an authorization code, a refresh token, or (a confidential client alone) its own
 * credentials.
 */
export async function token(
  deps: Deps,
  tenant: Merchant,
  body: TokenRequest,
  credentials: ClientCredentials,
  client: ClientInfo,
) {
  const grantType = required(body.grant_type, 'grant_type');
  const oidcClient = await authenticateClient(deps, tenant, credentials);
  const issuer = issuerOf(deps.config, tenant);
  const allowed = (grant: StoredOidcClient['grantTypes'][number]) => {
    if (!oidcClient.grantTypes.includes(grant)) throw fail('UNAUTHORIZED_CLIENT', `this client may not use ${grant}`);
  };
  switch (grantType) {
    case 'authorization_code':
      allowed('authorization_code');
      return redeemCode(deps, tenant, issuer, oidcClient, body);
    case 'refresh_token':
      allowed('refresh_token');
      return refreshGrant(deps, tenant, issuer, oidcClient, required(body.refresh_token, 'refresh_token'), client);
    case 'client_credentials': {
      allowed('client_credentials');
      const { accessToken, expiresIn } = await signAccessToken(deps, issuer.url, tenant, oidcClient, null);
      return { access_token: accessToken, token_type: 'Bearer' as const, expires_in: expiresIn, scope: '' };
    }
    default:
      throw fail('UNSUPPORTED_GRANT_TYPE', `grant_type ${grantType} is not supported`);
  }
}

/**
 * The code grant: the code must be this client's, for this redirect URI, within its 60 s, never redeemed,
 * and its PKCE verifier right. It is redeemed by the transaction that starts the client's session (one
 * conditional write): of concurrent redemptions exactly one commits. A code presented again, by its client with
 * its redirect URI and verifier, is refused and the session its first redemption started is revoked (RFC 6749
 * 4.1.2: its tokens die with it); presented without them, it is refused and nothing is revoked.
 */
async function redeemCode(deps: Deps, tenant: Merchant, issuer: Issuer, client: StoredOidcClient, body: TokenRequest) {
  const code = required(body.code, 'code');
  const verifier = required(body.code_verifier, 'code_verifier');
  const codeHash = hashToken(code);
  const flows = oidcFlowRepo(deps.store);
  const now = deps.clock.now();
  const stored = code.length <= 128 ? await flows.getCode(tenant, codeHash) : null;
  if (!stored || stored.clientId !== client.clientId) throw fail('INVALID_GRANT', 'the code is not valid');
  // RFC 6749 4.1.3: required, and the same, when the authorization request named it; else, if sent, the same.
  const sameUri =
    body.redirect_uri === undefined ? !stored.redirectUriGiven : sameRedirectUri(body.redirect_uri, stored.redirectUri);
  if (!sameUri) throw fail('INVALID_GRANT', 'redirect_uri differs from the authorization request');
  if (!pkceMatches(verifier, stored.codeChallenge)) throw fail('INVALID_GRANT', 'the code_verifier does not match');
  // A replay revokes what the code issued only when it passes the checks above: whoever merely saw a used code
  // (browser history, a proxy's log) lacks the verifier, and must not be able to sign the user out of the client.
  if (stored.redeemedAt !== null) return replayed(deps, tenant, stored);
  if (Date.parse(stored.expiresAt) <= now.getTime()) throw fail('INVALID_GRANT', 'the code has expired');
  const user = await userRepo(deps.store).get(tenant, stored.userId);
  // Only an ACTIVE user at the epoch the browser session had: a password change or disable since voids the code.
  if (user?.status !== 'ACTIVE' || user.credentialEpoch !== stored.epoch) {
    throw fail('INVALID_GRANT', 'the code is no longer valid');
  }
  // OIDC Core 11: a refresh token (access while the user is away) only when the request asked for it.
  const wantsRefresh = client.grantTypes.includes('refresh_token') && stored.scopes.includes('offline_access');
  let sessionId = '';
  try {
    return await beginSession(
      deps,
      tenant,
      user,
      { ip: stored.ip, userAgent: stored.userAgent },
      { amr: stored.amr },
      {
        clientId: client.clientId,
        clientName: client.name,
        refreshTtlMs: client.refreshTokenLifetimeSeconds * 1000,
        authenticatedAt: stored.authenticatedAt,
        scopes: stored.scopes,
      },
      async (session, refreshToken) => {
        sessionId = session.id;
        const grant = {
          user,
          sessionId: session.id,
          scopes: stored.scopes,
          authenticatedAt: stored.authenticatedAt,
          amr: stored.amr,
          nonce: stored.nonce,
        };
        return userTokens(deps, issuer, tenant, client, grant, wantsRefresh ? refreshToken : undefined);
      },
      (session) => [flows.redeemItem(tenant, codeHash, session.id, now)],
    );
  } catch (error) {
    if (!conditionFailedAt(error) && !isCodeRace(error)) throw error;
    // Another redemption won (or the code lapsed or the user changed between the read and the write).
    const again = await flows.getCode(tenant, codeHash);
    if (again?.redeemedAt && again.sessionId !== sessionId) return replayed(deps, tenant, again);
    throw fail('INVALID_GRANT', 'the code is no longer valid');
  }
}

/** startSession's own answers to a cancelled transaction (the profile moved on): the code is void either way. */
function isCodeRace(error: unknown): error is AppError {
  return isAppError(error) && (error.code === 'INVALID_CODE' || error.code === 'INVALID_CREDENTIALS');
}

/** A code presented again: refused, and what its first redemption issued is revoked. */
async function replayed(deps: Deps, tenant: Merchant, code: AuthorizationCode): Promise<never> {
  if (code.sessionId) await endClientSession(deps, tenant, code.userId, code.sessionId, code.clientId);
  deps.log.info('authorization code replayed; its session is revoked', {
    clientId: code.clientId,
    userId: code.userId,
  });
  throw fail('INVALID_GRANT', 'the code was already used; the tokens it issued are revoked');
}

/**
 * The refresh grant: today's rotation (successor, 10 s grace, reuse detection that revokes the session),
 * bound to this client's session. A fresh ID token (same `auth_time`, no `nonce`) goes with the new tokens.
 */
async function refreshGrant(
  deps: Deps,
  tenant: Merchant,
  issuer: Issuer,
  client: StoredOidcClient,
  refreshToken: string,
  info: ClientInfo,
) {
  let rotated: Rotated;
  try {
    rotated = await rotateRefreshToken(deps, tenant, refreshToken, info, {
      clientId: client.clientId,
      signingAlg: client.idTokenSigningAlg,
    });
  } catch (error) {
    if (isAppError(error) && (error.code === 'REFRESH_TOKEN_INVALID' || error.code === 'REFRESH_TOKEN_REUSED')) {
      throw fail(
        'INVALID_GRANT',
        error.code === 'REFRESH_TOKEN_REUSED'
          ? 'the refresh token was reused; the session is revoked'
          : 'the refresh token is not valid',
      );
    }
    throw error;
  }
  // What the new ID token repeats (scopes, auth_time, amr) never changes on rotation: the session as read.
  const session = rotated.session;
  const scopes = session.scopes ?? ['openid'];
  const grant = {
    user: rotated.user,
    sessionId: rotated.sessionId,
    scopes,
    authenticatedAt: session.authenticatedAt ?? session.createdAt,
    amr: session.amr ?? ['pwd'],
    nonce: null,
  };
  return userTokens(deps, issuer, tenant, client, grant, rotated.refreshToken);
}

/** The token response of a user's grant (RFC 6749 5.1, OIDC Core 3.1.3.3): access and ID token, and the refresh token. */
async function userTokens(
  deps: Deps,
  issuer: Issuer,
  tenant: Merchant,
  client: StoredOidcClient,
  grant: UserGrant,
  refreshToken: string | undefined,
) {
  const now = deps.clock.now();
  const [access, idToken] = await Promise.all([
    signAccessToken(deps, issuer.url, tenant, client, {
      ...grant,
      userClaims: rolesClaim(grant.user, grant.scopes, now),
    }),
    signIdToken(deps, issuer.url, client, grant, claimsFor(grant.user, grant.scopes, now)),
  ]);
  return {
    access_token: access.accessToken,
    token_type: 'Bearer' as const,
    expires_in: access.expiresIn,
    scope: grant.scopes.join(' '),
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    id_token: idToken,
  };
}
