import { createPrivateKey } from 'node:crypto';
import * as v from 'valibot';
import { ChallengeResponse, TokensResponse } from '../auth/schemas.ts';
import { PROVIDER_KINDS } from '../tenancy/schemas.ts';
import { Email } from '../users/schemas.ts';

/**
 * Sign-in providers of a tenant (README.md of this folder): the upstream identity providers its users may sign in
 * with. One field at a time here; the rules between fields (which kind needs what) in ./admin.ts.
 */

export { PROVIDER_KINDS, type ProviderKind, SignInProviderButton } from '../tenancy/schemas.ts';

/** At most this many providers per tenant: a sign-in page shows them all as buttons. */
export const MAX_PROVIDERS_PER_TENANT = 10;

const Text = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'is required'),
    v.maxLength(max, `must be at most ${max} characters`),
    v.regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'),
  );

/** A scope token (RFC 6749 3.3): printable ASCII but space, `"` and `\`. */
const Scope = v.pipe(
  v.string('must be a string'),
  v.regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/, 'must be a scope token'),
);
const Scopes = v.pipe(v.array(Scope), v.maxLength(20, 'must list at most 20 scopes'));

/** Apple's ten-character team and key identifiers. */
const AppleId = v.pipe(v.string('must be a string'), v.regex(/^[A-Z0-9]{10}$/, 'must be 10 capital letters or digits'));

/** Apple's keys sign ES256: a P-256 key, which Node reads from the .p8 file's PKCS #8 PEM. */
function isAppleKey(pem: string): boolean {
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/** Apple's "Sign in with Apple" key: its .p8 file, from which each client secret is signed. */
export const AppleKey = v.strictObject({
  teamId: AppleId,
  keyId: AppleId,
  privateKey: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.maxLength(4096, 'must be at most 4096 characters'),
    v.check(isAppleKey, 'must be the .p8 key (PEM)'),
  ),
});
export type AppleKey = v.InferOutput<typeof AppleKey>;

/** An issuer: an absolute URL without query or fragment (OpenID Connect Discovery 1.0, 2). */
const IssuerUrl = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(512, 'must be at most 512 characters'),
  v.url('must be an absolute URL'),
  v.check((value) => !/[?#]/.test(value), 'must not have a query or fragment'),
);

/** Entra ID's directory: `common`, `organizations`, `consumers`, or one directory's id or domain. */
const MicrosoftTenant = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.regex(/^[A-Za-z0-9.-]{1,128}$/, 'must be common, organizations, consumers, a directory id or a domain'),
);

const ClientId = Text(256);
const ClientSecret = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'is required'),
  v.maxLength(1024, 'must be at most 1024 characters'),
);
const Order = v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(0), v.maxValue(99));

/** POST /sign-in-providers. */
export const CreateSignInProviderRequest = v.strictObject({
  kind: v.picklist(PROVIDER_KINDS, `must be one of ${PROVIDER_KINDS.join(', ')}`),
  /** The button's "Sign in with …" name; the kind's own name unless given (required for OIDC). */
  displayName: v.optional(Text(40)),
  clientId: ClientId,
  /** Every kind but APPLE, whose secret is signed from `apple`. */
  clientSecret: v.optional(ClientSecret),
  apple: v.optional(AppleKey),
  /** OIDC only: the provider's issuer, whose discovery document is read when saved. */
  issuer: v.optional(IssuerUrl),
  /** MICROSOFT only: `common` unless given. */
  microsoftTenant: v.optional(MicrosoftTenant),
  /** The kind's own unless given; `openid` is always asked of OpenID providers. */
  scopes: v.optional(Scopes),
  enabled: v.optional(v.boolean('must be true or false')),
  /**
   * An address this provider says is verified may sign in to the account that has it, and link itself, without the
   * user first signing in another way. Off unless set; never honoured for an address the provider does not call verified.
   */
  trustEmail: v.optional(v.boolean('must be true or false')),
  /** Where the button stands among the others (lowest first); after the last unless given. */
  order: v.optional(Order),
});
export type CreateSignInProviderRequest = v.InferOutput<typeof CreateSignInProviderRequest>;

/** PATCH /sign-in-providers/{providerId}: what changes; the kind never does. A secret given replaces the stored one. */
export const UpdateSignInProviderRequest = v.strictObject({
  displayName: v.optional(Text(40)),
  clientId: v.optional(ClientId),
  clientSecret: v.optional(ClientSecret),
  apple: v.optional(AppleKey),
  issuer: v.optional(IssuerUrl),
  microsoftTenant: v.optional(MicrosoftTenant),
  scopes: v.optional(Scopes),
  enabled: v.optional(v.boolean('must be true or false')),
  trustEmail: v.optional(v.boolean('must be true or false')),
  order: v.optional(Order),
});
export type UpdateSignInProviderRequest = v.InferOutput<typeof UpdateSignInProviderRequest>;

export const ProviderIdParams = v.object({ providerId: v.pipe(v.string(), v.maxLength(64)) });

/** Apple's team and key ids, as a provider shows them (never the key). */
export const AppleKeyInfo = v.object({ teamId: v.string(), keyId: v.string() });

/** A provider as admins see it: never its secret or key, only when it was last set. */
export const SignInProviderResponse = v.object({
  id: v.string(),
  kind: v.picklist(PROVIDER_KINDS),
  displayName: v.string(),
  clientId: v.string(),
  /** The upstream issuer (GitHub: its OAuth 2 host). */
  issuer: v.string(),
  microsoftTenant: v.nullable(v.string()),
  scopes: v.array(v.string()),
  enabled: v.boolean(),
  trustEmail: v.boolean(),
  order: v.number(),
  /** The redirect URI to register at the provider: the tenant's callback on its hosted origin. */
  redirectUri: v.string(),
  apple: v.nullable(AppleKeyInfo),
  secretSetAt: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type SignInProviderResponse = v.InferOutput<typeof SignInProviderResponse>;

/** A PKCE S256 challenge (RFC 7636 4.2) of a verifier the starting page keeps. */
const CodeChallenge = v.pipe(
  v.string('must be a string'),
  v.regex(/^[A-Za-z0-9_-]{43}$/, 'must be a PKCE S256 challenge'),
);
const CodeVerifier = v.pipe(
  v.string('must be a string'),
  v.regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be a PKCE code verifier'),
);
const ReturnTo = v.pipe(
  v.string('must be a string'),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be an absolute URL'),
);

/** POST /auth/providers/{providerId}/start. */
export const StartProviderSignInRequest = v.strictObject({
  /** The page the browser comes back to: on the tenant's hosted origin or one of its allowed origins. */
  returnTo: ReturnTo,
  /** Binds the result to the page that started: only its verifier takes the result. */
  codeChallenge: CodeChallenge,
  /** Passed to the provider as `login_hint`. */
  loginHint: v.optional(Email),
});

/** POST /users/me/identities/start. */
export const StartIdentityLinkRequest = v.strictObject({
  providerId: v.pipe(v.string('must be a string'), v.maxLength(64)),
  returnTo: ReturnTo,
  codeChallenge: CodeChallenge,
});

export const AuthorizationUrlResponse = v.object({ authorizationUrl: v.string() });

/** POST /auth/providers/sign-in and POST /users/me/identities: the result the callback gave the page, and its verifier. */
export const ProviderResultRequest = v.strictObject({
  result: v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be a provider result')),
  codeVerifier: CodeVerifier,
});
export type ProviderResultRequest = v.InferOutput<typeof ProviderResultRequest>;

/** POST /auth/reauthenticate/provider: a sign-in at a linked provider, and the TOTP code when TOTP is on. */
export const ProviderReauthRequest = v.strictObject({
  result: ProviderResultRequest.entries.result,
  codeVerifier: ProviderResultRequest.entries.codeVerifier,
  /** A TOTP code or a backup code; required while TOTP is on. */
  totpCode: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(32))),
});

/**
 * The provider's address has an account here that is not linked to it: the user signs in to that account another way,
 * then links it (POST /users/me/identities with the same result, while it lasts).
 */
export const LinkRequiredResponse = v.object({
  linkRequired: v.literal(true),
  email: v.string(),
  providerName: v.string(),
  /** Until then the result links. */
  expiresAt: v.string(),
});

export const ProviderSignInResponse = v.object({
  success: v.literal(true),
  data: v.union([TokensResponse, ChallengeResponse, LinkRequiredResponse]),
});

/** A provider account linked to the user: one per provider. */
export const IdentityResponse = v.object({
  providerId: v.string(),
  kind: v.picklist(PROVIDER_KINDS),
  /** The provider's name now; null once an admin deleted the provider (the link then signs in no more). */
  displayName: v.nullable(v.string()),
  /** The address the provider gave when it was linked or last used. */
  email: v.nullable(v.string()),
  linkedAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
});
export type IdentityResponse = v.InferOutput<typeof IdentityResponse>;
