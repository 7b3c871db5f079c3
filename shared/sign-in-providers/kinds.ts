import type { Config } from '../deps.ts';
import type { ProviderKind } from './schemas.ts';

/** What each kind of provider is, where it is not the admin's to say. */
interface KindPreset {
  /** The button's name unless the admin gives another (OIDC: none, the admin must). */
  displayName: string | null;
  scopes: string[];
  /** OpenID Connect (an ID token), or GitHub's plain OAuth 2 (its user API). */
  openid: boolean;
}

export const KINDS: Record<ProviderKind, KindPreset> = {
  GOOGLE: { displayName: 'Google', scopes: ['openid', 'email', 'profile'], openid: true },
  // Apple gives the address and name only when asked for `email` and `name`, and then posts its answer (form_post).
  APPLE: { displayName: 'Apple', scopes: ['openid', 'email', 'name'], openid: true },
  MICROSOFT: { displayName: 'Microsoft', scopes: ['openid', 'email', 'profile'], openid: true },
  GITHUB: { displayName: 'GitHub', scopes: ['read:user', 'user:email'], openid: false },
  OIDC: { displayName: null, scopes: ['openid', 'email', 'profile'], openid: true },
};

/** The fake providers of local runs (LOCAL_SIGN_IN_PROVIDERS), parsed once per value. */
interface LocalProviders {
  endpoints: Partial<Record<ProviderKind, string>>;
}

let parsedLocal: { raw: string; value: LocalProviders } | undefined;

function localProviders(config: Pick<Config, 'localSignInProviders'>): LocalProviders | null {
  const raw = config.localSignInProviders;
  if (!raw) return null;
  if (parsedLocal?.raw !== raw) parsedLocal = { raw, value: { endpoints: JSON.parse(raw) } };
  return parsedLocal.value;
}

/** Plain-http providers on loopback are reachable only in local runs (the tests' and the demo's fakes). */
export function loopbackAllowed(config: Pick<Config, 'localSignInProviders'>): boolean {
  return localProviders(config) !== null;
}

/**
 * The issuer a provider of this kind has: the kind's own (Entra ID's for the directory chosen), or for OIDC the
 * admin's. In local runs a fake named in LOCAL_SIGN_IN_PROVIDERS stands in for a kind's real one.
 */
export function issuerFor(
  config: Pick<Config, 'localSignInProviders'>,
  kind: ProviderKind,
  spec: { issuer?: string | undefined; microsoftTenant?: string | null | undefined },
): string {
  const local = localProviders(config)?.endpoints[kind];
  if (local && kind !== 'OIDC') return local;
  switch (kind) {
    case 'GOOGLE':
      return 'https://accounts.google.com';
    case 'APPLE':
      return 'https://appleid.apple.com';
    case 'MICROSOFT':
      return `https://login.microsoftonline.com/${spec.microsoftTenant ?? 'common'}/v2.0`;
    case 'GITHUB':
      return 'https://github.com';
    case 'OIDC':
      if (!spec.issuer) throw new Error('an OIDC provider needs its issuer');
      return spec.issuer;
  }
}

/** GitHub's endpoints: its OAuth 2 host and its API (a local fake, like GitHub Enterprise, serves both at its one host). */
export function githubEndpoints(issuer: string): { authorization: string; token: string; api: string } {
  const base = issuer.replace(/\/$/, '');
  // GitHub Enterprise Server's layout: its API under /api/v3 of its own host.
  const api = base === 'https://github.com' ? 'https://api.github.com' : `${base}/api/v3`;
  return { authorization: `${base}/login/oauth/authorize`, token: `${base}/login/oauth/access_token`, api };
}

const isTrue = (value: unknown) => value === true || value === 'true';

/**
 * Whether an OpenID provider's claims call the address verified, as each kind says so: `email_verified` (Apple sends
 * it as a string), and for Entra ID, whose `email` is whatever a directory admin typed, only `xms_edov` (the
 * address's domain is verified as the directory's: an optional claim the app registration must ask for).
 */
export function emailVerifiedIn(kind: ProviderKind, claims: Record<string, unknown>): boolean {
  if (kind === 'MICROSOFT') return isTrue(claims.xms_edov);
  return isTrue(claims.email_verified);
}
