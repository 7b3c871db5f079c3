import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

/**
 * Deployment settings, read from CDK context (cdk.json, or `-c key=value`).
 * The defaults here equal those in cdk.json, so an App built in a test without
 * cdk.json gets the same stack.
 */
export interface IdentityConfig {
  /** The From address of every e-mail; its domain (or itself) must be a verified SES identity. */
  senderEmail: string;
  /** Empty: derived from the API URL and the base path. */
  issuerUrl: string;
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  authRateLimitPerMinute: string;
  /** MAIL_DAILY_BUDGET_PER_TENANT: mails (codes, notices, invitations) one tenant may send a UTC day. */
  mailDailyBudgetPerTenant: string;
  /** Stage throttling of each HTTP API: every route's steady rate (requests a second) and burst. */
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** Reserved concurrency of each argon2 function (route rows flagged `argon2`); undefined: none reserved. */
  argon2ReservedConcurrency: number | undefined;
  /**
   * The hosted pages' domain (`id.example.com`: tenant pages at `https://<subdomain>.id.example.com/`) and
   * the ACM certificate (us-east-1, for `*.<domain>`) CloudFront answers it with; undefined: none given.
   */
  web: { domain: string; certificateArn: string } | undefined;
  /**
   * The plant store's second mode (`plantsJwtIssuer`, `plantsJwtAudience`): an API Gateway JWT authorizer on its
   * token routes, for the access tokens an OpenID Provider (a tenant's issuer) signs RS256 for these client ids;
   * undefined: none (the handler checks the identity API's own tokens itself).
   */
  plantsJwtAuthorizer: { issuer: string; audience: string[] } | undefined;
  /**
   * Where the alarms notify (`alarmEmail`): an e-mail subscription to the alarm topic (infra/monitoring.ts);
   * undefined: none (the topic is there, for a subscription made by hand or by another stack).
   */
  alarmEmail: string | undefined;
  /** Lambda active tracing (X-Ray) on every function (`tracing`: `active` or `off`). */
  tracing: boolean;
  /** The spike alarms (infra/monitoring.ts): how many in 5 minutes is a spike. */
  alarmThresholds: { failedLogins: number; refreshReuse: number };
}

export const CONTEXT_DEFAULTS = {
  senderEmail: 'no-reply@example.com',
  issuerUrl: '',
  removalPolicy: 'retain',
  logRetentionDays: 30,
  authRateLimitPerMinute: '120',
  mailDailyBudgetPerTenant: '10000',
  apiThrottleRateLimit: 100,
  apiThrottleBurstLimit: 200,
  argon2ReservedConcurrency: 10,
  webDomain: '',
  webCertificateArn: '',
  plantsJwtIssuer: '',
  plantsJwtAudience: '',
  alarmEmail: '',
  tracing: 'active',
  failedLoginsAlarmThreshold: 100,
  refreshReuseAlarmThreshold: 10,
} as const;

const REMOVAL_POLICIES: Record<string, RemovalPolicy> = {
  retain: RemovalPolicy.RETAIN,
  destroy: RemovalPolicy.DESTROY,
};

const RETENTION_DAYS = new Set<number>(Object.values(RetentionDays).filter((v) => typeof v === 'number'));

function contextString(node: Node, key: keyof typeof CONTEXT_DEFAULTS): string {
  const value: unknown = node.tryGetContext(key) ?? CONTEXT_DEFAULTS[key];
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new Error(`Context "${key}" must be a string or a number, got ${JSON.stringify(value)}`);
  }
  return String(value).trim();
}

/** An e-mail address, as far as a deployment setting needs to tell (SES and SNS check it for real). */
const EMAIL_ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function readIdentityConfig(node: Node): IdentityConfig {
  const senderEmail = contextString(node, 'senderEmail');
  if (!EMAIL_ADDRESS.test(senderEmail)) {
    throw new Error(`Context "senderEmail" must be an e-mail address, got "${senderEmail}"`);
  }

  const removalName = contextString(node, 'removalPolicy');
  const removalPolicy = REMOVAL_POLICIES[removalName];
  if (removalPolicy === undefined) {
    throw new Error(`Context "removalPolicy" must be "retain" or "destroy", got "${removalName}"`);
  }

  const days = Number(contextString(node, 'logRetentionDays'));
  if (!RETENTION_DAYS.has(days)) {
    throw new Error(
      `Context "logRetentionDays" must be one of ${[...RETENTION_DAYS].join(', ')} (CloudWatch Logs), got "${days}"`,
    );
  }

  const authRateLimitPerMinute = contextString(node, 'authRateLimitPerMinute');
  if (!/^[1-9][0-9]*$/.test(authRateLimitPerMinute)) {
    throw new Error(`Context "authRateLimitPerMinute" must be a positive integer, got "${authRateLimitPerMinute}"`);
  }

  const mailDailyBudgetPerTenant = contextString(node, 'mailDailyBudgetPerTenant');
  if (!/^[1-9][0-9]*$/.test(mailDailyBudgetPerTenant)) {
    throw new Error(`Context "mailDailyBudgetPerTenant" must be a positive integer, got "${mailDailyBudgetPerTenant}"`);
  }

  const [rateLimit, burstLimit] = (['apiThrottleRateLimit', 'apiThrottleBurstLimit'] as const).map((key) =>
    positiveInteger(node, key),
  ) as [number, number];
  if (burstLimit < rateLimit) {
    throw new Error(
      `Context "apiThrottleBurstLimit" (${burstLimit}) must be at least "apiThrottleRateLimit" (${rateLimit})`,
    );
  }

  // `none` leaves the argon2 functions unreserved: for an account whose concurrency quota is too small to reserve
  // any (Lambda keeps at least 100 unreserved), such as a new account's 10.
  const reserved = contextString(node, 'argon2ReservedConcurrency');
  const argon2ReservedConcurrency =
    reserved === 'none' ? undefined : positiveInteger(node, 'argon2ReservedConcurrency');

  const alarmEmail = contextString(node, 'alarmEmail');
  if (alarmEmail !== '' && !EMAIL_ADDRESS.test(alarmEmail)) {
    throw new Error(`Context "alarmEmail" must be an e-mail address, or "" for no subscription, got "${alarmEmail}"`);
  }

  const tracing = contextString(node, 'tracing');
  if (tracing !== 'active' && tracing !== 'off') {
    throw new Error(`Context "tracing" must be "active" or "off", got "${tracing}"`);
  }

  return {
    web: readWebConfig(node),
    plantsJwtAuthorizer: readPlantsJwtAuthorizer(node),
    senderEmail,
    issuerUrl: contextString(node, 'issuerUrl'),
    removalPolicy,
    logRetention: days as RetentionDays,
    authRateLimitPerMinute,
    mailDailyBudgetPerTenant,
    apiThrottle: { rateLimit, burstLimit },
    argon2ReservedConcurrency,
    alarmEmail: alarmEmail === '' ? undefined : alarmEmail,
    tracing: tracing === 'active',
    alarmThresholds: {
      failedLogins: positiveInteger(node, 'failedLoginsAlarmThreshold'),
      refreshReuse: positiveInteger(node, 'refreshReuseAlarmThreshold'),
    },
  };
}

/** A DNS name of at least two labels, lower case, no trailing dot. */
const DOMAIN_NAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;
/** CloudFront takes certificates from us-east-1 only. */
const US_EAST_1_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/;

function readWebConfig(node: Node): IdentityConfig['web'] {
  const domain = contextString(node, 'webDomain');
  const certificateArn = contextString(node, 'webCertificateArn');
  if (domain === '' && certificateArn === '') return undefined;
  if (domain === '' || certificateArn === '') {
    throw new Error('Context "webDomain" and "webCertificateArn" go together: set both, or neither');
  }
  if (!DOMAIN_NAME.test(domain)) {
    throw new Error(`Context "webDomain" must be a lower-case domain name such as id.example.com, got "${domain}"`);
  }
  if (!US_EAST_1_CERTIFICATE.test(certificateArn)) {
    throw new Error(
      `Context "webCertificateArn" must be the ARN of an ACM certificate in us-east-1 (CloudFront's region), got "${certificateArn}"`,
    );
  }
  return { domain, certificateArn };
}

/**
 * An audience entry: a client id as the issuer writes it in `aud` / `client_id` (printable, no space and no
 * comma, which separates the entries of a `-c plantsJwtAudience=a,b` value).
 */
const AUDIENCE_ENTRY = /^[\x21-\x2b\x2d-\x7e]{1,256}$/;

function readPlantsJwtAuthorizer(node: Node): IdentityConfig['plantsJwtAuthorizer'] {
  const issuer = contextString(node, 'plantsJwtIssuer');
  // One or more client ids: a JSON array in cdk.json, or a comma-separated string (`-c plantsJwtAudience=a,b`).
  const raw: unknown = node.tryGetContext('plantsJwtAudience') ?? CONTEXT_DEFAULTS.plantsJwtAudience;
  let entries: unknown[];
  if (Array.isArray(raw)) entries = raw;
  else if (typeof raw === 'string') entries = raw.split(',');
  else
    throw new Error(
      `Context "plantsJwtAudience" must be a client id, a comma-separated list or an array of them, got ${JSON.stringify(raw)}`,
    );
  const audience = entries.map((entry) => (typeof entry === 'string' ? entry.trim() : entry)).filter((e) => e !== '');
  if (issuer === '' && audience.length === 0) return undefined;
  if (issuer === '' || audience.length === 0) {
    throw new Error('Context "plantsJwtIssuer" and "plantsJwtAudience" go together: set both, or neither');
  }
  // API Gateway takes an https issuer only, and compares it with `iss` exactly: no query, fragment or credentials.
  const url = URL.canParse(issuer) ? new URL(issuer) : undefined;
  if (url?.protocol !== 'https:' || url.search !== '' || url.hash !== '' || url.username || url.password) {
    throw new Error(
      `Context "plantsJwtIssuer" must be an https URL without query or fragment (a tenant's issuer, such as https://shop.id.example.com), got "${issuer}"`,
    );
  }
  for (const entry of audience) {
    if (typeof entry !== 'string' || !AUDIENCE_ENTRY.test(entry)) {
      throw new Error(
        `Context "plantsJwtAudience" must list client ids (no spaces or commas), got ${JSON.stringify(entry)}`,
      );
    }
  }
  const unique = [...new Set(audience as string[])];
  return { issuer, audience: unique };
}

function positiveInteger(node: Node, key: keyof typeof CONTEXT_DEFAULTS): number {
  const value = contextString(node, key);
  if (!/^[1-9][0-9]*$/.test(value)) {
    const none = key === 'argon2ReservedConcurrency' ? ' or "none"' : '';
    throw new Error(`Context "${key}" must be a positive integer${none}, got "${value}"`);
  }
  return Number(value);
}
