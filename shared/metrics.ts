import type { MailMessage } from './mail/message.ts';

/**
 * What the operator sees of the service in CloudWatch metrics (the README's Operations section). The
 * names here are the one source of the functions' metrics (shared/http/request-metrics.ts) and of the alarms and
 * the dashboard that read them (infra/monitoring.ts).
 *
 * Dimensions are low-cardinality only: `service` (the stack's name, so that two deployments in one account stay
 * apart), `route` (the operationId, about sixty), `outcome` (a family of answers, below) and, on `MailsFailed`
 * only, `kind` (the mail's kind, a dozen). The tenant and the
 * user go in the request's summary log line, never in a metric: thousands of tenants would be thousands of
 * custom metrics, and a metric must carry no personal data.
 */

/** The identity service's metric namespace (its handlers name it: shared/http/handler.ts). */
export const IDENTITY_METRICS_NAMESPACE = 'IdentityService';
/** The plant store's (a separate service, so a separate namespace). */
export const PLANTS_METRICS_NAMESPACE = 'PlantStore';

/** Per request, with dimensions service and route: how many, and how long the function took (ms). */
export const REQUESTS = 'Requests';
export const LATENCY = 'Latency';
/**
 * Per request too, with dimensions service, route and outcome: `Requests` again, so that a route's answers can
 * be counted by family (its 5xx rate is `server_error` over all).
 */
export const OUTCOME_DIMENSION = 'outcome';
export const ROUTE_DIMENSION = 'route';
export const SERVICE_DIMENSION = 'service';

/**
 * The family of an answer, by its status: each problem code belongs to the family of its status
 * (shared/errors.ts), so the families are few and fixed; the code itself is in the summary log line.
 */
export type Outcome =
  | 'success'
  | 'invalid_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'server_error'
  | 'unavailable';

const OUTCOME_BY_STATUS: Partial<Record<number, Outcome>> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
  503: 'unavailable',
};

export function outcomeOf(status: number): Outcome {
  if (status < 400) return 'success';
  return OUTCOME_BY_STATUS[status] ?? (status >= 500 ? 'server_error' : 'invalid_request');
}

/**
 * Counters of what matters beyond an answer's status, with the dimension service only (one series each, summed
 * over every route that can cause them). Security: a credential refused at sign-in (password, e-mail code, TOTP
 * or backup code), an account or address locked by it, a request refused by a rate limit (429), a rotated
 * refresh token presented again (its session revoked), a guarded change refused for want of a recent sign-in,
 * a mail not sent because its recipient or tenant reached a limit. Business: accounts created by sign-up,
 * sign-ups verified, sessions started (every sign-in, and a verified sign-up's first session).
 */
export const SECURITY_COUNTERS = [
  'FailedLogins',
  'Lockouts',
  'RateLimited',
  'RefreshReuse',
  'ReauthRequired',
  'MailsSuppressed',
] as const;
export const BUSINESS_COUNTERS = ['Signups', 'SignupsVerified', 'SessionsStarted'] as const;
/** How the service runs: a direct read (shared/store/direct-read.ts) that the SDK's client had to do instead. */
export const OPERATIONS_COUNTERS = ['DirectReadFallback'] as const;
export const COUNTERS = [...SECURITY_COUNTERS, ...BUSINESS_COUNTERS, ...OPERATIONS_COUNTERS] as const;

export type Counter = (typeof COUNTERS)[number];

/**
 * A mail SES refused: `MailsFailed` with the dimensions service and `kind`, the mail's kind
 * (MailMessage['kind']: SIGNUP_CODE, LOGIN_CODE, PASSWORD_RESET_CODE, INVITATION, the notices…, a dozen fixed
 * values), so that a failing kind of mail shows apart. Not among COUNTERS: those have the dimension service alone.
 */
export const MAILS_FAILED = 'MailsFailed';
export const MAIL_KIND_DIMENSION = 'kind';
export type MailKind = MailMessage['kind'];

/**
 * What the domain tells the operator about the request it serves, beyond its answer: counters, and the user it
 * concerned (for the summary log line; never a metric). httpHandler gives each request its own.
 */
export interface Signals {
  count(counter: Counter): void;
  /** A mail of this kind that SES refused (`MailsFailed`, by kind). */
  mailFailed(kind: MailKind): void;
  /** The user the request was about, once known (a sign-in's account, even when its answer hides it). */
  user(userId: string): void;
}

/** Signals that go nowhere: deps outside a request (scripts, the local tenant command). */
export const noSignals: Signals = { count: () => {}, mailFailed: () => {}, user: () => {} };

let directReadFallbacks = 0;

/** A direct read left to the SDK's client (shared/store/direct-read.ts, which knows no request). */
export function countDirectReadFallback(): void {
  directReadFallbacks += 1;
}

/**
 * The direct reads left to the client since the last call: httpHandler adds them to the request it reports. Exact on
 * Lambda, which serves one request at a time per process; the local stack's concurrent requests may share theirs.
 */
export function takeDirectReadFallbacks(): number {
  const taken = directReadFallbacks;
  directReadFallbacks = 0;
  return taken;
}
