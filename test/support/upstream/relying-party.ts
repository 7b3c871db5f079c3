import * as oauth from 'oauth4webapi';
import type { AuthorizationResponse } from './wire.ts';

/**
 * The client side of an OpenID Connect sign-in with oauth4webapi, step by step, as the fake providers'
 * tests run it against them: it proves each fake speaks the protocol a strict client expects.
 * The fakes are plain http on loopback, which oauth4webapi allows only when asked.
 */

const insecure = { [oauth.allowInsecureRequests]: true } as const;

export interface RelyingParty {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** How the secret goes to the token endpoint; basic by default. */
  auth?: 'basic' | 'post';
}

export interface StartedAuthorization {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function discover(issuer: string): Promise<oauth.AuthorizationServer> {
  const issuerUrl = new URL(issuer);
  const response = await oauth.discoveryRequest(issuerUrl, { algorithm: 'oidc', ...insecure });
  return oauth.processDiscoveryResponse(issuerUrl, response);
}

export async function authorizationUrl(
  as: oauth.AuthorizationServer,
  rp: RelyingParty,
  extra: Record<string, string> = {},
): Promise<StartedAuthorization> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(String(as.authorization_endpoint));
  url.search = new URLSearchParams({
    client_id: rp.clientId,
    redirect_uri: rp.redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return { url, state, nonce, codeVerifier };
}

/**
 * Everything after the provider's answer: its check (state, iss), the code's exchange, the token
 * response's check (ID token claims, nonce) and the ID token's signature against the provider's JWKS,
 * which oauth4webapi checks only when asked (a token straight from the token endpoint may go unverified).
 */
export async function finishAuthorization(
  as: oauth.AuthorizationServer,
  rp: RelyingParty,
  started: StartedAuthorization,
  answer: AuthorizationResponse,
) {
  const client: oauth.Client = { client_id: rp.clientId };
  const clientAuth =
    rp.auth === 'post' ? oauth.ClientSecretPost(rp.clientSecret) : oauth.ClientSecretBasic(rp.clientSecret);
  const params = oauth.validateAuthResponse(as, client, answer.params, started.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    clientAuth,
    params,
    rp.redirectUri,
    started.codeVerifier,
    insecure,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: started.nonce,
    requireIdToken: true,
  });
  await oauth.validateApplicationLevelSignature(as, response, insecure);
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims) throw new Error('no ID token');
  return { tokens, claims };
}

export async function userInfo(as: oauth.AuthorizationServer, clientId: string, accessToken: string, sub: string) {
  const client: oauth.Client = { client_id: clientId };
  const response = await oauth.userInfoRequest(as, client, accessToken, insecure);
  return oauth.processUserInfoResponse(as, client, sub, response);
}
