import * as v from 'valibot';

/**
 * OpenID Connect clients of a tenant, as registered. The rules every client obeys,
 * whatever asks: one field at a time here,
 * the rules between fields (type, grant types, redirect URIs) in ./clients.ts.
 */

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];
export const CLIENT_TYPES = ['public', 'confidential'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];
/**
 * ES256 by default (small keys and signatures). RS256 on request: API Gateway
 * HTTP API JWT authorizers verify RSA signatures only, so a client whose ID
 * tokens such an authorizer checks asks for RS256.
 */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;

export const DEFAULT_GRANT_TYPES: GrantType[] = ['authorization_code', 'refresh_token'];
export const DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS = 900;
export const DEFAULT_REFRESH_TOKEN_LIFETIME_SECONDS = 604_800;

/** Hosts a plain-http redirect may name: the machine itself (RFC 8252, loopback redirects). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A private-use scheme of a native app: reverse domain notation, hence at least one dot (RFC 8252, 7.1). */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/;

/** What a redirect URI is: `https`, loopback `http`, or a native app's private-use scheme. */
export type RedirectUriKind = 'https' | 'loopback' | 'private-use';

/**
 * Why `value` cannot be a redirect URI, or its kind. Redirect URIs are
 * compared exactly, so they are absolute, carry no fragment (RFC 6749, 3.1.2),
 * no wildcard and no user information.
 */
export function redirectUriKind(value: string): RedirectUriKind | { problem: string } {
  if (value.includes('#')) return { problem: 'must not have a fragment' };
  if (value.includes('*')) return { problem: 'must be an exact URL, without wildcards' };
  if (/\s/.test(value)) return { problem: 'must not contain spaces' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'must be an absolute URL' };
  }
  if (url.username !== '' || url.password !== '') return { problem: 'must not carry user information' };
  // Stored and compared as browsers serialize it: a text that reads otherwise (`https:host`, backslashes, an
  // upper-case host, a missing `/`) would be compared as one URL and followed as another.
  if (url.href !== value) return { problem: `must be written in its standard form: ${url.href}` };
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname === '' ? { problem: 'must name a host' } : 'https';
  if (scheme === 'http') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? 'loopback'
      : { problem: 'must use https (http only for localhost, 127.0.0.1 or [::1])' };
  }
  if (PRIVATE_USE_SCHEME.test(scheme)) return 'private-use';
  return { problem: 'must use https, loopback http, or a native app scheme with a dot (com.example.app:/callback)' };
}

/** Loopback IP literals, whose redirect URIs match on any port (RFC 8252, 7.3): native apps and CLIs take a free one. */
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);

function parsed(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const isLoopbackIp = (url: URL) => url.protocol === 'http:' && LOOPBACK_IPS.has(url.hostname);
const withoutPort = (url: URL) => `${url.protocol}//${url.hostname}${url.pathname}${url.search}`;

/**
 * The redirect URI a request's `given` one names among a client's `registered` ones, compared in their
 * serialized forms (WHATWG URL), or undefined. The answer is where to redirect: the registered URI, or for a
 * registered loopback IP URI the given one, whose port may differ (RFC 8252, 7.3; `localhost` is compared whole).
 */
export function matchRedirectUri(registered: readonly string[], given: string): string | undefined {
  const wanted = given.includes('#') ? null : parsed(given);
  if (!wanted) return undefined;
  for (const uri of registered) {
    const stored = parsed(uri);
    if (!stored) continue;
    if (stored.href === wanted.href) return uri;
    if (isLoopbackIp(stored) && isLoopbackIp(wanted) && withoutPort(stored) === withoutPort(wanted)) {
      return wanted.href;
    }
  }
  return undefined;
}

/** Whether two redirect URIs are the same once serialized (the token request's and the authorization request's). */
export function sameRedirectUri(a: string, b: string): boolean {
  const [x, y] = [parsed(a), parsed(b)];
  return x !== null && y !== null && x.href === y.href;
}

export const RedirectUri = v.pipe(
  v.string('must be a string'),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.check(
    (value) => typeof redirectUriKind(value) === 'string',
    (issue) => {
      const kind = redirectUriKind(String(issue.input));
      return typeof kind === 'string' ? 'is not a redirect URI' : kind.problem;
    },
  ),
);

const unique = <T>(values: T[]) => new Set(values).size === values.length;

export const RedirectUris = v.pipe(
  v.array(RedirectUri, 'must be an array of URLs'),
  v.minLength(1, 'at least one redirect URI'),
  v.maxLength(10, 'at most 10 redirect URIs'),
  v.check(unique, 'must not repeat a URI'),
);
export const PostLogoutRedirectUris = v.pipe(
  v.array(RedirectUri, 'must be an array of URLs'),
  v.maxLength(10, 'at most 10 post-logout redirect URIs'),
  v.check(unique, 'must not repeat a URI'),
);
export const GrantTypes = v.pipe(
  v.array(v.picklist(GRANT_TYPES, `must be one of ${GRANT_TYPES.join(', ')}`), 'must be an array of grant types'),
  v.minLength(1, 'at least one grant type'),
  v.check(unique, 'must not repeat a grant type'),
);
const ClientName = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'is required'),
  v.maxLength(128, 'must be at most 128 characters'),
);
const lifetime = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number of seconds'),
    v.integer('must be a whole number of seconds'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );
const AccessTokenLifetime = lifetime(60, 3600);
const RefreshTokenLifetime = lifetime(3600, 2_592_000);
const SigningAlg = v.pipe(
  v.picklist(SIGNING_ALGS, 'must be ES256 or RS256'),
  v.description(
    'How ID tokens are signed: ES256 by default; RS256 where an API Gateway HTTP API JWT authorizer checks them (it accepts RSA only)',
  ),
);
const FirstParty = v.boolean('must be true or false');

/** POST /oidc/clients. Omitted: grant types authorization_code + refresh_token, not first party, 900 s, 604800 s, ES256. */
export const CreateOidcClientRequest = v.strictObject({
  name: ClientName,
  type: v.picklist(CLIENT_TYPES, 'must be public or confidential'),
  redirectUris: RedirectUris,
  postLogoutRedirectUris: v.optional(PostLogoutRedirectUris),
  grantTypes: v.optional(GrantTypes),
  firstParty: v.optional(FirstParty),
  accessTokenLifetimeSeconds: v.optional(AccessTokenLifetime),
  refreshTokenLifetimeSeconds: v.optional(RefreshTokenLifetime),
  idTokenSigningAlg: v.optional(SigningAlg),
});
export type CreateOidcClientRequest = v.InferOutput<typeof CreateOidcClientRequest>;

/** PATCH /oidc/clients/{clientId}: any field but `type` (and the id), under the same rules. */
export const UpdateOidcClientRequest = v.strictObject({
  name: v.optional(ClientName),
  redirectUris: v.optional(RedirectUris),
  postLogoutRedirectUris: v.optional(PostLogoutRedirectUris),
  grantTypes: v.optional(GrantTypes),
  firstParty: v.optional(FirstParty),
  accessTokenLifetimeSeconds: v.optional(AccessTokenLifetime),
  refreshTokenLifetimeSeconds: v.optional(RefreshTokenLifetime),
  idTokenSigningAlg: v.optional(SigningAlg),
});
export type UpdateOidcClientRequest = v.InferOutput<typeof UpdateOidcClientRequest>;

/** Any string: an id that names no client of the caller's tenant is 404, never a validation error. */
export const OidcClientIdParams = v.object({ clientId: v.string() });

/** OidcClient: never its secret or the secret's hash. */
export const OidcClientResponse = v.object({
  clientId: v.string(),
  name: v.string(),
  type: v.picklist(CLIENT_TYPES),
  redirectUris: v.array(v.string()),
  postLogoutRedirectUris: v.array(v.string()),
  grantTypes: v.array(v.picklist(GRANT_TYPES)),
  firstParty: v.boolean(),
  accessTokenLifetimeSeconds: v.pipe(v.number(), v.integer()),
  refreshTokenLifetimeSeconds: v.pipe(v.number(), v.integer()),
  idTokenSigningAlg: v.picklist(SIGNING_ALGS),
  createdAt: v.string(),
  updatedAt: v.string(),
  /** When the current secret was made; null for a public client. */
  secretCreatedAt: v.nullable(v.string()),
  /** The user id of the admin who registered it. */
  createdBy: v.string(),
});
export type OidcClientResponse = v.InferOutput<typeof OidcClientResponse>;

/**
 * The client as created, or after its secret was rotated: `clientSecret` is
 * shown in this answer only (`cs_` + 43 base64url characters, 256 bits); null
 * for a public client, which has none.
 */
export const OidcClientWithSecretResponse = v.object({
  ...OidcClientResponse.entries,
  clientSecret: v.nullable(v.string()),
});
export type OidcClientWithSecretResponse = v.InferOutput<typeof OidcClientWithSecretResponse>;
