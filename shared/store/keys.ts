/**
 * Every key the service writes, built in one place. The tenant (`app`, `mid`)
 * is the first segment of every tenant-owned key, so a read scoped to one
 * tenant cannot reach another's items. The access patterns are listed in
 * ./README.md; change both together.
 */
/** What a lockout counts guesses of: passwords and login codes, or one kind of mailed code. */
export type LockPurpose = 'LOGIN' | 'PASSWORD_RESET' | 'SIGNUP' | 'EMAIL_CHANGE';

/**
 * A tenant's two daily mail budgets: `signup` for what signups mail (codes to new addresses, "already registered"
 * notices), which anyone can spend; `account` for every other counted mail, which signups never spend.
 */
export type MailBudget = 'signup' | 'account';

export interface TenantRef {
  app: string;
  mid: string;
}

/**
 * Any value becomes exactly one segment: percent-encoding keeps `#` (the
 * separator) out of it and leaves generated ids (letters, digits, `_`, `-`)
 * as they are. So an id or origin a client made up names nothing, and reads
 * answer "not found" rather than fail.
 */
function segment(value: string): string {
  return encodeURIComponent(value);
}

const tenantPrefix = (t: TenantRef) => `T#${segment(t.app)}#${segment(t.mid)}`;
const userPartition = (t: TenantRef, userId: string) => `${tenantPrefix(t)}#U#${segment(userId)}`;

export const keys = {
  /** The merchant item; also indexed by its public client key for discovery. */
  merchant: (t: TenantRef) => ({ pk: tenantPrefix(t), sk: 'MERCHANT' }),
  merchantByClientKey: (publicApiKey: string) => ({ gsi1pk: `CLIENT#${segment(publicApiKey)}`, gsi1sk: 'MERCHANT' }),
  /** Global uniqueness of subdomains (the item exists while a tenant holds it). */
  subdomain: (subdomain: string) => ({ pk: `SUBDOMAIN#${segment(subdomain)}`, sk: 'SUBDOMAIN' }),
  /** Which tenants allow an origin: answers CORS preflight, which carries no tenant headers. */
  originAllowed: (origin: string, t: TenantRef) => ({ pk: `ORIGIN#${segment(origin)}`, sk: tenantPrefix(t) }),
  originPartition: (origin: string) => `ORIGIN#${segment(origin)}`,

  role: (t: TenantRef, roleId: string) => ({ pk: tenantPrefix(t), sk: `ROLE#${segment(roleId)}` }),
  rolePrefix: 'ROLE#',
  /** Role names are unique per tenant (upper-cased). */
  roleName: (t: TenantRef, name: string) => ({ pk: tenantPrefix(t), sk: `ROLENAME#${segment(name.toUpperCase())}` }),

  /**
   * The user lives in its own partition, so one busy tenant spreads over many
   * partitions. The profile item holds the role grants too, so one read gives
   * a user's status and authority.
   */
  user: (t: TenantRef, userId: string) => ({ pk: userPartition(t, userId), sk: 'PROFILE' }),
  usersOfTenant: (t: TenantRef, userId: string) => ({
    gsi1pk: `${tenantPrefix(t)}#USERS`,
    gsi1sk: `U#${segment(userId)}`,
  }),
  /** E-mail uniqueness within a tenant; holds the user id (lower-cased, trimmed e-mail). */
  userEmail: (t: TenantRef, email: string) => ({ pk: `${tenantPrefix(t)}#EMAIL#${segment(email)}`, sk: 'EMAIL' }),
  /** A login session, beside its user: the bearer check reads it with the profile in one BatchGetItem. */
  session: (t: TenantRef, userId: string, sessionId: string) => ({
    pk: userPartition(t, userId),
    sk: `SESSION#${segment(sessionId)}`,
  }),
  sessionPrefix: 'SESSION#',
  /** A refresh token already rotated out: its hash, for reuse detection. */
  usedRefreshToken: (t: TenantRef, userId: string, tokenHash: string) => ({
    pk: userPartition(t, userId),
    sk: `RTUSED#${segment(tokenHash)}`,
  }),
  device: (t: TenantRef, userId: string, fingerprint: string) => ({
    pk: userPartition(t, userId),
    sk: `DEVICE#${segment(fingerprint)}`,
  }),
  devicePrefix: 'DEVICE#',
  userPartition,
  /** Activity of a user in key order `<ISO time>#<id>` (read newest first); retained by TTL. */
  activity: (t: TenantRef, userId: string, at: string, activityId: string) => ({
    pk: `${userPartition(t, userId)}#ACT`,
    sk: `${at}#${segment(activityId)}`,
  }),
  activityPartition: (t: TenantRef, userId: string) => `${userPartition(t, userId)}#ACT`,
  /** A pending e-mail code or TOTP step (login, signup, password reset, e-mail change). */
  challenge: (t: TenantRef, challengeId: string) => ({
    pk: `${tenantPrefix(t)}#CH#${segment(challengeId)}`,
    sk: 'CHALLENGE',
  }),
  /** An invitation, found by the hash of its token (the token itself is never stored). */
  invitation: (t: TenantRef, tokenHash: string) => ({
    pk: `${tenantPrefix(t)}#INV#${segment(tokenHash)}`,
    sk: 'INVITATION',
  }),
  /**
   * Failed guesses of one (tenant, address, purpose), whether or not the
   * account exists: logins (`LOCK`, as before purposes) and each kind of
   * mailed code (`LOCK#<purpose>`), so a new challenge never resets the count.
   */
  lockout: (t: TenantRef, email: string, purpose: LockPurpose = 'LOGIN') => ({
    pk: `${tenantPrefix(t)}#LOCK#${segment(email)}`,
    sk: purpose === 'LOGIN' ? 'LOCK' : `LOCK#${purpose}`,
  }),
  /** Auth requests of one (tenant, IP) in one minute. */
  rateWindow: (t: TenantRef, ip: string, minute: number) => ({
    pk: `${tenantPrefix(t)}#RATE#${segment(ip)}#${minute}`,
    sk: 'RATE',
  }),
  /**
   * Mail sent to one address for one purpose (a code kind, the ALREADY_REGISTERED notice, an
   * invitation): the send times the per-recipient limit judges (mail-limit-repo). The address is
   * the normalised one, so case variants share one counter.
   */
  mailRecipient: (t: TenantRef, purpose: string, email: string) => ({
    pk: `${tenantPrefix(t)}#MAIL#${segment(purpose)}#${segment(email)}`,
    sk: 'MAIL',
  }),
  /**
   * Mail to one address of the tenant stopped by SES's feedback: a hard bounce or a complaint, recorded
   * by the SES events function (functions/mail/ses-events.ts), read before every mail to the address, cleared by
   * an admin. The address is the normalised one (trimmed, lower-cased), as mail-limit keys have it.
   */
  mailSuppression: (t: TenantRef, email: string) => ({
    pk: `${tenantPrefix(t)}#MAILSUPP#${segment(email)}`,
    sk: 'MAILSUPP',
  }),
  /**
   * The tenant's mail of one UTC day (`YYYY-MM-DD`), counted against one of its two daily budgets: `account` (as
   * before there were two) and `signup`.
   */
  mailDay: (t: TenantRef, budget: MailBudget, day: string) => ({
    pk: `${tenantPrefix(t)}#MAILDAY#${segment(day)}`,
    sk: budget === 'account' ? 'MAILDAY' : 'MAILDAY#SIGNUP',
  }),
  /** Open signups of one (tenant, IP) in one hour (hours since the epoch). */
  signupWindow: (t: TenantRef, ip: string, hour: number) => ({
    pk: `${tenantPrefix(t)}#SIGNUPRATE#${segment(ip)}#${hour}`,
    sk: 'SIGNUPRATE',
  }),
  /** An admin API key: `sk_<keyId>_<secret>` names its item; only the secret's hash is stored. */
  apiKey: (t: TenantRef, keyId: string) => ({ pk: tenantPrefix(t), sk: `APIKEY#${segment(keyId)}` }),
  apiKeyPrefix: 'APIKEY#',
  /** An OpenID Connect client of the tenant (shared/oidc/clients.ts); only its secret's hash is stored. */
  oidcClient: (t: TenantRef, clientId: string) => ({ pk: tenantPrefix(t), sk: `OIDCCLIENT#${segment(clientId)}` }),
  oidcClientPrefix: 'OIDCCLIENT#',
  /** A pending OpenID Connect authorization request (shared/oidc/authorize.ts), by its id; 10 minutes. */
  oidcRequest: (t: TenantRef, requestId: string) => ({
    pk: `${tenantPrefix(t)}#OIDCREQ#${segment(requestId)}`,
    sk: 'OIDCREQ',
  }),
  /** An authorization code, by the SHA-256 of the code (never the code); redeemable for 60 s. */
  oidcCode: (t: TenantRef, codeHash: string) => ({
    pk: `${tenantPrefix(t)}#OIDCCODE#${segment(codeHash)}`,
    sk: 'OIDCCODE',
  }),
  /** A user's consent to a third-party client's scopes, beside the user. */
  oidcConsent: (t: TenantRef, userId: string, clientId: string) => ({
    pk: userPartition(t, userId),
    sk: `CONSENT#${segment(clientId)}`,
  }),
  /** A pending RP-initiated logout (where the sign-out page goes next), by its id; 10 minutes. */
  oidcLogout: (t: TenantRef, logoutId: string) => ({
    pk: `${tenantPrefix(t)}#OIDCLOGOUT#${segment(logoutId)}`,
    sk: 'OIDCLOGOUT',
  }),
  /** Tenant-level audit records that outlive their subject (a deleted user), newest last; `ttl` 400 days. */
  audit: (t: TenantRef, at: string, auditId: string) => ({
    pk: `${tenantPrefix(t)}#AUDIT`,
    sk: `${at}#${segment(auditId)}`,
  }),
  /** Token-signing keys: one issuer for every tenant. */
  signingKey: (kid: string) => ({ pk: 'KEYS', sk: `SIGNING#${segment(kid)}` }),
  signingKeysPartition: 'KEYS',
  signingKeyPrefix: 'SIGNING#',
  /** The server key that derives a refresh token's successor from it (shared/tokens/refresh-successor.ts). */
  refreshMacKey: { pk: 'KEYS', sk: 'REFRESH_MAC' },
} as const;

/**
 * The keys of passkeys, kept apart from `keys` so that only the bundles that touch passkeys carry them (an object's
 * unused members are not shaken out of a bundle; an unused export is).
 */
export const passkeyKeys = {
  /** A passkey, beside its user; its id is derived from the credential id (shared/passkeys/credentials.ts). */
  passkey: (t: TenantRef, userId: string, passkeyId: string) => ({
    pk: userPartition(t, userId),
    sk: `PASSKEY#${segment(passkeyId)}`,
  }),
  prefix: 'PASSKEY#',
  /** A credential id is one user's in the tenant: the claim holds the user id while the passkey exists. */
  claim: (t: TenantRef, passkeyId: string) => ({
    pk: `${tenantPrefix(t)}#PASSKEYID#${segment(passkeyId)}`,
    sk: 'PASSKEYID',
  }),
  /** A WebAuthn challenge handed out and not yet answered, by the SHA-256 of the challenge; 5 minutes. */
  challenge: (t: TenantRef, challengeHash: string) => ({
    pk: `${tenantPrefix(t)}#PKCH#${segment(challengeHash)}`,
    sk: 'PKCH',
  }),
} as const;

/**
 * The keys of sign-in providers (shared/sign-in-providers/), kept apart from `keys` for the same reason as
 * passkeyKeys: only the bundles that touch providers carry them.
 */
export const signInProviderKeys = {
  /** A provider of the tenant: its settings and vault-encrypted secret. */
  provider: (t: TenantRef, providerId: string) => ({
    pk: tenantPrefix(t),
    sk: `SIGNINPROVIDER#${segment(providerId)}`,
  }),
  prefix: 'SIGNINPROVIDER#',
  /** A sign-in started at a provider and not yet come back, by the SHA-256 of its `state`; 10 minutes. */
  flow: (t: TenantRef, stateHash: string) => ({ pk: `${tenantPrefix(t)}#PFLOW#${segment(stateHash)}`, sk: 'PFLOW' }),
  /** What the provider proved, waiting for the page that started to take it, by the SHA-256 of its handle. */
  result: (t: TenantRef, resultHash: string) => ({
    pk: `${tenantPrefix(t)}#PRESULT#${segment(resultHash)}`,
    sk: 'PRESULT',
  }),
  /** A provider account linked to the user, beside the user: one per provider. */
  identity: (t: TenantRef, userId: string, providerId: string) => ({
    pk: userPartition(t, userId),
    sk: `IDENTITY#${segment(providerId)}`,
  }),
  identityPrefix: 'IDENTITY#',
  /** A provider account is one user's in the tenant: the claim holds the user id while the link exists. */
  identityClaim: (t: TenantRef, providerId: string, subjectHash: string) => ({
    pk: `${tenantPrefix(t)}#IDENTITYOF#${segment(providerId)}#${segment(subjectHash)}`,
    sk: 'IDENTITYOF',
  }),
} as const;

/** The tenant whose key this is (`T#<app>#<mid>#…`), for a reader that sees items, not requests (the table's stream). */
export function tenantOfKey(pk: string): TenantRef | null {
  const [marker, app, mid] = pk.split('#');
  if (marker !== 'T' || !app || !mid) return null;
  try {
    return { app: decodeURIComponent(app), mid: decodeURIComponent(mid) };
  } catch {
    return null;
  }
}

export const webhookKeys = {
  /** A webhook endpoint of the tenant: its URL, event types and vault-encrypted signing secrets. */
  endpoint: (t: TenantRef, endpointId: string) => ({ pk: tenantPrefix(t), sk: `WEBHOOK#${segment(endpointId)}` }),
  prefix: 'WEBHOOK#',
  /** The tenant's events, in time order `<timestamp>#<event id>`, kept 30 days: what "Redeliver" and "Replay" send. */
  event: (t: TenantRef, timestamp: string, eventId: string) => ({
    pk: `${tenantPrefix(t)}#WHEVENTS`,
    sk: `${timestamp}#${segment(eventId)}`,
  }),
  eventPartition: (t: TenantRef) => `${tenantPrefix(t)}#WHEVENTS`,
  /** An endpoint's delivery attempts, in time order, kept 30 days. */
  attempt: (t: TenantRef, endpointId: string, at: string, attemptId: string) => ({
    pk: `${tenantPrefix(t)}#WHLOG#${segment(endpointId)}`,
    sk: `${at}#${segment(attemptId)}`,
  }),
  attemptPartition: (t: TenantRef, endpointId: string) => `${tenantPrefix(t)}#WHLOG#${segment(endpointId)}`,
  /** An admin's "send test event", "redeliver" or "replay", for the dispatcher to carry out (by the table's stream). */
  request: (t: TenantRef, requestId: string) => ({ pk: `${tenantPrefix(t)}#WHREQ#${segment(requestId)}`, sk: 'WHREQ' }),
} as const;
