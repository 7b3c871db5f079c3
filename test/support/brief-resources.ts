/**
 * The resources the service promises its clients, field by field, as data:
 * the product brief's field tables, and what this service added to them. A
 * client written from the brief reads exactly
 * these names, types, nullabilities and values. `ours` marks what this
 * service adds (a brief client ignores it); every other field is the brief's.
 *
 * Kept by hand on purpose: generated from our own schemas it would agree with
 * whatever the service does. Change it only when a promise to clients changes.
 */

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

export interface Field {
  type: FieldType;
  /** `null` is a value this field may have (a field with no value is present as null). */
  nullable?: true;
  /** The only values allowed. */
  values?: readonly (string | number | boolean)[];
  /** For strings: what they look like. */
  format?: 'timestamp' | 'colour' | 'otpauth';
  /** Arrays: the resource (by its name in BRIEF_RESOURCES) or the field each item is. */
  items?: string | Field;
  /** Objects: the resource (by its name in BRIEF_RESOURCES) they are. */
  resource?: string;
  /** Added by this service; not in the product brief. */
  ours?: true;
}

const text: Field = { type: 'string' };
const nullableText: Field = { type: 'string', nullable: true };
const timestamp: Field = { type: 'string', format: 'timestamp' };
const nullableTimestamp: Field = { type: 'string', format: 'timestamp', nullable: true };
const colour: Field = { type: 'string', format: 'colour', nullable: true };
const flag: Field = { type: 'boolean' };

const ours = (field: Field): Field => ({ ...field, ours: true });
const OIDC_CLIENT = {
  clientId: ours(text),
  name: ours(text),
  type: ours({ type: 'string', values: ['public', 'confidential'] }),
  redirectUris: ours({ type: 'array', items: text }),
  postLogoutRedirectUris: ours({ type: 'array', items: text }),
  grantTypes: ours({
    type: 'array',
    items: { type: 'string', values: ['authorization_code', 'refresh_token', 'client_credentials'] },
  }),
  firstParty: ours(flag),
  accessTokenLifetimeSeconds: ours({ type: 'integer' }),
  refreshTokenLifetimeSeconds: ours({ type: 'integer' }),
  idTokenSigningAlg: ours({ type: 'string', values: ['ES256', 'RS256'] }),
  createdAt: ours(timestamp),
  updatedAt: ours(timestamp),
  secretCreatedAt: ours(nullableTimestamp),
  createdBy: ours(text),
} as const satisfies Record<string, Field>;

/** The events an endpoint may subscribe to (`webhook.test` is sent on request only, never subscribed to). */
const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.verified',
  'user.updated',
  'user.email_changed',
  'user.status_changed',
  'user.deleted',
  'user.role_assigned',
  'user.role_revoked',
  'user.password_changed',
  'user.mfa_enabled',
  'user.mfa_disabled',
  'session.created',
  'session.revoked',
  'invitation.created',
  'invitation.accepted',
] as const;

const WEBHOOK_ENDPOINT = {
  id: ours(text),
  url: ours(text),
  description: ours(nullableText),
  eventTypes: ours({ type: 'array', items: { type: 'string', values: WEBHOOK_EVENT_TYPES } }),
  enabled: ours(flag),
  disabledReason: ours({ type: 'string', nullable: true, values: ['FAILING'] }),
  disabledAt: ours(nullableTimestamp),
  failingSince: ours(nullableTimestamp),
  lastSuccessAt: ours(nullableTimestamp),
  secretCreatedAt: ours(timestamp),
  previousSecretExpiresAt: ours(nullableTimestamp),
  createdAt: ours(timestamp),
  updatedAt: ours(timestamp),
} as const satisfies Record<string, Field>;

const LOGIN_MODES = ['PASSWORD', 'OTP_EMAIL', 'PASSWORD_OR_OTP_EMAIL'] as const;
const LANGUAGES = ['en', 'de'] as const;
const SIGNUP_MODES = ['OPEN', 'INVITATION_ONLY'] as const;
const USER_STATUSES = ['ACTIVE', 'INACTIVE', 'INVITED', 'DISABLED', 'COMPROMISED', 'TIMED_OUT'] as const;
/** The brief's twelve, then ours. */
const ACTIVITY_TYPES = [
  'LOGIN',
  'LOGOUT',
  'LOGIN_FAILED',
  'PASSWORD_CHANGE',
  'EMAIL_CHANGE',
  'TOTP_ENABLED',
  'TOTP_DISABLED',
  'SESSION_REVOKED',
  'ROLE_ASSIGNED',
  'ROLE_REVOKED',
  'USER_DISABLED',
  'USER_ENABLED',
  'SIGNUP',
  'PASSWORD_RESET',
  'USER_COMPROMISED',
  'ACCOUNT_LOCKED',
  'REFRESH_TOKEN_REUSED',
  'REFRESH_TOKEN_GRACE',
  'REAUTHENTICATED',
  'PASSKEY_ADDED',
  'PASSKEY_REMOVED',
  'PASSKEY_COUNTER_MISMATCH',
  'IDENTITY_LINKED',
  'IDENTITY_UNLINKED',
  'PROFILE_UPDATED',
  'INVITED',
] as const;
/** Ours: how a LOGIN proved who the user is. */
const LOGIN_METHODS = ['PASSWORD', 'EMAIL_CODE', 'PASSKEY', 'PROVIDER'] as const;

const USER_RESPONSE = {
  id: text,
  email: text,
  emailStatus: { type: 'string', values: ['VALIDATED', 'VALIDATION_SENT', 'UNVALIDATED'] },
  firstName: nullableText,
  lastName: nullableText,
  phone: nullableText,
  status: { type: 'string', values: USER_STATUSES },
  totpEnabled: flag,
  roles: { type: 'array', items: 'UserRole' },
  registeredAt: timestamp,
  lastLoginAt: nullableTimestamp,
} as const satisfies Record<string, Field>;

export const BRIEF_RESOURCES = {
  UserResponse: USER_RESPONSE,
  /** GET /users/{id}: the UserResponse, and ours: the mail suppression of the address. */
  AdminUserResponse: {
    ...USER_RESPONSE,
    mailSuppression: ours({ type: 'object', nullable: true, resource: 'MailSuppression' }),
    passkeyCount: ours({ type: 'integer' }),
  },
  /** Ours wholly: why and since when mail to the address is suppressed. */
  MailSuppression: {
    reason: ours({ type: 'string', values: ['BOUNCE', 'COMPLAINT'] }),
    at: ours(timestamp),
  },
  UserRole: {
    roleId: text,
    name: text,
    priority: { type: 'integer' },
    expiresAt: nullableTimestamp,
  },
  SessionResponse: {
    id: text,
    current: flag,
    browser: nullableText,
    os: nullableText,
    ip: text,
    lastActivityAt: timestamp,
    createdAt: timestamp,
    clientName: ours(nullableText),
  },
  DeviceResponse: {
    fingerprint: text,
    os: nullableText,
    browser: nullableText,
    firstSeenAt: timestamp,
    lastSeenAt: timestamp,
    seenCount: { type: 'integer' },
  },
  ActivityResponse: {
    id: text,
    type: { type: 'string', values: ACTIVITY_TYPES },
    at: timestamp,
    ip: text,
    userAgent: text,
    actorId: text,
    method: ours({ type: 'string', nullable: true, values: LOGIN_METHODS }),
  },
  ActivityPage: {
    items: { type: 'array', items: 'ActivityResponse' },
    nextCursor: nullableText,
  },
  MerchantResponse: {
    id: text,
    name: text,
    mid: text,
    app: text,
    subdomain: text,
    publicApiKey: text,
    logoUrl: nullableText,
    primaryColor: colour,
    secondaryColor: colour,
    darkPrimaryColor: ours(colour),
    darkSecondaryColor: ours(colour),
    privacyPolicyUrl: ours(nullableText),
    termsUrl: ours(nullableText),
    defaultLanguage: { type: 'string', values: LANGUAGES, ours: true },
    adminUserId: text,
    createdAt: timestamp,
    signupMode: { type: 'string', values: SIGNUP_MODES },
    loginMode: { type: 'string', values: LOGIN_MODES },
    totpAllowed: flag,
    allowUserDisableTotp: flag,
    passkeysAllowed: ours(flag),
    signInProviders: { type: 'array', items: 'SignInProviderButton', ours: true },
    allowedOrigins: { type: 'array', items: text, ours: true },
    updatedAt: { ...timestamp, ours: true },
  },
  DiscoveryResponse: {
    name: text,
    app: text,
    mid: text,
    publicApiKey: text,
    subdomain: text,
    logoUrl: nullableText,
    primaryColor: colour,
    secondaryColor: colour,
    darkPrimaryColor: ours(colour),
    darkSecondaryColor: ours(colour),
    privacyPolicyUrl: ours(nullableText),
    termsUrl: ours(nullableText),
    defaultLanguage: { type: 'string', values: LANGUAGES, ours: true },
    loginMode: { type: 'string', values: LOGIN_MODES },
    signupMode: { type: 'string', values: SIGNUP_MODES },
    totpAllowed: flag,
    allowUserDisableTotp: flag,
    passkeysAllowed: ours(flag),
    signInProviders: { type: 'array', items: 'SignInProviderButton', ours: true },
  },
  /** Ours wholly: a sign-in provider as its admins see it (never its secret or key). */
  SignInProviderResponse: {
    id: ours(text),
    kind: ours({ type: 'string', values: ['GOOGLE', 'APPLE', 'MICROSOFT', 'GITHUB', 'OIDC'] }),
    displayName: ours(text),
    clientId: ours(text),
    issuer: ours(text),
    microsoftTenant: ours(nullableText),
    scopes: ours({ type: 'array', items: text }),
    enabled: ours(flag),
    trustEmail: ours(flag),
    order: ours({ type: 'number' }),
    redirectUri: ours(text),
    apple: ours({ type: 'object', nullable: true, resource: 'AppleKeyInfo' }),
    secretSetAt: ours(timestamp),
    createdAt: ours(timestamp),
    updatedAt: ours(timestamp),
  },
  /** Ours wholly: Apple's team and key ids of a provider. */
  AppleKeyInfo: { teamId: ours(text), keyId: ours(text) },
  /** Ours wholly: a provider account linked to a user. */
  IdentityResponse: {
    providerId: ours(text),
    kind: ours({ type: 'string', values: ['GOOGLE', 'APPLE', 'MICROSOFT', 'GITHUB', 'OIDC'] }),
    displayName: ours(nullableText),
    email: ours(nullableText),
    linkedAt: ours(timestamp),
    lastUsedAt: ours(nullableTimestamp),
  },
  /** Ours wholly: a sign-in provider's button on the sign-in page. */
  SignInProviderButton: {
    id: ours(text),
    kind: ours({ type: 'string', values: ['GOOGLE', 'APPLE', 'MICROSOFT', 'GITHUB', 'OIDC'] }),
    displayName: ours(text),
  },
  /** Ours wholly: a passkey as its owner and an admin see it (never its key or credential id). */
  PasskeyResponse: {
    id: ours(text),
    name: ours(text),
    createdAt: ours(timestamp),
    lastUsedAt: ours(nullableTimestamp),
    deviceType: ours({ type: 'string', values: ['singleDevice', 'multiDevice'] }),
    backedUp: ours(flag),
  },
  GenerateApiKeyResponse: {
    keyId: text,
    apiKey: text,
    keyPrefix: text,
    label: text,
    createdAt: { ...timestamp, ours: true },
  },
  /** An item of `GET /merchants/{id}/api-keys`: never the key itself. */
  ApiKeyResponse: {
    keyId: text,
    keyPrefix: text,
    label: text,
    createdAt: timestamp,
    lastUsedAt: nullableTimestamp,
    createdBy: { ...text, ours: true },
  },
  RoleResponse: {
    id: text,
    name: text,
    app: nullableText,
    mid: nullableText,
    custom: flag,
    priority: { type: 'integer' },
    owner: { type: 'string', values: ['SYSTEM', 'MERCHANT'] },
    createdAt: timestamp,
    description: { ...nullableText, ours: true },
  },
  TotpSetupResponse: {
    qrUri: { type: 'string', format: 'otpauth' },
    backupCodes: { type: 'array', items: text },
  },
  /** `POST /users/me/email-change`. */
  EmailChangeResponse: { challengeId: text },
  /** Forgot-password's 202, and signup's `data` when a code went out. */
  ChallengeIdResponse: { challengeId: text },
  EmailChangeVerifyResponse: {
    challengeId: text,
    type: { type: 'string', values: ['EMAIL'] },
    status: { type: 'string', values: ['COMPLETED'] },
  },
  InviteUserResponse: { userId: text, status: { type: 'string', values: ['INVITED'] } },
  /** LoginResponse when the tokens arrived. */
  LoginTokens: {
    accessToken: text,
    refreshToken: text,
    tokenType: { type: 'string', values: ['Bearer'] },
    expiresIn: { type: 'integer' },
    user: { type: 'object', resource: 'UserResponse' },
  },
  /** LoginResponse when another step is needed. */
  LoginChallenge: {
    challengeRequired: { type: 'boolean', values: [true] },
    challengeType: { type: 'string', values: ['OTP_EMAIL', 'TOTP'] },
    challengeId: text,
    expiresAt: timestamp,
  },
  HealthResponse: { status: { type: 'string', values: ['ok'] } },
  /** Ours wholly (not in the brief): an OpenID Connect client, never its secret. */
  OidcClientResponse: OIDC_CLIENT,
  /** Ours: the client as created or after a rotation, with its secret shown once (null for a public client). */
  OidcClientWithSecretResponse: { ...OIDC_CLIENT, clientSecret: { ...nullableText, ours: true } },
  /** Ours wholly: a webhook endpoint, never its signing secret. */
  WebhookEndpointResponse: WEBHOOK_ENDPOINT,
  /** Ours: the endpoint as created or after a rotation, with its `whsec_` secret shown once. */
  WebhookEndpointWithSecret: { ...WEBHOOK_ENDPOINT, secret: ours(text) },
  /** Ours wholly: one attempt of the endpoint's delivery log. */
  DeliveryAttemptResponse: {
    id: ours(text),
    eventId: ours(text),
    eventType: ours(text),
    at: ours(timestamp),
    attempt: ours({ type: 'number' }),
    statusCode: ours({ type: 'number', nullable: true }),
    latencyMs: ours({ type: 'number' }),
    error: ours(nullableText),
    retryAt: ours(nullableTimestamp),
  },
  /** Ours wholly: a page of the delivery log, newest first. */
  DeliveryAttemptPage: {
    items: ours({ type: 'array', items: 'DeliveryAttemptResponse' }),
    nextCursor: ours(nullableText),
  },
  /** Ours wholly: what a test event, a redelivery or a replay queued. */
  QueuedResponse: { eventId: ours(nullableText), events: ours({ type: 'number' }) },
} as const satisfies Record<string, Record<string, Field>>;

export type ResourceName = keyof typeof BRIEF_RESOURCES;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const COLOUR = /^#[0-9a-fA-F]{6}$/;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function fieldViolations(field: Field, value: unknown, path: string): string[] {
  if (value === null) return field.nullable ? [] : [`${path}: is null, the brief says ${field.type}`];
  const actual = typeOf(value);
  const expected = field.type === 'integer' ? 'number' : field.type;
  if (actual !== expected) return [`${path}: is ${actual}, the brief says ${field.type}`];
  if (field.type === 'integer' && !Number.isInteger(value)) return [`${path}: ${value} is not an integer`];
  if (field.values && !field.values.includes(value as string | number | boolean)) {
    return [`${path}: ${JSON.stringify(value)} is not one of ${field.values.join(', ')}`];
  }
  if (field.format === 'timestamp' && !TIMESTAMP.test(value as string))
    return [`${path}: not an ISO 8601 UTC timestamp`];
  if (field.format === 'colour' && !COLOUR.test(value as string)) return [`${path}: not a #rrggbb colour`];
  if (field.format === 'otpauth' && !(value as string).startsWith('otpauth://totp/')) {
    return [`${path}: not an otpauth://totp/ URI`];
  }
  if (field.type === 'array' && field.items) {
    const items = field.items;
    return (value as unknown[]).flatMap((item, i) =>
      typeof items === 'string'
        ? violationsOf(items as ResourceName, item, `${path}[${i}]`)
        : fieldViolations(items, item, `${path}[${i}]`),
    );
  }
  if (field.type === 'object' && field.resource) return violationsOf(field.resource as ResourceName, value, path);
  return [];
}

/**
 * How `value` differs from the brief's resource: a field missing (renamed),
 * one the table does not list, a wrong type, null where the brief has none,
 * a value outside the allowed ones. Empty when it is exactly the resource.
 */
export function violationsOf(resource: ResourceName, value: unknown, path: string = resource): string[] {
  const fields: Record<string, Field> | undefined = BRIEF_RESOURCES[resource];
  if (!fields) throw new Error(`no resource ${resource} in the brief's tables`);
  if (typeOf(value) !== 'object') return [`${path}: is ${typeOf(value)}, the brief says a ${resource} object`];
  const object = value as Record<string, unknown>;
  const missing = Object.keys(fields)
    .filter((name) => !Object.hasOwn(object, name))
    .map((name) => `${path}.${name}: missing`);
  const unlisted = Object.keys(object)
    .filter((name) => !Object.hasOwn(fields, name))
    .map((name) => `${path}.${name}: not in the brief's ${resource} (nor marked ours)`);
  const wrong = Object.entries(fields)
    .filter(([name]) => Object.hasOwn(object, name))
    .flatMap(([name, field]) => fieldViolations(field, object[name], `${path}.${name}`));
  return [...missing, ...unlisted, ...wrong];
}
