import { importPKCS8, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import type { Config, Deps } from '../deps.ts';
import { failField } from '../errors.ts';
import { publicUrlProblem } from '../http/outbound-url.ts';
import type { ProviderEndpoints, StoredSignInProvider } from '../store/sign-in-provider-repo.ts';
import { emailVerifiedIn, githubEndpoints, KINDS, loopbackAllowed } from './kinds.ts';
import type { ProviderKind } from './schemas.ts';

/**
 * The provider side of a sign-in (OAuth 2 and OpenID Connect as a client), with oauth4webapi: its metadata when an
 * admin saves it, the authorization URL, and at the callback the code exchanged (PKCE), the ID token checked
 * (issuer, audience, expiry, nonce, and its signature against the provider's key set), or for GitHub its user API.
 */

/** Each call to a provider gives up after this long: the callback's function has ten seconds in all. */
const PROVIDER_TIMEOUT_MS = 4000;
/** An ID token's `iat`/`exp` may be this far off our clock. */
const CLOCK_TOLERANCE_S = 60;

/** Why a provider's answer was refused: logged, never answered (the page gets one code). */
export class UpstreamRefusal extends Error {
  override readonly name = 'UpstreamRefusal';
}

function requestOptions(config: Pick<Config, 'localSignInProviders'>) {
  return {
    signal: () => AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    ...(loopbackAllowed(config) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/** Entra ID's multi-tenant issuers name the user's directory: `{tenantid}` in the metadata, its `tid` in a token. */
const TENANT_PLACEHOLDER = '{tenantid}';

/** Entra ID's `common`, `organizations` and `consumers`: one document for every directory. */
function isMultiTenantEntra(kind: ProviderKind, issuer: string): boolean {
  return kind === 'MICROSOFT' && /\/(common|organizations|consumers)\/v2\.0\/?$/.test(issuer);
}

/**
 * Entra ID's multi-tenant document names a templated issuer (`…/{tenantid}/v2.0`), not the URL asked: accepted only
 * with that template on Microsoft's own host, which each ID token's issuer is then checked against (its `tid` filled in).
 */
async function templatedMetadata(issuer: string, response: Response): Promise<oauth.AuthorizationServer> {
  if (response.status !== 200) throw new UpstreamRefusal(`discovery answered ${response.status}`);
  const metadata = (await response.json()) as oauth.AuthorizationServer;
  const expected = issuer.replace(/\/(common|organizations|consumers)\/v2\.0\/?$/, `/${TENANT_PLACEHOLDER}/v2.0`);
  if (metadata.issuer !== expected) throw new UpstreamRefusal(`its document names the issuer ${metadata.issuer}`);
  return metadata;
}

/**
 * A provider's endpoints, from its discovery document (GitHub: its fixed ones), checked to be public URLs. A provider
 * that cannot be read, or whose document names another issuer, is refused with PROVIDER_DISCOVERY_FAILED.
 */
export async function discoverEndpoints(
  config: Pick<Config, 'localSignInProviders'>,
  kind: ProviderKind,
  issuer: string,
): Promise<ProviderEndpoints> {
  const allowLoopback = loopbackAllowed(config);
  const issuerProblem = await publicUrlProblem(issuer, { allowLoopback });
  if (issuerProblem) throw failField('issuer', issuerProblem, 'PROVIDER_DISCOVERY_FAILED');
  if (!KINDS[kind].openid) {
    const github = githubEndpoints(issuer);
    return {
      issuer,
      authorizationEndpoint: github.authorization,
      tokenEndpoint: github.token,
      jwksUri: null,
      userinfoEndpoint: github.api,
      issParameter: false,
      signingAlgs: [],
    };
  }
  let metadata: oauth.AuthorizationServer;
  try {
    const response = await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oidc', ...requestOptions(config) });
    metadata = isMultiTenantEntra(kind, issuer)
      ? await templatedMetadata(issuer, response)
      : await oauth.processDiscoveryResponse(new URL(issuer), response);
  } catch (error) {
    throw failField(
      'issuer',
      `its discovery document could not be read: ${(error as Error).message}`,
      'PROVIDER_DISCOVERY_FAILED',
    );
  }
  const { authorization_endpoint, token_endpoint, jwks_uri } = metadata;
  if (!authorization_endpoint || !token_endpoint || !jwks_uri) {
    throw failField('issuer', 'its discovery document lacks an endpoint', 'PROVIDER_DISCOVERY_FAILED');
  }
  for (const endpoint of [authorization_endpoint, token_endpoint, jwks_uri, metadata.userinfo_endpoint]) {
    const problem = endpoint ? await publicUrlProblem(endpoint, { allowLoopback }) : null;
    if (problem) throw failField('issuer', `${endpoint} ${problem}`, 'PROVIDER_DISCOVERY_FAILED');
  }
  return {
    issuer: metadata.issuer,
    authorizationEndpoint: authorization_endpoint,
    tokenEndpoint: token_endpoint,
    jwksUri: jwks_uri,
    userinfoEndpoint: metadata.userinfo_endpoint ?? null,
    issParameter: metadata.authorization_response_iss_parameter_supported === true,
    signingAlgs: metadata.id_token_signing_alg_values_supported ?? ['RS256'],
  };
}

function authorizationServer(provider: StoredSignInProvider): oauth.AuthorizationServer {
  const { endpoints } = provider;
  return {
    issuer: endpoints.issuer,
    authorization_endpoint: endpoints.authorizationEndpoint,
    token_endpoint: endpoints.tokenEndpoint,
    ...(endpoints.jwksUri ? { jwks_uri: endpoints.jwksUri } : {}),
    ...(endpoints.userinfoEndpoint ? { userinfo_endpoint: endpoints.userinfoEndpoint } : {}),
    authorization_response_iss_parameter_supported: endpoints.issParameter,
    id_token_signing_alg_values_supported: endpoints.signingAlgs,
  };
}

/** What the page's start asked of the provider. */
export interface AuthorizationSpec {
  redirectUri: string;
  state: string;
  nonce: string;
  pkceVerifier: string;
  loginHint?: string | undefined;
}

/** The URL the browser goes to at the provider: code flow, PKCE S256, a nonce for OpenID providers. */
export async function authorizationUrl(provider: StoredSignInProvider, spec: AuthorizationSpec): Promise<string> {
  const url = new URL(provider.endpoints.authorizationEndpoint);
  const openid = KINDS[provider.kind].openid;
  const params: Record<string, string | undefined> = {
    client_id: provider.clientId,
    redirect_uri: spec.redirectUri,
    response_type: 'code',
    scope: provider.scopes.join(' '),
    state: spec.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(spec.pkceVerifier),
    code_challenge_method: 'S256',
    nonce: openid ? spec.nonce : undefined,
    login_hint: spec.loginHint,
    // Apple posts its answer when asked for the address or name (it refuses a query answer for those scopes).
    response_mode: provider.kind === 'APPLE' ? 'form_post' : undefined,
  };
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** What a provider proved of its user. */
export interface ProvenAccount {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

/** Apple's client secret: a JWT signed with the merchant's key, good for five minutes (Apple allows six months). */
export async function appleClientSecret(
  provider: StoredSignInProvider,
  privateKeyPem: string,
  now: Date,
): Promise<string> {
  if (!provider.apple) throw new Error('an Apple provider without its key');
  const key = await importPKCS8(privateKeyPem, 'ES256');
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: provider.apple.keyId })
    .setIssuer(provider.apple.teamId)
    .setSubject(provider.clientId)
    .setAudience('https://appleid.apple.com')
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 300)
    .sign(key);
}

async function clientAuthentication(
  deps: Deps,
  provider: StoredSignInProvider,
  secret: string,
): Promise<oauth.ClientAuth> {
  if (provider.kind === 'APPLE')
    return oauth.ClientSecretPost(await appleClientSecret(provider, secret, deps.clock.now()));
  // GitHub reads its client's credentials from the form.
  if (provider.kind === 'GITHUB') return oauth.ClientSecretPost(secret);
  return oauth.ClientSecretBasic(secret);
}

/** Key sets per URL, kept while the process lives (oauth4webapi refreshes one that lacks a token's key). */
const keySets = new Map<string, oauth.JWKSCacheInput>();

function keySetCache(jwksUri: string): oauth.JWKSCacheInput {
  let cache = keySets.get(jwksUri);
  if (!cache) {
    cache = {} as oauth.JWKSCacheInput;
    keySets.set(jwksUri, cache);
  }
  return cache;
}

/** Apple's first answer carries the user's name, once, in a `user` field of its own form (never in the ID token). */
function appleName(callback: URLSearchParams): { firstName: string | null; lastName: string | null } {
  try {
    const user = JSON.parse(callback.get('user') ?? 'null') as { name?: { firstName?: unknown; lastName?: unknown } };
    const name = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 100) : null);
    return { firstName: name(user?.name?.firstName), lastName: name(user?.name?.lastName) };
  } catch {
    return { firstName: null, lastName: null };
  }
}

const claimText = (value: unknown, max = 100): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;

/**
 * The callback's parameters checked against the flow that sent the browser (state; `iss` where the provider names
 * itself, RFC 9207), the code exchanged with our PKCE verifier, and the account proven: the ID token's claims for an
 * OpenID provider (its signature checked against the provider's keys, never `none`), GitHub's user and its verified
 * primary address for GitHub. Any failure throws UpstreamRefusal (or the provider's own error).
 */
export async function proveAccount(
  deps: Deps,
  provider: StoredSignInProvider,
  secret: string,
  callback: URLSearchParams,
  flow: { state: string; nonce: string; pkceVerifier: string; redirectUri: string },
): Promise<ProvenAccount> {
  const as = authorizationServer(provider);
  const client: oauth.Client = {
    client_id: provider.clientId,
    [oauth.clockTolerance]: CLOCK_TOLERANCE_S,
  };
  const options = requestOptions(deps.config);
  const params = oauth.validateAuthResponse(as, client, callback, flow.state);
  const auth = await clientAuthentication(deps, provider, secret);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    auth,
    params,
    flow.redirectUri,
    flow.pkceVerifier,
    options,
  );
  if (!KINDS[provider.kind].openid) return githubAccount(deps, provider, as, client, response);

  // Entra ID's multi-tenant issuer is the user's directory's: the one the token's `tid` names, then checked like any.
  if (as.issuer.includes(TENANT_PLACEHOLDER)) Object.assign(as, { issuer: await directoryIssuer(as.issuer, response) });
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: flow.nonce,
    requireIdToken: true,
  });
  // oauth4webapi checks the claims; the signature is checked here against the provider's key set (a token from the
  // token endpoint over TLS could go without, but a stolen code must not be redeemable for a forged token).
  await oauth.validateApplicationLevelSignature(as, response, {
    ...options,
    [oauth.jwksCache]: keySetCache(as.jwks_uri ?? ''),
  });
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims) throw new UpstreamRefusal('no ID token');
  const email = claimText(claims.email, 256)?.toLowerCase() ?? null;
  const names =
    provider.kind === 'APPLE'
      ? appleName(callback)
      : { firstName: claimText(claims.given_name), lastName: claimText(claims.family_name) };
  return {
    subject: claims.sub,
    email,
    emailVerified: email !== null && emailVerifiedIn(provider.kind, claims),
    ...names,
  };
}

/** The templated issuer with the directory of the ID token in `response` (read from a copy; checked afterwards). */
export async function directoryIssuer(template: string, response: Response): Promise<string> {
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { id_token?: unknown };
  const payload = typeof body.id_token === 'string' ? body.id_token.split('.')[1] : undefined;
  let tid: unknown;
  try {
    tid = payload
      ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { tid?: unknown }).tid
      : undefined;
  } catch {
    tid = undefined;
  }
  if (typeof tid !== 'string' || !/^[0-9a-f-]{36}$/.test(tid))
    throw new UpstreamRefusal('an Entra ID token without tid');
  return template.replace(TENANT_PLACEHOLDER, tid);
}

interface GithubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

/** GitHub: the token, then its user (the id is the subject) and its addresses (the primary one, if verified). */
async function githubAccount(
  deps: Deps,
  provider: StoredSignInProvider,
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  response: Response,
): Promise<ProvenAccount> {
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  const api = provider.endpoints.userinfoEndpoint ?? 'https://api.github.com';
  const read = async (path: string) => {
    const answer = await oauth.protectedResourceRequest(
      tokens.access_token,
      'GET',
      new URL(`${api}${path}`),
      new Headers({ accept: 'application/vnd.github+json', 'user-agent': 'identity-service' }),
      null,
      requestOptions(deps.config),
    );
    if (answer.status !== 200) throw new UpstreamRefusal(`GitHub ${path} answered ${answer.status}`);
    return answer.json() as Promise<unknown>;
  };
  const [user, emails] = (await Promise.all([read('/user'), read('/user/emails')])) as [
    { id?: unknown; name?: unknown },
    GithubEmail[],
  ];
  if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new UpstreamRefusal('GitHub user without id');
  const primary = Array.isArray(emails) ? emails.find((entry) => entry.primary === true) : undefined;
  const email = claimText(primary?.email, 256)?.toLowerCase() ?? null;
  const [firstName, ...rest] = (claimText(user.name) ?? '').split(/\s+/).filter(Boolean);
  return {
    subject: String(user.id),
    email,
    emailVerified: email !== null && primary?.verified === true,
    firstName: firstName ?? null,
    lastName: rest.length > 0 ? rest.join(' ') : null,
  };
}
