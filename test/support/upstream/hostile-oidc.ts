import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { errorPage } from './page.ts';
import {
  type AuthorizationResponse,
  clientCredentials,
  listen,
  readForm,
  redirect,
  sendHtml,
  sendJson,
} from './wire.ts';

/**
 * A hand-made OpenID Provider for refusal tests: a correct one in every way (discovery, JWKS, an authorization
 * endpoint that answers at once, a token endpoint that checks the client and the PKCE verifier, userinfo), but
 * for its ID token, which is bad in the one way `tamper` says:
 *
 * - 'none': nothing; a correct token (strict clients take it).
 * - 'audience': issued to another client (aud).
 * - 'issuer': says another issuer (iss), as in a mix-up between providers.
 * - 'expired': expired an hour ago (well past any clock tolerance).
 * - 'alg-none': unsigned (alg none, empty signature).
 * - 'unknown-key': signed by a key the JWKS does not hold, under the published key's kid, so a client finds
 *   the key and the signature fails (oauth4webapi checks it only when asked: validateApplicationLevelSignature).
 * - 'nonce': carries a nonce other than the request's.
 * - 'email-unverified': email_verified false, in the ID token and userinfo. The token is otherwise correct:
 *   refusing it is the service's policy, not the protocol's.
 *
 * Everything but the ID token stays correct, including the authorization response's iss (RFC 9207).
 */

export const TAMPERS = [
  'none',
  'audience',
  'issuer',
  'expired',
  'alg-none',
  'unknown-key',
  'nonce',
  'email-unverified',
] as const;
export type Tamper = (typeof TAMPERS)[number];

export interface HostileAccount {
  sub: string;
  email: string;
  name: string;
}

export interface HostileOidcOptions {
  clientId: string;
  clientSecret: string;
  tamper?: Tamper;
  /** The redirect URIs it accepts; any when absent. */
  redirectUris?: string[];
  /** Whom it signs in; Mallory by default. */
  account?: HostileAccount;
  port?: number;
}

export interface HostileOidc {
  issuer: string;
  port: number;
  /** The account its tokens are about. */
  account: HostileAccount;
  close(): Promise<void>;
  setTamper(tamper: Tamper): void;
  /** Follows the authorization URL: the provider answers at once with a redirect to the redirect_uri. */
  authorize(authorizationUrl: string | URL): Promise<AuthorizationResponse>;
}

const KID = 'hostile-rs256';

interface SigningKeys {
  published: { privateKey: CryptoKey; jwk: JWK };
  unpublished: { privateKey: CryptoKey };
}

// Generated once per process: RSA key generation is the slow part of a start.
let keys: Promise<SigningKeys> | undefined;
function signingKeys(): Promise<SigningKeys> {
  keys ??= Promise.all([generateKeyPair('RS256'), generateKeyPair('RS256')]).then(async ([published, other]) => ({
    published: {
      privateKey: published.privateKey,
      jwk: { ...(await exportJWK(published.publicKey)), kid: KID, alg: 'RS256', use: 'sig' },
    },
    unpublished: { privateKey: other.privateKey },
  }));
  return keys;
}

interface PendingCode {
  redirectUri: string;
  codeChallenge: string;
  nonce: string | null;
  scope: string;
}

const MALLORY: HostileAccount = { sub: 'mallory-1', email: 'mallory@hostile.example', name: 'Mallory Example' };

export async function startHostileOidc(options: HostileOidcOptions): Promise<HostileOidc> {
  const { published, unpublished } = await signingKeys();
  const account = options.account ?? MALLORY;
  let tamper: Tamper = options.tamper ?? 'none';
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Set<string>();
  let issuer = '';

  const emailVerified = () => tamper !== 'email-unverified';

  async function idToken(pending: PendingCode): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: tamper === 'issuer' ? 'https://accounts.attacker.example' : issuer,
      sub: account.sub,
      aud: tamper === 'audience' ? 'another-client' : options.clientId,
      iat: tamper === 'expired' ? now - 2 * 3600 : now,
      exp: tamper === 'expired' ? now - 3600 : now + 600,
      auth_time: tamper === 'expired' ? now - 2 * 3600 : now,
      email: account.email,
      email_verified: emailVerified(),
      name: account.name,
    };
    if (pending.nonce !== null) claims.nonce = pending.nonce;
    if (tamper === 'nonce') claims.nonce = randomBytes(16).toString('base64url');
    if (tamper === 'alg-none') {
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
    }
    const key = tamper === 'unknown-key' ? unpublished.privateKey : published.privateKey;
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' }).sign(key);
  }

  function discovery() {
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['openid', 'email', 'profile'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'email', 'email_verified', 'name'],
      authorization_response_iss_parameter_supported: true,
    };
  }

  function authorizeEndpoint(res: ServerResponse, query: URLSearchParams) {
    const redirectUri = query.get('redirect_uri');
    if (query.get('client_id') !== options.clientId) {
      sendHtml(res, 400, errorPage('Hostile ID', 'invalid_client: unknown client_id'));
      return;
    }
    if (!redirectUri || (options.redirectUris && !options.redirectUris.includes(redirectUri))) {
      sendHtml(res, 400, errorPage('Hostile ID', 'invalid_request: redirect_uri is not registered'));
      return;
    }
    const answer = new URL(redirectUri);
    const state = query.get('state');
    const send = (params: Record<string, string>) => {
      for (const [name, value] of Object.entries(params)) answer.searchParams.set(name, value);
      if (state !== null) answer.searchParams.set('state', state);
      answer.searchParams.set('iss', issuer);
      redirect(res, answer);
    };
    if (query.get('response_type') !== 'code') {
      send({ error: 'unsupported_response_type', error_description: 'only code' });
      return;
    }
    const codeChallenge = query.get('code_challenge');
    if (!codeChallenge || query.get('code_challenge_method') !== 'S256') {
      send({ error: 'invalid_request', error_description: 'PKCE with S256 is required' });
      return;
    }
    const scope = query.get('scope') ?? '';
    if (!scope.split(' ').includes('openid')) {
      send({ error: 'invalid_scope', error_description: 'openid is required' });
      return;
    }
    const code = randomBytes(24).toString('base64url');
    codes.set(code, { redirectUri, codeChallenge, nonce: query.get('nonce'), scope });
    send({ code });
  }

  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse) {
    const form = await readForm(req);
    const { clientId, clientSecret } = clientCredentials(req, form);
    if (clientId !== options.clientId || clientSecret !== options.clientSecret) {
      const challenge = req.headers.authorization ? { 'www-authenticate': 'Basic realm="hostile"' } : undefined;
      sendJson(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' }, challenge);
      return;
    }
    if (form.get('grant_type') !== 'authorization_code') {
      sendJson(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    const code = form.get('code') ?? '';
    const pending = codes.get(code);
    codes.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const invalidGrant = (error_description: string) =>
      sendJson(res, 400, { error: 'invalid_grant', error_description });
    if (!pending) return invalidGrant('unknown or used code');
    if (form.get('redirect_uri') !== pending.redirectUri) return invalidGrant('redirect_uri differs');
    if (createHash('sha256').update(verifier).digest('base64url') !== pending.codeChallenge) {
      return invalidGrant('PKCE verification failed');
    }
    const accessToken = randomBytes(24).toString('base64url');
    accessTokens.add(accessToken);
    sendJson(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: pending.scope,
      id_token: await idToken(pending),
    });
  }

  function userinfoEndpoint(req: IncomingMessage, res: ServerResponse) {
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !accessTokens.has(token)) {
      sendJson(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return;
    }
    sendJson(res, 200, {
      sub: account.sub,
      email: account.email,
      email_verified: emailVerified(),
      name: account.name,
    });
  }

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /.well-known/openid-configuration') sendJson(res, 200, discovery());
    else if (route === 'GET /jwks') sendJson(res, 200, { keys: [published.jwk] });
    else if (route === 'GET /authorize') authorizeEndpoint(res, url.searchParams);
    else if (route === 'POST /token') await tokenEndpoint(req, res);
    else if (route === 'GET /userinfo' || route === 'POST /userinfo') userinfoEndpoint(req, res);
    else sendJson(res, 404, { error: 'not_found' });
  }, options.port ?? 0);
  issuer = `http://127.0.0.1:${server.port}`;

  return {
    issuer,
    port: server.port,
    account,
    close: server.close,
    setTamper: (next) => {
      tamper = next;
    },
    authorize: async (authorizationUrl) => {
      const response = await fetch(authorizationUrl, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status !== 302 || !location) {
        throw new Error(`Hostile ID answered ${response.status}: ${await response.text()}`);
      }
      const url = new URL(location);
      return { method: 'GET', url, params: url.searchParams };
    },
  };
}
