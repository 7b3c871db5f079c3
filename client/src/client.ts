import { type CookieStore, defaultCookieStore } from './cookies.js';
import { ApiError, CLIENT_ERROR_CODES, errorFromAnswer } from './errors.js';
import {
  after,
  cancelCeremony,
  createCredential,
  getAssertion,
  type PasskeySupport,
  passkeySupport,
  requireWebAuthn,
} from './passkeys.js';
import {
  browserLocation,
  dropPendingLink,
  dropPendingReauthentication,
  dropVerifier,
  keepPendingLink,
  keepPendingReauthentication,
  keepVerifier,
  linkMayRetry,
  pendingLink,
  pendingReauthentication,
  pkcePair,
  readProviderReturn,
  reauthenticationMayRetry,
  reauthenticationReturn,
  resultLapse,
} from './providers.js';
import type {
  ActivityPage,
  AdminUser,
  ApiKey,
  AssignRoleRequest,
  AuthorizationCancelError,
  AuthorizationRedirect,
  AuthorizationRequest,
  ChallengeIdResponse,
  ChangePasswordRequest,
  CodeVerifyRequest,
  CompleteAuthorizationRequest,
  CreateOidcClientRequest,
  CreateRoleRequest,
  CreateSignInProviderRequest,
  CreateWebhookEndpointRequest,
  Device,
  EmailChangeVerifyResponse,
  GeneratedApiKey,
  Identity,
  Invitation,
  InviteUserRequest,
  InviteUserResponse,
  LoginChallenge,
  LoginRequest,
  LoginResult,
  LoginSuccess,
  LogoutRedirect,
  Merchant,
  OidcClient,
  OidcClientWithSecret,
  Passkey,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  ProviderLinkRequired,
  ProviderSignInResult,
  ReauthenticateCodeRequest,
  ReauthenticateProof,
  ResendInvitationResponse,
  ResetPasswordRequest,
  RevokeRoleRequest,
  Role,
  Session,
  SettableUserStatus,
  SignInProvider,
  SignupRequest,
  TenantConfig,
  TokensResponse,
  TotpSetupResponse,
  UpdateMerchantRequest,
  UpdateOidcClientRequest,
  UpdateSignInProviderRequest,
  UpdateUserRequest,
  UpdateWebhookEndpointRequest,
  User,
  WebhookAttemptPage,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookQueued,
} from './types.js';

/** What the client hands to `fetch`: a subset of RequestInit. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the client reads of an answer: a subset of Response. */
export interface FetchResponse {
  readonly status: number;
  /** Read for `Retry-After` (ApiError.retryAfter) when present. */
  readonly headers?: { get(name: string): string | null };
  text(): Promise<string>;
}

/** `globalThis.fetch` fits; so does any function of this shape (a wrapper that adds headers, a test fake). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface IdentityClientOptions {
  /** The identity base URL, with `/api/v1`, e.g. `https://id.example.com/api/v1`. */
  baseUrl: string;
  /** Defaults to `globalThis.fetch`. Called as a plain function, never as a method. */
  fetch?: FetchLike;
  /** Where the refresh token is kept. Defaults to `document.cookie` in browsers, memory elsewhere. */
  cookies?: CookieStore;
  /** Called once each time a session ends because its refresh token was refused; same as `onSessionExpired(fn)`. */
  onSessionExpired?: () => void;
  /** The clock (for tests); defaults to the system's. */
  now?: () => Date;
}

/** The cookie that keeps the refresh token. */
export const REFRESH_COOKIE = 'svc_rt';
/** The Web Locks name that serialises refreshes across the tabs of one origin (they share the cookie). */
const REFRESH_LOCK = 'identity-client:svc_rt:refresh';

/** Refreshes tried again with a token another tab stored meanwhile, before the refusal is final. */
const MAX_ROTATED_ELSEWHERE_RETRIES = 2;

/** The part of the Web Locks API the client uses (`navigator.locks`). */
interface WebLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** A refresh token lives 7 days from login, whatever the refreshes (the service's REFRESH_TOKEN_TTL_MS). */
export const REFRESH_TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface MeApi {
  get(): Promise<User>;
  update(body: UpdateUserRequest): Promise<User>;
  changePassword(body: ChangePasswordRequest): Promise<void>;
  startEmailChange(body: { newEmail: string }): Promise<ChallengeIdResponse>;
  verifyEmailChange(body: CodeVerifyRequest): Promise<EmailChangeVerifyResponse>;
  totp: {
    init(): Promise<TotpSetupResponse>;
    verify(body: { code: string }): Promise<void>;
    disable(body: { code: string }): Promise<void>;
  };
  sessions: {
    list(): Promise<Session[]>;
    revoke(sessionId: string): Promise<void>;
    /** Ends every session of the user, this one too (local tokens are cleared as well). */
    revokeAll(): Promise<void>;
  };
  /** The caller's own activity, newest first; pass the answer's `nextCursor` for the next page (null: no more). */
  activity(page?: { limit?: number; cursor?: string | null }): Promise<ActivityPage>;
  identities: IdentitiesApi;
}

/**
 * The provider accounts linked to the signed-in user (`client.me.identities`). Linking and unlinking need a sign-in
 * within 10 minutes (403 REAUTHENTICATION_REQUIRED: `reauthenticate()` or `reauthenticateWithPasskey()`, then again).
 */
export interface IdentitiesApi {
  /** Oldest first. */
  list(): Promise<Identity[]>;
  /**
   * Begins linking a provider (`POST /users/me/identities/start`, with a PKCE challenge whose verifier this tab
   * keeps), then leaves for the provider (`location.assign`). It comes back to `returnTo` (default: this page) with
   * the result for `completeLink()`. Rejects PROVIDER_ALREADY_LINKED, NOT_FOUND (a provider the tenant has not on).
   */
  link(providerId: string, options?: { returnTo?: string }): Promise<void>;
  /**
   * Back from the provider: links what it proved (`POST /users/me/identities`) and answers the new link; null when
   * `url` (default: this page's) carries no result. The address bar loses the provider's parameters either way.
   * Rejects PROVIDER_SIGN_IN_CANCELLED, PROVIDER_SIGN_IN_FAILED, PROVIDER_ALREADY_LINKED (that provider account is
   * another user's), REAUTHENTICATION_REQUIRED (the result is then kept: `reauthenticate()`, then `linkPending()`).
   */
  completeLink(url?: string): Promise<Identity | null>;
  /**
   * After `completeProviderSignIn()` answered `linkRequired` and the user then signed in to that account another
   * way (or `completeLink()` was refused REAUTHENTICATION_REQUIRED and the user has since confirmed it is them):
   * links the provider with the result kept in this tab (`POST /users/me/identities`). Null when nothing is
   * kept (or it expired). Rejects PROVIDER_SIGN_IN_FAILED when the account signed in to is not the provider's address.
   */
  linkPending(): Promise<Identity | null>;
  /** Unlinks; 409 LAST_SIGN_IN_METHOD when it is the only way left to sign in. */
  unlink(providerId: string): Promise<void>;
}

/**
 * The signed-in user's passkeys (`client.passkeys`). Adding, renaming and removing one needs a sign-in within 10
 * minutes (403 REAUTHENTICATION_REQUIRED: `reauthenticate()` or `reauthenticateWithPasskey()`, then again).
 */
export interface PasskeysApi {
  /**
   * Makes a passkey on this device for the signed-in user and stores it: the browser asks the person to confirm
   * (fingerprint, face, PIN). `name` defaults to the passkey provider's or the browser's. Rejects PASSKEY_CANCELLED
   * when the prompt is closed, PASSKEY_ALREADY_ON_DEVICE when this authenticator holds one of the account already.
   */
  register(body?: { name?: string }): Promise<Passkey>;
  list(): Promise<Passkey[]>;
  rename(id: string, name: string): Promise<Passkey>;
  /** The passkey no longer signs in, at once. */
  remove(id: string): Promise<void>;
}

export interface AdminUsersApi {
  list(): Promise<User[]>;
  /** The user, with the suppression of mail to their address (`mailSuppression`, null when mail flows). */
  get(id: string): Promise<AdminUser>;
  delete(id: string): Promise<void>;
  setStatus(id: string, status: SettableUserStatus): Promise<User>;
  invite(body: InviteUserRequest): Promise<InviteUserResponse>;
  /**
   * Sends an INVITED user their invitation again (`POST /users/{id}/invitation`): a new link, good for 7 days; the
   * earlier link stops working. 409 CONFLICT once the user is not INVITED; 503 UNAVAILABLE when the mail cannot
   * go (mail to the address suppressed, a mail limit reached: one a minute, five an hour), with `Retry-After`.
   */
  resendInvitation(id: string): Promise<ResendInvitationResponse>;
  /**
   * Mails an ACTIVE or COMPROMISED user a password reset code (`POST /users/{id}/password-reset`), with a link
   * that works in any browser. Nothing changes until they choose a new password. 409 CONFLICT for other
   * statuses; 503 UNAVAILABLE as `resendInvitation`.
   */
  sendPasswordReset(id: string): Promise<void>;
  resetTotp(id: string): Promise<void>;
  /** Lets mail reach the user's address again after a hard bounce or a complaint (`DELETE /users/{id}/mail-suppression`). */
  clearMailSuppression(id: string): Promise<void>;
  devices(id: string): Promise<Device[]>;
  activity(id: string, page?: { limit?: number; cursor?: string | null }): Promise<ActivityPage>;
  /** The user's passkeys (`GET /users/{id}/passkeys`). */
  passkeys(id: string): Promise<Passkey[]>;
  /** Removes a user's passkey (a lost device); a session of a recent sign-in, or an API key. */
  removePasskey(id: string, passkeyId: string): Promise<void>;
  /** The provider accounts linked to a user (`GET /users/{id}/identities`). */
  identities(id: string): Promise<Identity[]>;
}

/**
 * The tenant's sign-in providers (Google, Apple, Microsoft, GitHub, any OpenID provider): a signed-in admin only, no
 * API key; create, update and remove need a sign-in within 10 minutes. Secrets are written, never read back.
 */
export interface AdminSignInProvidersApi {
  /** In button order. */
  list(): Promise<SignInProvider[]>;
  get(providerId: string): Promise<SignInProvider>;
  /** Reads the provider's discovery document first: 400 PROVIDER_DISCOVERY_FAILED; 409 PROVIDER_LIMIT_REACHED. */
  create(body: CreateSignInProviderRequest): Promise<SignInProvider>;
  update(providerId: string, body: UpdateSignInProviderRequest): Promise<SignInProvider>;
  /** Its button goes, and the accounts linked to it sign in with it no more. */
  remove(providerId: string): Promise<void>;
}

/**
 * The tenant's webhook endpoints: where the service POSTs its events (users, sessions, invitations), signed with the
 * endpoint's secret (Standard Webhooks). A signed-in admin only: an API key is refused 403 FORBIDDEN. `create`,
 * `update`, `delete` and `rotateSecret` need a sign-in within 10 minutes (403 REAUTHENTICATION_REQUIRED:
 * `reauthenticate()`, then the same call again). A change made meanwhile by another admin answers 409 CONFLICT.
 */
export interface AdminWebhooksApi {
  list(): Promise<WebhookEndpoint[]>;
  get(endpointId: string): Promise<WebhookEndpoint>;
  /**
   * The endpoint with its signing `secret` (`whsec_…`), in this answer only. Rejects 400 WEBHOOK_URL_NOT_ALLOWED (its
   * field error at `url`: not https, a user name or password in it, or not a public host) and 409
   * WEBHOOK_LIMIT_REACHED (20 endpoints).
   */
  create(body: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecret>;
  /** Only what is given changes; `{ enabled: true }` turns on again an endpoint the service turned off. */
  update(endpointId: string, body: UpdateWebhookEndpointRequest): Promise<WebhookEndpoint>;
  /** Nothing more is sent to it, retries waiting included. */
  delete(endpointId: string): Promise<void>;
  /**
   * A new `secret`, in this answer only; the one before keeps signing beside it for 24 hours
   * (`previousSecretExpiresAt`), time to give the receiver the new one.
   */
  rotateSecret(endpointId: string): Promise<WebhookEndpointWithSecret>;
  /** The delivery log, newest first (30 days); pass the answer's `nextCursor` for the next page (null: no more). */
  attempts(endpointId: string, page?: { limit?: number; cursor?: string | null }): Promise<WebhookAttemptPage>;
  /**
   * Queues a `webhook.test` event to this endpoint alone, whatever it subscribes to: its attempt shows in the log.
   * 409 CONFLICT while the endpoint is turned off (so do `redeliver` and `replay`).
   */
  sendTest(endpointId: string): Promise<WebhookQueued>;
  /** Sends one event of the log (the last 30 days) again; 404 NOT_FOUND for an event no longer kept. */
  redeliver(endpointId: string, eventId: string): Promise<WebhookQueued>;
  /**
   * Sends again every event since `since` (ISO 8601, within the last 30 days; at most 1000 at a time) that the endpoint
   * subscribes to: `events` says how many. For a receiver that was down.
   */
  replay(endpointId: string, since: string): Promise<WebhookQueued>;
}

export interface AdminMerchantApi {
  get(): Promise<Merchant>;
  update(id: string, body: UpdateMerchantRequest): Promise<Merchant>;
  apiKeys: {
    list(id: string): Promise<ApiKey[]>;
    create(id: string, body: { label: string }): Promise<GeneratedApiKey>;
    revoke(id: string, keyId: string): Promise<void>;
  };
}

export interface AdminRolesApi {
  list(): Promise<Role[]>;
  create(body: CreateRoleRequest): Promise<Role>;
  delete(id: string): Promise<void>;
  assign(body: AssignRoleRequest): Promise<void>;
  revoke(body: RevokeRoleRequest): Promise<void>;
}

/** The tenant's OpenID Connect clients; create and rotateSecret need a user who signed in within 10 minutes. */
export interface AdminOidcClientsApi {
  list(): Promise<OidcClient[]>;
  get(clientId: string): Promise<OidcClient>;
  /** A confidential client's `clientSecret` is in this answer only. */
  create(body: CreateOidcClientRequest): Promise<OidcClientWithSecret>;
  update(clientId: string, body: UpdateOidcClientRequest): Promise<OidcClient>;
  delete(clientId: string): Promise<void>;
  /** Confidential clients only (a public one: 409 CONFLICT); the new `clientSecret` is in this answer only. */
  rotateSecret(clientId: string): Promise<OidcClientWithSecret>;
}

/**
 * The hosted sign-in page's side of an OpenID Connect sign-in (shared/oidc/README.md): the authorization
 * request a client started, finished with the signed-in user's session or cancelled with an error for the
 * client, and the end of an RP-initiated logout. Each answers where the browser goes next.
 */
export interface OidcApi {
  /** GET /oidc/authorization-requests/{requestId} (no bearer): 404 NOT_FOUND once expired, completed or cancelled. */
  authorizationRequest(requestId: string): Promise<AuthorizationRequest>;
  /**
   * POST /oidc/authorization-requests/{requestId}/complete with the session's bearer: the code for the client.
   * Rejects 403 REAUTHENTICATION_REQUIRED (`prompt=login` or `max_age`: `reauthenticate()`, then again),
   * 403 CONSENT_REQUIRED (ask the user, then again with `{ consent }`), 404 NOT_FOUND.
   */
  completeAuthorization(requestId: string, body?: CompleteAuthorizationRequest): Promise<AuthorizationRedirect>;
  /** POST /oidc/authorization-requests/{requestId}/cancel (no bearer): the error goes to the client. */
  cancelAuthorization(requestId: string, error: AuthorizationCancelError): Promise<AuthorizationRedirect>;
  /** POST /oidc/logout-requests/{logoutId}/complete (no bearer): the client's post-logout URI, or null. */
  completeLogout(logoutId: string): Promise<LogoutRedirect>;
}

export interface AdminApi {
  users: AdminUsersApi;
  merchant: AdminMerchantApi;
  roles: AdminRolesApi;
  oidcClients: AdminOidcClientsApi;
  signInProviders: AdminSignInProvidersApi;
  webhooks: AdminWebhooksApi;
}

interface Envelope<T> {
  success: true;
  data: T;
}

interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | null | undefined>;
  /** Send the access token, and recover from its 401 by one refresh. Off for the public auth endpoints. */
  bearer?: boolean;
  /** Send X-App-ID and X-Mid-Key. Off for discovery only. */
  tenant?: boolean;
}

interface Answer {
  status: number;
  text: string;
  retryAfter?: number | undefined;
}

const seg = encodeURIComponent;

/**
 * Answers to a refresh that mean the refresh token will never work again
 * (refused, revoked, replayed, or its tenant gone): the session is over.
 * Anything else (no answer, 429, 5xx) may pass; the token is kept for the next try.
 */
function refusesSession(error: unknown): boolean {
  return error instanceof ApiError && [400, 401, 403, 404].includes(error.status);
}

/**
 * 401 codes that refuse a proof the body carried (a password, a code, a provider's result), not
 * the access token: a refresh cannot cure them, and a retry would count the
 * same wrong guess twice against the account's lockout (or present a used result again).
 */
const PROOF_REFUSALS: ReadonlySet<string> = new Set(['INVALID_CREDENTIALS', 'INVALID_CODE', 'PROVIDER_SIGN_IN_FAILED']);

function refusesProof(answer: Answer): boolean {
  try {
    const body: unknown = JSON.parse(answer.text);
    return typeof body === 'object' && body !== null && PROOF_REFUSALS.has(String((body as { code?: unknown }).code));
  } catch {
    return false;
  }
}

function decodeCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The identity service's client. Keeps the access token in memory and the
 * refresh token in the `svc_rt` cookie, and refreshes once, for every caller
 * at the same time, when a request with the access token answers 401.
 *
 * @example
 * const client = new IdentityClient({ baseUrl: 'https://id.example.com/api/v1' });
 * await client.discover({ clientId: 'pk_…' });
 * const result = await client.login({ email, password });
 */
export class IdentityClient {
  readonly me: MeApi;
  readonly admin: AdminApi;
  readonly passkeys: PasskeysApi;
  readonly oidc: OidcApi;

  readonly #baseUrl: string;
  readonly #fetch: FetchLike;
  readonly #cookies: CookieStore;
  readonly #now: () => Date;
  readonly #expiryListeners = new Set<() => void>();
  #tenant: TenantConfig | null = null;
  /** In memory only: never written to storage, so a script on another page or a stolen disk cannot read it. */
  #accessToken: string | null = null;
  /** When the refresh token expires; known after a login in this client, estimated after a reload. */
  #sessionEndsAt: Date | null = null;
  /** The one refresh in flight, shared by every caller that needs it. */
  #refreshing: Promise<LoginSuccess> | null = null;
  #loggingOut = false;

  constructor(options: IdentityClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    const fetchFn = options.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    if (!fetchFn) throw new Error('IdentityClient needs a fetch function: pass options.fetch');
    this.#fetch = fetchFn;
    this.#cookies = options.cookies ?? defaultCookieStore();
    this.#now = options.now ?? (() => new Date());
    if (options.onSessionExpired) this.#expiryListeners.add(options.onSessionExpired);
    this.me = this.#meApi();
    this.oidc = this.#oidcApi();
    this.passkeys = this.#passkeysApi();
    this.admin = {
      users: this.#adminUsersApi(),
      merchant: this.#adminMerchantApi(),
      roles: this.#adminRolesApi(),
      oidcClients: this.#adminOidcClientsApi(),
      signInProviders: this.#adminSignInProvidersApi(),
      webhooks: this.#adminWebhooksApi(),
    };
  }

  /** The tenant configuration kept by `discover`, or null. */
  get tenant(): TenantConfig | null {
    return this.#tenant;
  }

  /**
   * GET /auth/discovery: the tenant's public configuration, kept for the
   * tenant headers of every later request. Browsers send the page's Origin,
   * which must be one of the tenant's allowed origins. The tenant's own hosted
   * pages, served from the service's origin, name it by `slug` alone.
   */
  async discover(params: { clientId: string; slug?: string } | { slug: string }): Promise<TenantConfig> {
    const tenant = await this.#call<TenantConfig>('GET', '/auth/discovery', {
      query: { clientId: 'clientId' in params ? params.clientId : undefined, slug: params.slug },
      bearer: false,
      tenant: false,
    });
    // A token belongs to one tenant: another tenant's headers would answer 403 TENANT_MISMATCH.
    if (this.#tenant && (this.#tenant.app !== tenant.app || this.#tenant.mid !== tenant.mid)) this.#clearTokens();
    this.#tenant = tenant;
    return tenant;
  }

  /** POST /auth/login: `{ user }` when the tokens arrived (and are kept), or the challenge of the next step. */
  async login(body: LoginRequest): Promise<LoginResult> {
    const answer = await this.#call<Envelope<TokensResponse | LoginChallenge>>('POST', '/auth/login', {
      body,
      bearer: false,
    });
    return this.#settle(answer.data);
  }

  /** POST /auth/login/verify: finishes an e-mail code, TOTP or backup code challenge. */
  async verifyLogin(body: CodeVerifyRequest): Promise<LoginResult> {
    const answer = await this.#call<Envelope<TokensResponse | LoginChallenge>>('POST', '/auth/login/verify', {
      body,
      bearer: false,
    });
    return this.#settle(answer.data);
  }

  /**
   * POST /auth/invitations/lookup: the open invitation an invitation link's token names (the tenant's name, the
   * invited address, the names the admin typed, the inviter's name, the expiry), for the sign-up form that
   * accepts it. Rejects with 404 `NOT_FOUND` for a token that opens nothing: unknown, used, expired or withdrawn.
   */
  lookupInvitation(invitationToken: string): Promise<Invitation> {
    return this.#call('POST', '/auth/invitations/lookup', { body: { invitationToken }, bearer: false });
  }

  /**
   * POST /auth/signup, with the discovered tenant's `app` and `mid` unless
   * given. OPEN tenants answer a challenge for `verifySignup` (the same for an
   * address already registered); an invitation answers null (log in next).
   */
  async signup(body: SignupRequest): Promise<ChallengeIdResponse | null> {
    const { app = this.#tenant?.app, mid = this.#tenant?.mid, ...rest } = body;
    const answer = await this.#call<Envelope<ChallengeIdResponse | null>>('POST', '/auth/signup', {
      body: { app, mid, ...rest },
      bearer: false,
    });
    return answer.data;
  }

  /** POST /auth/signup/verify: activates the account and logs in. */
  async verifySignup(body: CodeVerifyRequest): Promise<LoginResult> {
    const answer = await this.#call<Envelope<TokensResponse | LoginChallenge>>('POST', '/auth/signup/verify', {
      body,
      bearer: false,
    });
    return this.#settle(answer.data);
  }

  /** POST /auth/forgot-password: mails a code if the address has an account (the answer is the same either way). */
  forgotPassword(body: { email: string }): Promise<ChallengeIdResponse> {
    return this.#call('POST', '/auth/forgot-password', { body, bearer: false });
  }

  /** POST /auth/reset-password: sets the new password; every session of the user ends. */
  async resetPassword(body: ResetPasswordRequest): Promise<void> {
    await this.#call('POST', '/auth/reset-password', { body, bearer: false });
  }

  /**
   * POST /auth/refresh with the stored refresh token in the body (never as
   * a Cookie header); keeps the new pair. Callers at the same time share one
   * attempt. Call it once at start-up to resume a session after a reload.
   */
  refresh(): Promise<LoginSuccess> {
    this.#refreshing ??= this.#runRefresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  /**
   * POST /auth/reauthenticate: proves it is the signed-in user again, for the
   * calls answered 403 REAUTHENTICATION_REQUIRED (e-mail change, TOTP
   * init/verify/disable, API key creation); the session then counts as fresh
   * for 10 minutes. With `{ password, totpCode? }` or `{ challengeId, code,
   * totpCode? }` it resolves with nothing; with `{ loginMode: 'OTP_EMAIL' }`
   * (tenants taking e-mail codes) a code is mailed and it resolves with the
   * `{ challengeId }` to send back with that code.
   *
   * @example
   * try { await client.me.totp.init(); } catch (e) {
   *   if (e instanceof ApiError && e.code === 'REAUTHENTICATION_REQUIRED') {
   *     await client.reauthenticate({ password });
   *     await client.me.totp.init();
   *   }
   * }
   */
  reauthenticate(body: ReauthenticateCodeRequest): Promise<ChallengeIdResponse>;
  reauthenticate(body: ReauthenticateProof): Promise<void>;
  async reauthenticate(body: ReauthenticateProof | ReauthenticateCodeRequest): Promise<unknown> {
    const answer = await this.#call<ChallengeIdResponse | undefined>('POST', '/auth/reauthenticate', { body });
    // 204 (proven) has no body; 200 carries the challenge of the mailed code.
    return 'loginMode' in body ? answer : undefined;
  }

  /** Whether this browser can use passkeys, and offer them in the e-mail field's autofill (conditional UI). */
  passkeySupport(): Promise<PasskeySupport> {
    return passkeySupport();
  }

  /**
   * Signs in with a passkey (`POST /auth/passkeys/options`, the browser's prompt, `POST /auth/passkeys/sign-in`);
   * the tokens are kept. A passkey is two factors: there is never a TOTP step. `email`: only that account's passkey
   * is taken. `conditional`: the browser offers the passkeys in the autofill of a field with
   * `autocomplete="username webauthn"` and this resolves once the person picks one; it asks for a fresh challenge
   * before each one lapses, and rejects PASSKEY_CANCELLED when `cancelPasskeySignIn()` or another ceremony (the
   * button) ends it. Rejects 401 INVALID_CREDENTIALS for a passkey the service does not take (removed, another
   * site's), PASSKEY_CANCELLED when the prompt is closed, PASSKEYS_UNSUPPORTED without WebAuthn.
   */
  async signInWithPasskey(options: { email?: string; conditional?: boolean } = {}): Promise<LoginSuccess> {
    requireWebAuthn();
    const body = options.email === undefined ? {} : { email: options.email };
    const ask = () =>
      this.#call<{ options: PasskeyRequestOptions }>('POST', '/auth/passkeys/options', { body, bearer: false });
    let credential: unknown;
    if (options.conditional) {
      for (;;) {
        const { options: requestOptions } = await ask();
        // A minute before the challenge lapses, the waiting request is replaced by one with a fresh challenge.
        let renewed = false;
        const lapse = Math.max((requestOptions.timeout ?? 300_000) - 60_000, 30_000);
        const stopRenewal = after(lapse, () => {
          renewed = true;
          cancelCeremony();
        });
        try {
          credential = await getAssertion(requestOptions, true);
          break;
        } catch (error) {
          if (renewed) continue;
          throw error;
        } finally {
          stopRenewal();
        }
      }
    } else {
      credential = await getAssertion((await ask()).options);
    }
    const answer = await this.#call<Envelope<TokensResponse>>('POST', '/auth/passkeys/sign-in', {
      body: { credential },
      bearer: false,
    });
    return this.#keep(answer.data, true);
  }

  /** Ends a waiting `signInWithPasskey({ conditional: true })` (it rejects PASSKEY_CANCELLED). */
  cancelPasskeySignIn(): void {
    cancelCeremony();
  }

  /**
   * Proves it is the signed-in user again with one of their passkeys (no TOTP code: a passkey is two factors), for
   * the calls answered 403 REAUTHENTICATION_REQUIRED; the session then counts as fresh for 10 minutes. Rejects 404
   * NOT_FOUND when the account has no passkey, 401 INVALID_CREDENTIALS for a passkey the service does not take.
   */
  async reauthenticateWithPasskey(): Promise<void> {
    requireWebAuthn();
    const { options } = await this.#call<{ options: PasskeyRequestOptions }>(
      'POST',
      '/auth/reauthenticate/passkey/options',
    );
    const credential = await getAssertion(options);
    await this.#call('POST', '/auth/reauthenticate/passkey', { body: { credential } });
  }

  /**
   * Signs in (or up) with one of the tenant's providers (`tenant.signInProviders`): makes a PKCE pair whose verifier
   * this tab keeps (sessionStorage), asks the service where to go (`POST /auth/providers/{id}/start`), and leaves
   * for the provider (`location.assign`). The provider sends the browser back to `returnTo` (default: this page; it
   * must be on the hosted pages or an allowed origin), where `completeProviderSignIn()` finishes. `loginHint`: the
   * address to suggest at the provider. Browsers only.
   */
  async signInWith(providerId: string, options: { returnTo?: string; loginHint?: string } = {}): Promise<void> {
    const location = browserLocation();
    const pair = await pkcePair();
    const returnTo = keepVerifier(pair, options.returnTo ?? location.href);
    const body = {
      returnTo,
      codeChallenge: pair.challenge,
      ...(options.loginHint ? { loginHint: options.loginHint } : {}),
    };
    const { authorizationUrl } = await this.#call<{ authorizationUrl: string }>(
      'POST',
      `/auth/providers/${seg(providerId)}/start`,
      { body, bearer: false },
    ).catch((error: unknown) => {
      dropVerifier(pair.challenge);
      throw error;
    });
    location.assign(authorizationUrl);
  }

  /**
   * Back from the provider (`url`, default: this page's, carries `provider_result` or `provider_error`): presents
   * the result with this tab's verifier (`POST /auth/providers/sign-in`). Answers as `login` does (`{ user }`, the
   * tokens kept; or the TOTP step, for `verifyLogin`), or `{ linkRequired, email, providerName, expiresAt }`: the
   * address has an account here not linked to the provider; sign in to it another way, then
   * `me.identities.linkPending()`. Null when `url` has neither parameter. The address bar loses them either way
   * (history.replaceState). Rejects PROVIDER_SIGN_IN_CANCELLED, PROVIDER_SIGN_IN_FAILED, PROVIDER_EMAIL_NOT_VERIFIED,
   * SIGNUP_NOT_ALLOWED, ACCOUNT_DISABLED, PROVIDER_ALREADY_LINKED.
   */
  async completeProviderSignIn(url: string = browserLocation().href): Promise<ProviderSignInResult | null> {
    const back = readProviderReturn(url);
    if (!back) return null;
    if ('error' in back) throw back.error;
    const answer = await this.#call<Envelope<TokensResponse | LoginChallenge | ProviderLinkRequired>>(
      'POST',
      '/auth/providers/sign-in',
      { body: back, bearer: false },
    );
    const data = answer.data;
    if ('linkRequired' in data && data.linkRequired) {
      keepPendingLink({ ...back, expiresAt: data.expiresAt });
      return data;
    }
    return this.#settle(data as TokensResponse | LoginChallenge);
  }

  /**
   * Proves it is the signed-in user again with a provider linked to their account (`me.identities.list()`, those the
   * tenant still offers: `tenant.signInProviders`), for the calls answered 403 REAUTHENTICATION_REQUIRED: an account
   * made by a provider may have no password. As `signInWith`: a PKCE pair whose verifier this tab keeps, marked as a
   * re-authentication (`completeProviderSignIn` and `me.identities.completeLink` leave its result alone), then
   * `POST /auth/providers/{id}/start` and `location.assign` to the provider. It sends the browser back to `returnTo`
   * (default: this page), where `completeProviderReauthentication()` finishes. Browsers only.
   */
  async reauthenticateWithProvider(providerId: string, options: { returnTo?: string } = {}): Promise<void> {
    const location = browserLocation();
    const pair = await pkcePair();
    const returnTo = keepVerifier(pair, options.returnTo ?? location.href, { reauthenticate: providerId });
    const { authorizationUrl } = await this.#call<{ authorizationUrl: string }>(
      'POST',
      `/auth/providers/${seg(providerId)}/start`,
      { body: { returnTo, codeChallenge: pair.challenge }, bearer: false },
    ).catch((error: unknown) => {
      dropVerifier(pair.challenge);
      throw error;
    });
    location.assign(authorizationUrl);
  }

  /**
   * Whether a `reauthenticateWithProvider()` of this tab waits to be finished by `completeProviderReauthentication()`,
   * and with which provider: `url` (default: this page's) is the way back from it, or its result is kept after a
   * refusal worth another try (the TOTP code was missing). Null otherwise. Sends nothing and takes nothing: a page
   * asks this first, to ask for the TOTP code (when the user has TOTP) before it completes.
   */
  pendingProviderReauthentication(url: string = browserLocation().href): { providerId: string } | null {
    const back = reauthenticationReturn(url);
    if (back) return back;
    const kept = pendingReauthentication();
    return kept ? { providerId: kept.providerId } : null;
  }

  /**
   * Back from `reauthenticateWithProvider()`: presents the provider's result with this tab's verifier, and `totpCode`
   * (a TOTP or backup code) when the user has TOTP (`POST /auth/reauthenticate/provider`); the session then counts as
   * fresh for 10 minutes. Resolves true when proven, false when there is nothing to finish (see
   * `pendingProviderReauthentication`). The address bar loses the provider's parameters. A refusal before the service
   * took the result (400 VALIDATION_FAILED on `totpCode`: it is required while TOTP is on; no answer; 429; 5xx) keeps
   * the result in this tab for another call. Rejects PROVIDER_SIGN_IN_CANCELLED, PROVIDER_SIGN_IN_FAILED (not a
   * provider account linked to this user), INVALID_CODE (the TOTP code; the result is used then: go to the provider
   * again).
   */
  async completeProviderReauthentication(options: { totpCode?: string; url?: string } = {}): Promise<boolean> {
    const url = options.url ?? browserLocation().href;
    const back = reauthenticationReturn(url);
    let pending = pendingReauthentication();
    if (back) {
      const read = readProviderReturn(url, 'reauthenticate');
      if (read && 'error' in read) {
        dropPendingReauthentication();
        throw read.error;
      }
      if (read) {
        pending = { ...read, providerId: back.providerId, expiresAt: resultLapse() };
        keepPendingReauthentication(pending);
      }
    }
    if (!pending) return false;
    const body = {
      result: pending.result,
      codeVerifier: pending.codeVerifier,
      ...(options.totpCode === undefined ? {} : { totpCode: options.totpCode }),
    };
    try {
      await this.#call('POST', '/auth/reauthenticate/provider', { body });
    } catch (error) {
      if (!reauthenticationMayRetry(error)) dropPendingReauthentication();
      throw error;
    }
    dropPendingReauthentication();
    return true;
  }

  /** DELETE /auth/logout, then the local tokens are cleared whatever the answer. Never rejects. */
  async logout(): Promise<void> {
    this.#loggingOut = true;
    try {
      await this.#call('DELETE', '/auth/logout');
    } catch {
      // The user asked to leave: the local session ends whether or not the service heard it.
    } finally {
      this.#loggingOut = false;
      this.#clearTokens();
    }
  }

  /** Whether an access token is held (in memory: after a reload, `refresh()` first). */
  isAuthenticated(): boolean {
    return this.#accessToken !== null;
  }

  getAccessToken(): string | null {
    return this.#accessToken;
  }

  /** `fn` is called once each time a session ends because it could not be refreshed; returns the unsubscribe. */
  onSessionExpired(fn: () => void): () => void {
    const listener = () => fn();
    this.#expiryListeners.add(listener);
    return () => {
      this.#expiryListeners.delete(listener);
    };
  }

  // ---- tokens ----

  #settle(data: TokensResponse | LoginChallenge): LoginResult {
    if ('challengeRequired' in data && data.challengeRequired) return data;
    return this.#keep(data as TokensResponse, true);
  }

  #keep(tokens: TokensResponse, newSession: boolean): LoginSuccess {
    this.#accessToken = tokens.accessToken;
    // The refresh token's life is counted from login, not from the last refresh.
    if (newSession || !this.#sessionEndsAt) {
      this.#sessionEndsAt = new Date(this.#now().getTime() + REFRESH_TOKEN_LIFETIME_MS);
    }
    this.#cookies.set(REFRESH_COOKIE, encodeURIComponent(tokens.refreshToken), {
      expires: this.#sessionEndsAt,
      path: '/',
      sameSite: 'Lax',
    });
    return { user: tokens.user };
  }

  #clearTokens(): void {
    this.#accessToken = null;
    this.#sessionEndsAt = null;
    this.#cookies.remove(REFRESH_COOKIE);
  }

  /** The session could not be refreshed: clear it, and tell the listeners once. */
  #endSession(): void {
    const hadSession = this.#accessToken !== null || this.#cookies.get(REFRESH_COOKIE) !== undefined;
    this.#clearTokens();
    if (!hadSession || this.#loggingOut) return;
    for (const listener of [...this.#expiryListeners]) {
      try {
        listener();
      } catch {
        // One listener's failure must not keep the others from hearing, nor the callers from their rejection.
      }
    }
  }

  /**
   * One refresh, serialised with the other tabs of this origin, which share
   * the `svc_rt` cookie: inside the lock the cookie is read afresh, so a tab
   * that waited refreshes with the token the tab before it just stored, not
   * the one that tab rotated out (one chain, no refusal). Where the browser
   * has no Web Locks (or outside browsers) tabs may race: the service answers
   * a token used again within 10 s with the same successor, and a refusal
   * while the cookie already holds another token is tried once more with it.
   */
  #runRefresh(): Promise<LoginSuccess> {
    const locks = (globalThis as { navigator?: { locks?: WebLocks } }).navigator?.locks;
    if (typeof locks?.request !== 'function') return this.#refreshWithCookie(0);
    return locks.request(REFRESH_LOCK, () => this.#refreshWithCookie(0));
  }

  async #refreshWithCookie(retries: number): Promise<LoginSuccess> {
    const refreshToken = this.#storedRefreshToken();
    if (!refreshToken) {
      this.#endSession();
      throw new ApiError({ status: 401, code: CLIENT_ERROR_CODES.NO_REFRESH_TOKEN, detail: 'no refresh token stored' });
    }
    try {
      // In the body: a cookie is never sent cross-origin, and a Cookie header would invite CSRF.
      const answer = await this.#call<Envelope<TokensResponse>>('POST', '/auth/refresh', {
        body: { refreshToken },
        bearer: false,
      });
      return this.#keep(answer.data, false);
    } catch (error) {
      // Another tab rotated the token while this request was on its way: its successor is in the cookie.
      // Tried again with it (a few times at most, for tabs racing without Web Locks on a service without
      // the grace successor); never when the cookie still holds the token refused: that session is over.
      const rotatedElsewhere =
        retries < MAX_ROTATED_ELSEWHERE_RETRIES &&
        error instanceof ApiError &&
        error.code === 'REFRESH_TOKEN_INVALID' &&
        (this.#storedRefreshToken() ?? refreshToken) !== refreshToken;
      if (rotatedElsewhere) return this.#refreshWithCookie(retries + 1);
      if (refusesSession(error)) this.#endSession();
      throw error;
    }
  }

  #storedRefreshToken(): string | undefined {
    const stored = this.#cookies.get(REFRESH_COOKIE);
    return stored === undefined ? undefined : decodeCookie(stored);
  }

  /** After a 401 to `usedToken`: the access token to retry with, refreshing once if no one else has. */
  async #renewAfter(usedToken: string): Promise<string> {
    // Another caller's refresh already replaced the token this request carried.
    if (this.#accessToken !== null && this.#accessToken !== usedToken) return this.#accessToken;
    await this.refresh();
    if (this.#accessToken === null) {
      throw new ApiError({ status: 401, code: CLIENT_ERROR_CODES.NO_REFRESH_TOKEN, detail: 'the session ended' });
    }
    return this.#accessToken;
  }

  // ---- transport ----

  async #call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const bearer = options.bearer ?? true;
    // A request made while a refresh is in flight waits for its token rather than spend a 401.
    if (bearer && this.#refreshing) await this.#refreshing.catch(() => undefined);
    const token = bearer ? this.#accessToken : null;
    const first = await this.#send(method, path, options, token);
    // Only a 401 to a token the client sent can be cured by a refresh; any other 401 is the final answer,
    // and so is one refusing the body's password or code (the token was good). 403s never refresh:
    // REAUTHENTICATION_REQUIRED asks for reauthenticate(), which a refresh cannot replace.
    if (first.status !== 401 || token === null || refusesProof(first)) return this.#read<T>(first);
    const renewed = await this.#renewAfter(token);
    return this.#read<T>(await this.#send(method, path, options, renewed));
  }

  #url(path: string, query: CallOptions['query']): string {
    const pairs = Object.entries(query ?? {}).flatMap(([key, value]) =>
      value === undefined || value === null ? [] : [`${seg(key)}=${seg(String(value))}`],
    );
    return `${this.#baseUrl}${path}${pairs.length ? `?${pairs.join('&')}` : ''}`;
  }

  async #send(method: string, path: string, options: CallOptions, token: string | null): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.tenant !== false && this.#tenant) {
      headers['x-app-id'] = this.#tenant.app;
      headers['x-mid-key'] = this.#tenant.mid;
    }
    if (token) headers.authorization = `Bearer ${token}`;
    const init: FetchInit = { method, headers };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    // A plain call: a browser's fetch refuses to run as a method of another object ("Illegal invocation").
    const fetchFn = this.#fetch;
    try {
      const response = await fetchFn(this.#url(path, options.query), init);
      const retryAfter = Number(response.headers?.get('retry-after') ?? Number.NaN);
      return {
        status: response.status,
        text: await response.text(),
        retryAfter: Number.isFinite(retryAfter) ? retryAfter : undefined,
      };
    } catch (error) {
      throw new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES.NETWORK_ERROR,
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  }

  #read<T>(answer: Answer): T {
    const ok = answer.status >= 200 && answer.status < 300;
    let body: unknown;
    if (answer.text !== '') {
      try {
        body = JSON.parse(answer.text);
      } catch {
        if (ok) {
          throw new ApiError({
            status: answer.status,
            code: CLIENT_ERROR_CODES.INVALID_RESPONSE,
            detail: 'the answer is not JSON',
          });
        }
      }
    }
    if (!ok) throw errorFromAnswer(answer.status, body, answer.retryAfter);
    return body as T;
  }

  // ---- resources ----

  #meApi(): MeApi {
    return {
      get: () => this.#call('GET', '/users/me'),
      update: (body) => this.#call('PATCH', '/users/me', { body }),
      changePassword: async (body) => {
        await this.#call('POST', '/users/me/password', { body });
      },
      startEmailChange: (body) => this.#call('POST', '/users/me/email-change', { body }),
      verifyEmailChange: (body) => this.#call('POST', '/users/me/email-change/verify', { body }),
      totp: {
        init: () => this.#call('POST', '/users/me/totp/init'),
        verify: async (body) => {
          await this.#call('POST', '/users/me/totp/verify', { body });
        },
        disable: async (body) => {
          await this.#call('POST', '/users/me/totp/disable', { body });
        },
      },
      sessions: {
        list: () => this.#call('GET', '/users/me/sessions'),
        revoke: async (sessionId) => {
          await this.#call('DELETE', `/users/me/sessions/${seg(sessionId)}`);
        },
        revokeAll: async () => {
          await this.#call('POST', '/sessions/revoke-all');
          // This session ended too: its tokens are worthless now.
          this.#clearTokens();
        },
      },
      activity: (page = {}) =>
        this.#call('GET', '/users/me/activity', { query: { limit: page.limit, cursor: page.cursor } }),
      identities: this.#identitiesApi(),
    };
  }

  #identitiesApi(): IdentitiesApi {
    const link = async (body: { result: string; codeVerifier: string }) =>
      this.#call<Identity>('POST', '/users/me/identities', { body });
    return {
      list: () => this.#call('GET', '/users/me/identities'),
      link: async (providerId, options = {}) => {
        const location = browserLocation();
        const pair = await pkcePair();
        const returnTo = keepVerifier(pair, options.returnTo ?? location.href);
        const { authorizationUrl } = await this.#call<{ authorizationUrl: string }>(
          'POST',
          '/users/me/identities/start',
          { body: { providerId, returnTo, codeChallenge: pair.challenge } },
        ).catch((error: unknown) => {
          dropVerifier(pair.challenge);
          throw error;
        });
        location.assign(authorizationUrl);
      },
      completeLink: async (url = browserLocation().href) => {
        const back = readProviderReturn(url);
        if (!back) return null;
        if ('error' in back) throw back.error;
        try {
          return await link(back);
        } catch (error) {
          // Refused before the service took the result (the sign-in is older than 10 minutes, say): it is kept for
          // linkPending() once the user has confirmed it is them.
          if (linkMayRetry(error)) keepPendingLink({ ...back, expiresAt: resultLapse() });
          throw error;
        }
      },
      linkPending: async () => {
        const kept = pendingLink();
        if (!kept) return null;
        try {
          const linked = await link({ result: kept.result, codeVerifier: kept.codeVerifier });
          dropPendingLink();
          return linked;
        } catch (error) {
          // The service takes a result once: only a refusal before it was taken leaves it worth another try.
          if (!linkMayRetry(error)) dropPendingLink();
          throw error;
        }
      },
      unlink: async (providerId) => {
        await this.#call('DELETE', `/users/me/identities/${seg(providerId)}`);
      },
    };
  }

  #passkeysApi(): PasskeysApi {
    return {
      register: async (body = {}) => {
        requireWebAuthn();
        const { options } = await this.#call<{ options: PasskeyCreationOptions }>('POST', '/users/me/passkeys/options');
        const credential = await createCredential(options);
        return this.#call('POST', '/users/me/passkeys', { body: { credential, ...body } });
      },
      list: () => this.#call('GET', '/users/me/passkeys'),
      rename: (id, name) => this.#call('PATCH', `/users/me/passkeys/${seg(id)}`, { body: { name } }),
      remove: async (id) => {
        await this.#call('DELETE', `/users/me/passkeys/${seg(id)}`);
      },
    };
  }

  #oidcApi(): OidcApi {
    const request = (requestId: string) => `/oidc/authorization-requests/${seg(requestId)}`;
    return {
      authorizationRequest: (requestId) => this.#call('GET', request(requestId), { bearer: false }),
      completeAuthorization: (requestId, body = {}) => this.#call('POST', `${request(requestId)}/complete`, { body }),
      cancelAuthorization: (requestId, error) =>
        this.#call('POST', `${request(requestId)}/cancel`, { body: { error }, bearer: false }),
      completeLogout: (logoutId) =>
        this.#call('POST', `/oidc/logout-requests/${seg(logoutId)}/complete`, { body: {}, bearer: false }),
    };
  }

  #adminUsersApi(): AdminUsersApi {
    return {
      list: () => this.#call('GET', '/users'),
      get: (id) => this.#call('GET', `/users/${seg(id)}`),
      delete: async (id) => {
        await this.#call('DELETE', `/users/${seg(id)}`);
      },
      setStatus: (id, status) => this.#call('PATCH', `/users/${seg(id)}/status`, { body: { status } }),
      invite: (body) => this.#call('POST', '/users/invitations', { body }),
      resendInvitation: (id) => this.#call('POST', `/users/${seg(id)}/invitation`),
      sendPasswordReset: async (id) => {
        await this.#call('POST', `/users/${seg(id)}/password-reset`);
      },
      resetTotp: async (id) => {
        await this.#call('DELETE', `/users/${seg(id)}/totp`);
      },
      clearMailSuppression: async (id) => {
        await this.#call('DELETE', `/users/${seg(id)}/mail-suppression`);
      },
      devices: (id) => this.#call('GET', `/users/${seg(id)}/devices`),
      activity: (id, page = {}) =>
        this.#call('GET', `/users/${seg(id)}/activity`, { query: { limit: page.limit, cursor: page.cursor } }),
      passkeys: (id) => this.#call('GET', `/users/${seg(id)}/passkeys`),
      removePasskey: async (id, passkeyId) => {
        await this.#call('DELETE', `/users/${seg(id)}/passkeys/${seg(passkeyId)}`);
      },
      identities: (id) => this.#call('GET', `/users/${seg(id)}/identities`),
    };
  }

  #adminSignInProvidersApi(): AdminSignInProvidersApi {
    const one = (providerId: string) => `/sign-in-providers/${seg(providerId)}`;
    return {
      list: () => this.#call('GET', '/sign-in-providers'),
      get: (providerId) => this.#call('GET', one(providerId)),
      create: (body) => this.#call('POST', '/sign-in-providers', { body }),
      update: (providerId, body) => this.#call('PATCH', one(providerId), { body }),
      remove: async (providerId) => {
        await this.#call('DELETE', one(providerId));
      },
    };
  }

  #adminWebhooksApi(): AdminWebhooksApi {
    const one = (endpointId: string) => `/webhook-endpoints/${seg(endpointId)}`;
    return {
      list: () => this.#call('GET', '/webhook-endpoints'),
      get: (endpointId) => this.#call('GET', one(endpointId)),
      create: (body) => this.#call('POST', '/webhook-endpoints', { body }),
      update: (endpointId, body) => this.#call('PATCH', one(endpointId), { body }),
      delete: async (endpointId) => {
        await this.#call('DELETE', one(endpointId));
      },
      rotateSecret: (endpointId) => this.#call('POST', `${one(endpointId)}/secret`),
      attempts: (endpointId, page = {}) =>
        this.#call('GET', `${one(endpointId)}/attempts`, { query: { limit: page.limit, cursor: page.cursor } }),
      sendTest: (endpointId) => this.#call('POST', `${one(endpointId)}/test`),
      redeliver: (endpointId, eventId) => this.#call('POST', `${one(endpointId)}/redeliver`, { body: { eventId } }),
      replay: (endpointId, since) => this.#call('POST', `${one(endpointId)}/replay`, { body: { since } }),
    };
  }

  #adminMerchantApi(): AdminMerchantApi {
    return {
      get: () => this.#call('GET', '/merchants/me'),
      update: (id, body) => this.#call('PATCH', `/merchants/${seg(id)}`, { body }),
      apiKeys: {
        list: (id) => this.#call('GET', `/merchants/${seg(id)}/api-keys`),
        create: (id, body) => this.#call('POST', `/merchants/${seg(id)}/api-keys`, { body }),
        revoke: async (id, keyId) => {
          await this.#call('DELETE', `/merchants/${seg(id)}/api-keys/${seg(keyId)}`);
        },
      },
    };
  }

  #adminRolesApi(): AdminRolesApi {
    return {
      list: () => this.#call('GET', '/roles'),
      create: (body) => this.#call('POST', '/roles', { body }),
      delete: async (id) => {
        await this.#call('DELETE', `/roles/${seg(id)}`);
      },
      assign: async (body) => {
        await this.#call('POST', '/roles/assign', { body });
      },
      revoke: async (body) => {
        await this.#call('POST', '/roles/revoke', { body });
      },
    };
  }

  #adminOidcClientsApi(): AdminOidcClientsApi {
    return {
      list: () => this.#call('GET', '/oidc/clients'),
      get: (clientId) => this.#call('GET', `/oidc/clients/${seg(clientId)}`),
      create: (body) => this.#call('POST', '/oidc/clients', { body }),
      update: (clientId, body) => this.#call('PATCH', `/oidc/clients/${seg(clientId)}`, { body }),
      delete: async (clientId) => {
        await this.#call('DELETE', `/oidc/clients/${seg(clientId)}`);
      },
      rotateSecret: (clientId) => this.#call('POST', `/oidc/clients/${seg(clientId)}/secret`),
    };
  }
}
