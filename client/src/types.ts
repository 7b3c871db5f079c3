/**
 * The identity service's bodies and resources (openapi.json), as the
 * client sees them. Plain types: answers are not re-validated in the client,
 * so the bundle carries valibot only for the form rules.
 */

export type LoginMode = 'PASSWORD' | 'OTP_EMAIL' | 'PASSWORD_OR_OTP_EMAIL';
export type SignupMode = 'OPEN' | 'INVITATION_ONLY';
export type UserStatus = 'ACTIVE' | 'INACTIVE' | 'INVITED' | 'DISABLED' | 'COMPROMISED' | 'TIMED_OUT';
/** Proven; a signup code or invitation out and awaiting an answer; or neither (e.g. the code expired). */
export type EmailStatus = 'VALIDATED' | 'VALIDATION_SENT' | 'UNVALIDATED';

/** GET /auth/discovery: the tenant's public configuration. */
export interface TenantConfig {
  name: string;
  app: string;
  mid: string;
  publicApiKey: string;
  subdomain: string;
  logoUrl: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
  loginMode: LoginMode;
  signupMode: SignupMode;
  totpAllowed: boolean;
  allowUserDisableTotp: boolean;
}

export interface UserRole {
  roleId: string;
  name: string;
  priority: number;
  /** ISO 8601; a grant past it has no effect. `null` = never expires. */
  expiresAt: string | null;
}

export interface User {
  id: string;
  email: string;
  emailStatus: EmailStatus;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  status: UserStatus;
  totpEnabled: boolean;
  roles: UserRole[];
  registeredAt: string;
  lastLoginAt: string | null;
}

/**
 * Mail to a user's address is suppressed: SES reported a hard bounce (`BOUNCE`) or the recipient marked a mail as
 * spam (`COMPLAINT`), at `at` (ISO 8601). The service sends the address nothing until an admin clears it.
 */
export interface MailSuppression {
  reason: 'BOUNCE' | 'COMPLAINT';
  at: string;
}

/** A user as an admin sees one (`admin.users.get`): with the suppression of mail to their address, or null. */
export interface AdminUser extends User {
  mailSuppression: MailSuppression | null;
}

/** What the login steps answer when another step is needed. */
export interface LoginChallenge {
  challengeRequired: true;
  challengeType: 'OTP_EMAIL' | 'TOTP';
  challengeId: string;
  expiresAt: string;
}

/** The tokens arrived (and are kept by the client): the signed-in user. */
export interface LoginSuccess {
  user: User;
}

export type LoginResult = LoginSuccess | LoginChallenge;

/** The service's LoginResponse, inside its `{ success, data }` envelope. */
export interface TokensResponse {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  user: User;
}

export interface LoginRequest {
  email: string;
  password?: string;
  loginMode?: 'PASSWORD' | 'OTP_EMAIL';
}

export interface CodeVerifyRequest {
  challengeId: string;
  code: string;
}

/** `app` and `mid` default to the discovered tenant's. */
export interface SignupRequest {
  app?: string;
  mid?: string;
  email: string;
  password?: string;
  firstName: string;
  lastName: string;
  phone?: string | null;
  invitationToken?: string;
}

export interface ChallengeIdResponse {
  challengeId: string;
}

export interface ResetPasswordRequest {
  challengeId: string;
  code: string;
  newPassword: string;
}

export interface UpdateUserRequest {
  firstName?: string;
  lastName?: string;
  phone?: string | null;
}

export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
  /** A TOTP or backup code; required when TOTP is on. */
  totpCode?: string;
}

/**
 * POST /auth/reauthenticate, proving it is the user again: the password, or
 * the e-mail code asked for with ReauthenticateCodeRequest; a TOTP or backup
 * code too when TOTP is on.
 */
export type ReauthenticateProof =
  | { password: string; totpCode?: string }
  | { challengeId: string; code: string; totpCode?: string };

/** POST /auth/reauthenticate asking for an e-mail code (tenants whose login mode takes codes). */
export interface ReauthenticateCodeRequest {
  loginMode: 'OTP_EMAIL';
}

export type ReauthenticateRequest = ReauthenticateProof | ReauthenticateCodeRequest;

export interface EmailChangeVerifyResponse {
  challengeId: string;
  type: 'EMAIL';
  status: 'COMPLETED';
}

export interface TotpSetupResponse {
  qrUri: string;
  backupCodes: string[];
}

export interface Session {
  id: string;
  current: boolean;
  browser: string | null;
  os: string | null;
  ip: string;
  lastActivityAt: string;
  createdAt: string;
  /** The OpenID Connect client the session was started for (its name); null for the hosted pages' and API sessions. */
  clientName: string | null;
}

export interface Device {
  fingerprint: string;
  os: string | null;
  browser: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  seenCount: number;
}

/** The brief's twelve kinds of activity, then the service's own. */
export type ActivityType =
  | 'LOGIN'
  | 'LOGOUT'
  | 'LOGIN_FAILED'
  | 'PASSWORD_CHANGE'
  | 'EMAIL_CHANGE'
  | 'TOTP_ENABLED'
  | 'TOTP_DISABLED'
  | 'SESSION_REVOKED'
  | 'ROLE_ASSIGNED'
  | 'ROLE_REVOKED'
  | 'USER_DISABLED'
  | 'USER_ENABLED'
  | 'SIGNUP'
  | 'PASSWORD_RESET'
  | 'USER_COMPROMISED'
  | 'ACCOUNT_LOCKED'
  | 'REFRESH_TOKEN_REUSED'
  | 'REFRESH_TOKEN_GRACE'
  | 'REAUTHENTICATED';

export interface Activity {
  id: string;
  type: ActivityType;
  at: string;
  ip: string;
  userAgent: string;
  /** The acting user's id, or `apikey:<keyId>`. */
  actorId: string;
}

export interface ActivityPage {
  items: Activity[];
  nextCursor: string | null;
}

export interface InviteUserRequest {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
}

export interface InviteUserResponse {
  userId: string;
  status: 'INVITED';
}

export type SettableUserStatus = 'ACTIVE' | 'DISABLED' | 'COMPROMISED';

export interface Merchant extends TenantConfig {
  id: string;
  /** The first admin, made with the tenant. */
  adminUserId: string;
  allowedOrigins: string[];
  createdAt: string;
  updatedAt: string;
}

export interface UpdateMerchantRequest {
  name?: string;
  logoUrl?: string | null;
  primaryColor?: string | null;
  secondaryColor?: string | null;
  loginMode?: LoginMode;
  signupMode?: SignupMode;
  /** `null` restores the default, allowed (answered as `true`). */
  totpAllowed?: boolean | null;
  allowUserDisableTotp?: boolean | null;
  allowedOrigins?: string[];
}

export interface ApiKey {
  keyId: string;
  keyPrefix: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Who made it; the key acts with that user's standing, and stops with it. */
  createdBy: string;
}

/** The new key, whole: shown this once. */
export interface GeneratedApiKey {
  keyId: string;
  /** The whole key, for the `X-Api-Key` header. */
  apiKey: string;
  keyPrefix: string;
  label: string;
  createdAt: string;
}

export type OidcClientType = 'public' | 'confidential';
export type OidcGrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

/** An OpenID Connect client of the tenant, as listed and read: never its secret. */
export interface OidcClient {
  clientId: string;
  name: string;
  type: OidcClientType;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: OidcGrantType[];
  firstParty: boolean;
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeSeconds: number;
  /** ES256 by default; RS256 for clients whose tokens an API Gateway HTTP API JWT authorizer checks (RSA only). */
  idTokenSigningAlg: 'ES256' | 'RS256';
  createdAt: string;
  updatedAt: string;
  /** Null for a public client. */
  secretCreatedAt: string | null;
  createdBy: string;
}

/** The client as created or after a secret rotation: `clientSecret` is shown this once (null for a public client). */
export interface OidcClientWithSecret extends OidcClient {
  clientSecret: string | null;
}

/** Defaults: grant types authorization_code + refresh_token, not first party, 900 s, 604800 s, ES256. */
export interface CreateOidcClientRequest {
  name: string;
  type: OidcClientType;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  grantTypes?: OidcGrantType[];
  firstParty?: boolean;
  accessTokenLifetimeSeconds?: number;
  refreshTokenLifetimeSeconds?: number;
  idTokenSigningAlg?: 'ES256' | 'RS256';
}

/** Any field but the id and the type. */
export type UpdateOidcClientRequest = Partial<Omit<CreateOidcClientRequest, 'type'>>;

export interface Role {
  id: string;
  name: string;
  /** `null` on SYSTEM roles (the same in every tenant); the tenant's own on MERCHANT roles. */
  app: string | null;
  mid: string | null;
  /** `false` on SYSTEM roles; on MERCHANT roles what creation said (default `true`). */
  custom: boolean;
  priority: number;
  owner: 'SYSTEM' | 'MERCHANT';
  description: string | null;
  createdAt: string;
}

export interface CreateRoleRequest {
  name: string;
  priority: number;
  /** Default `true`. */
  custom?: boolean;
  description?: string | null;
  app?: string;
  mid?: string;
}

export interface AssignRoleRequest {
  userId: string;
  roleId: string;
  /** ISO 8601; must be in the future. */
  expiresAt?: string | null;
  app?: string;
  mid?: string;
}

export interface RevokeRoleRequest {
  userId: string;
  roleId: string;
  app?: string;
  mid?: string;
}

/** What the authorization request asked of the sign-in page (OIDC Core 3.1.2.1 `prompt`). */
export type AuthorizationPrompt = 'none' | 'login' | 'consent';

/** GET /oidc/authorization-requests/{requestId}: what the hosted sign-in page shows for an OpenID Connect client. */
export interface AuthorizationRequest {
  requestId: string;
  client: {
    clientId: string;
    name: string;
    /** The tenant's own app: never asks for consent. */
    firstParty: boolean;
  };
  /** The scopes asked for and understood (`openid`, `profile`, `email`, `phone`, `roles`, `offline_access`). */
  scopes: string[];
  prompt: AuthorizationPrompt | null;
  /** Seconds: an older sign-in must be proven again. */
  maxAge: number | null;
  /** The e-mail address the client suggests, to fill in. */
  loginHint: string | null;
  /** ISO 8601; after it the request is gone (404 NOT_FOUND). */
  expiresAt: string;
}

/** POST /oidc/authorization-requests/{requestId}/complete: the user's answer to the consent question, when asked. */
export interface CompleteAuthorizationRequest {
  consent?: 'GRANTED' | 'DENIED';
}

/** The OAuth error a request is cancelled with (sent to the client's redirect URI). */
export type AuthorizationCancelError = 'login_required' | 'consent_required' | 'interaction_required' | 'access_denied';

/** Where the browser goes next: the client's redirect URI with the code (or the error), `state` and `iss`. */
export interface AuthorizationRedirect {
  redirectTo: string;
}

/** POST /oidc/logout-requests/{logoutId}/complete: the client's post-logout URI, or null (the page says so itself). */
export interface LogoutRedirect {
  redirectTo: string | null;
}
