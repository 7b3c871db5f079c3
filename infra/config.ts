import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import type { ThrottleClass } from '#shared/http/route.ts';

/**
 * Deployment settings, read from CDK context (cdk.json, or `-c key=value`).
 * The defaults here equal those in cdk.json, so an App built in a test without
 * cdk.json gets the same stack.
 */
export interface IdentityConfig {
  /** The From address of every e-mail; its domain (or itself) must be a verified SES identity. */
  senderEmail: string;
  /** SENDER_NAME: the deployment's name in every mail's From (`Acme via <name>`); '' for the sender's domain. */
  senderName: string;
  /**
   * The domain mail is sent from, whose SES identity the stack creates (Easy DKIM, a custom MAIL FROM), printing the
   * DNS records to add; undefined when `senderEmail` names an address whose domain is verified outside the stack.
   */
  senderDomain: string | undefined;
  /**
   * `example`: an example deployment, for the offline checks (`npm run synth`, the tests): its sender may be at a
   * domain reserved for examples, and its templates refuse to deploy (infra/identity-stack.ts).
   */
  example: boolean;
  /** Empty: derived from the API URL (its custom domain's, when there is one) and the base path. */
  issuerUrl: string;
  /**
   * The API's own domain (`apiDomain`, with `apiCertificateArn`: an ACM certificate in the stack's region): the
   * identity base URL and the tokens' `iss` stay the same if the API is ever recreated, and the `execute-api`
   * endpoint is turned off, so that nothing reaches the API but through this domain; undefined: none.
   */
  apiDomain: { domain: string; certificateArn: string } | undefined;
  /**
   * An existing table to use instead of the stack's own (`tableName`): a table restored from a backup or a
   * point in time (README, Restoring the table); undefined: the stack's table.
   */
  tableName: string | undefined;
  /**
   * `tableStreamArn`: with `tableName`, that table's stream (NEW_IMAGE), which the webhooks' dispatcher reads;
   * undefined: the stack's own table's stream (a table given by name without it sends no webhooks, said at synth).
   */
  tableStreamArn: string | undefined;
  /** `webhookEventBus`: an EventBridge bus (name, or ARN) that gets every webhook event too; undefined: none. */
  webhookEventBus: string | undefined;
  /**
   * A daily AWS Backup of the table (`backup`: `daily` or `off`), kept `retentionDays` (`backupRetentionDays`), copied
   * to `copyVaultArn` if set.
   */
  backup: { copyVaultArn: string | undefined; retentionDays: number } | undefined;
  /** `multiRegionKey`: the secrets key is a multi-Region primary key, which a replica in another Region can use. */
  multiRegionKey: boolean;
  /**
   * `kmsKeyArn`: a key to use instead of making one: in a second Region, the replica of the first deployment's
   * multi-Region key, which decrypts what the copied table holds; undefined: the stack's own key.
   */
  kmsKeyArn: string | undefined;
  /**
   * `sesSandbox`: the account is still in the SES sandbox, where SES also checks the sender's permission on each
   * (verified) recipient's identity: the sending functions may then send to any identity of the account.
   */
  sesSandbox: boolean;
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  authRateLimitPerMinute: string;
  /** MAIL_DAILY_BUDGET_PER_TENANT: the `account` budget, mails (codes, invitations) one tenant may send a UTC day. */
  mailDailyBudgetPerTenant: string;
  /** SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT: the `signup` budget, signup codes and notices one tenant may send a UTC day. */
  signupMailDailyBudgetPerTenant: string;
  /** SIGNUPS_PER_IP_PER_HOUR: open signups one IP may make to one tenant an hour. */
  signupsPerIpPerHour: string;
  /** TENANT_CACHE_SECONDS: how late a tenant's settings change may reach its users' requests (0 to 60). */
  tenantCacheSeconds: string;
  /**
   * Stage throttling of each HTTP API: each route's steady rate (requests a second) and burst, by the route's class
   * (shared/http/route.ts, throttleClassOf): `default` is the stage's default route setting.
   */
  apiThrottle: Record<ThrottleClass, { rateLimit: number; burstLimit: number }>;
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
  /**
   * `waf: on`: a web ACL on the hosted pages' distribution (infra/firewall-stack.ts) with these rate limits a minute,
   * and the API answering requests that came through CloudFront only; undefined (`off`): none.
   */
  waf: { ipRequestsPerMinute: number; tenantRequestsPerMinute: number } | undefined;
}

export const CONTEXT_DEFAULTS = {
  example: 'false',
  apiDomain: '',
  apiCertificateArn: '',
  tableName: '',
  tableStreamArn: '',
  webhookEventBus: '',
  backup: 'daily',
  backupCopyVaultArn: '',
  backupRetentionDays: 7,
  multiRegionKey: 'false',
  kmsKeyArn: '',
  sesSandbox: 'false',
  senderDomain: '',
  senderEmail: '',
  senderName: '',
  issuerUrl: '',
  removalPolicy: 'retain',
  logRetentionDays: 30,
  authRateLimitPerMinute: '120',
  mailDailyBudgetPerTenant: '10000',
  signupMailDailyBudgetPerTenant: '5000',
  signupsPerIpPerHour: '20',
  tenantCacheSeconds: '5',
  apiThrottleRateLimit: 500,
  apiThrottleBurstLimit: 1000,
  apiThrottleSessionRateLimit: 3000,
  apiThrottleSessionBurstLimit: 5000,
  apiThrottleArgon2RateLimit: 50,
  apiThrottleArgon2BurstLimit: 100,
  argon2ReservedConcurrency: 'none',
  webDomain: '',
  webCertificateArn: '',
  plantsJwtIssuer: '',
  plantsJwtAudience: '',
  alarmEmail: '',
  tracing: 'active',
  failedLoginsAlarmThreshold: 100,
  refreshReuseAlarmThreshold: 10,
  waf: 'off',
  wafIpRequestsPerMinute: 1000,
  wafTenantRequestsPerMinute: 30000,
} as const;

const REMOVAL_POLICIES: Record<string, RemovalPolicy> = {
  retain: RemovalPolicy.RETAIN,
  destroy: RemovalPolicy.DESTROY,
};

const RETENTION_DAYS = new Set<number>(Object.values(RetentionDays).filter((v) => typeof v === 'number'));

function contextString(node: Node, key: keyof typeof CONTEXT_DEFAULTS): string {
  const value: unknown = node.tryGetContext(key) ?? CONTEXT_DEFAULTS[key];
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw new Error(`Context "${key}" must be a string or a number, got ${JSON.stringify(value)}`);
  }
  return String(value).trim();
}

/** An e-mail address, as far as a deployment setting needs to tell (SES and SNS check it for real). */
const EMAIL_ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Domains reserved for documentation and tests (RFC 2606, RFC 6761): nobody can receive, or send, mail there. */
const RESERVED_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/;
/** The example deployment's sender domain (`-c example=true`). */
export const EXAMPLE_SENDER_DOMAIN = 'example.com';

/** The deployment's name in mails' From, after the tenant's: printable, at most 64 characters. */
function readSenderName(node: Node): string {
  const name = contextString(node, 'senderName').trim();
  const control = [...name].some((char) => (char.codePointAt(0) ?? 0) < 0x20 || char === '\u007f');
  if (name.length > 64 || control) {
    throw new Error('Context "senderName" must be at most 64 printable characters');
  }
  return name;
}

/** The sender: `senderDomain` (an identity the stack makes) or `senderEmail` (at a domain verified beforehand). */
function readSender(node: Node, example: boolean): Pick<IdentityConfig, 'senderEmail' | 'senderDomain'> {
  let senderDomain = contextString(node, 'senderDomain');
  let senderEmail = contextString(node, 'senderEmail');
  if (senderDomain === '' && senderEmail === '') {
    if (!example) {
      throw new Error(
        'Context "senderDomain" is not set: name the domain mail is sent from (-c senderDomain=mail.yourdomain.com); ' +
          'the stack creates its SES identity with DKIM and prints the DNS records to add. Or set "senderEmail" to an ' +
          'address whose domain is already a verified SES identity in this region.',
      );
    }
    senderDomain = EXAMPLE_SENDER_DOMAIN;
  }
  if (senderDomain !== '' && !DOMAIN_NAME.test(senderDomain)) {
    throw new Error(
      `Context "senderDomain" must be a lower-case domain name such as mail.example.org, got "${senderDomain}"`,
    );
  }
  if (senderEmail === '') senderEmail = `no-reply@${senderDomain}`;
  if (!EMAIL_ADDRESS.test(senderEmail)) {
    throw new Error(`Context "senderEmail" must be an e-mail address, got "${senderEmail}"`);
  }
  const emailDomain = senderEmail.slice(senderEmail.lastIndexOf('@') + 1).toLowerCase();
  if (senderDomain !== '' && emailDomain !== senderDomain) {
    throw new Error(`Context "senderEmail" (${senderEmail}) must be an address at "senderDomain" (${senderDomain})`);
  }
  if (!example && RESERVED_DOMAIN.test(emailDomain)) {
    throw new Error(
      `The sender ${senderEmail} is at ${emailDomain}, a domain reserved for examples: no mail can be sent from it, ` +
        'so no user could ever verify a signup. Set "senderDomain" to a domain you control ' +
        '(-c senderDomain=mail.yourdomain.com), or "senderEmail" to an address of a domain verified in SES.',
    );
  }
  return { senderEmail, senderDomain: senderDomain === '' ? undefined : senderDomain };
}

export function readIdentityConfig(node: Node): IdentityConfig {
  const exampleValue = contextString(node, 'example');
  if (exampleValue !== 'true' && exampleValue !== 'false') {
    throw new Error(`Context "example" must be "true" or "false", got "${exampleValue}"`);
  }
  const example = exampleValue === 'true';
  const { senderEmail, senderDomain } = readSender(node, example);

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

  const [mailDailyBudgetPerTenant, signupMailDailyBudgetPerTenant, signupsPerIpPerHour] = (
    ['mailDailyBudgetPerTenant', 'signupMailDailyBudgetPerTenant', 'signupsPerIpPerHour'] as const
  ).map((key) => {
    const value = contextString(node, key);
    if (!/^[1-9][0-9]*$/.test(value)) throw new Error(`Context "${key}" must be a positive integer, got "${value}"`);
    return value;
  }) as [string, string, string];

  const tenantCacheSeconds = contextString(node, 'tenantCacheSeconds');
  if (!/^[0-9]+$/.test(tenantCacheSeconds) || Number(tenantCacheSeconds) > 60) {
    throw new Error(`Context "tenantCacheSeconds" must be an integer from 0 to 60, got "${tenantCacheSeconds}"`);
  }

  const apiThrottle = {
    default: throttleOf(node, 'apiThrottleRateLimit', 'apiThrottleBurstLimit'),
    session: throttleOf(node, 'apiThrottleSessionRateLimit', 'apiThrottleSessionBurstLimit'),
    argon2: throttleOf(node, 'apiThrottleArgon2RateLimit', 'apiThrottleArgon2BurstLimit'),
  };

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
    apiDomain: readApiDomain(node),
    tableName: readTableName(node),
    tableStreamArn: readTableStreamArn(node),
    webhookEventBus: readEventBus(node),
    backup: readBackup(node),
    multiRegionKey: readBoolean(node, 'multiRegionKey'),
    kmsKeyArn: readKmsKeyArn(node),
    sesSandbox: readBoolean(node, 'sesSandbox'),
    plantsJwtAuthorizer: readPlantsJwtAuthorizer(node),
    senderEmail,
    senderDomain,
    senderName: readSenderName(node),
    example,
    issuerUrl: contextString(node, 'issuerUrl'),
    removalPolicy,
    logRetention: days as RetentionDays,
    authRateLimitPerMinute,
    mailDailyBudgetPerTenant,
    signupMailDailyBudgetPerTenant,
    signupsPerIpPerHour,
    tenantCacheSeconds: String(Number(tenantCacheSeconds)),
    apiThrottle,
    argon2ReservedConcurrency,
    alarmEmail: alarmEmail === '' ? undefined : alarmEmail,
    tracing: tracing === 'active',
    alarmThresholds: {
      failedLogins: positiveInteger(node, 'failedLoginsAlarmThreshold'),
      refreshReuse: positiveInteger(node, 'refreshReuseAlarmThreshold'),
    },
    waf: readWaf(node),
  };
}

/** AWS WAF's bounds on a rate-based rule's limit. */
const WAF_LIMIT = { min: 10, max: 2_000_000_000 };

function readWaf(node: Node): IdentityConfig['waf'] {
  const waf = contextString(node, 'waf');
  if (waf !== 'on' && waf !== 'off') throw new Error(`Context "waf" must be "on" or "off", got "${waf}"`);
  if (waf === 'off') return undefined;
  const limit = (key: 'wafIpRequestsPerMinute' | 'wafTenantRequestsPerMinute') => {
    const value = positiveInteger(node, key);
    if (value < WAF_LIMIT.min || value > WAF_LIMIT.max) {
      throw new Error(`Context "${key}" must be from ${WAF_LIMIT.min} to ${WAF_LIMIT.max} (AWS WAF), got ${value}`);
    }
    return value;
  };
  return {
    ipRequestsPerMinute: limit('wafIpRequestsPerMinute'),
    tenantRequestsPerMinute: limit('wafTenantRequestsPerMinute'),
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

/** An ACM certificate's ARN (its region is the stack's, for an API Gateway regional domain). */
const CERTIFICATE = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]+$/;

function readApiDomain(node: Node): IdentityConfig['apiDomain'] {
  const domain = contextString(node, 'apiDomain');
  const certificateArn = contextString(node, 'apiCertificateArn');
  if (domain === '' && certificateArn === '') return undefined;
  if (domain === '' || certificateArn === '') {
    throw new Error('Context "apiDomain" and "apiCertificateArn" go together: set both, or neither');
  }
  if (!DOMAIN_NAME.test(domain)) {
    throw new Error(`Context "apiDomain" must be a lower-case domain name such as api.example.com, got "${domain}"`);
  }
  if (!CERTIFICATE.test(certificateArn)) {
    throw new Error(
      `Context "apiCertificateArn" must be the ARN of an ACM certificate in the stack's region for ${domain}, got "${certificateArn}"`,
    );
  }
  return { domain, certificateArn };
}

/** DynamoDB's table names: 3 to 255 letters, digits, `_`, `-` and `.`. */
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

function readTableName(node: Node): string | undefined {
  const name = contextString(node, 'tableName');
  if (name === '') return undefined;
  if (!TABLE_NAME.test(name)) throw new Error(`Context "tableName" must be a DynamoDB table name, got "${name}"`);
  return name;
}

/** A DynamoDB stream's ARN. */
const STREAM_ARN = /^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/[A-Za-z0-9_.-]{3,255}\/stream\/[0-9T:.-]+$/;

function readTableStreamArn(node: Node): string | undefined {
  const arn = contextString(node, 'tableStreamArn');
  if (arn === '') return undefined;
  if (!STREAM_ARN.test(arn)) throw new Error(`Context "tableStreamArn" must be a DynamoDB stream's ARN, got "${arn}"`);
  if (contextString(node, 'tableName') === '') throw new Error('Context "tableStreamArn" goes with "tableName"');
  return arn;
}

/** An EventBridge bus: its name, or its ARN (another account's bus, which lets this one put events). */
const EVENT_BUS = /^([A-Za-z0-9._-]{1,256}|arn:aws[a-z-]*:events:[a-z0-9-]+:\d{12}:event-bus\/[A-Za-z0-9._/-]{1,256})$/;

function readEventBus(node: Node): string | undefined {
  const bus = contextString(node, 'webhookEventBus');
  if (bus === '') return undefined;
  if (!EVENT_BUS.test(bus))
    throw new Error(`Context "webhookEventBus" must be an EventBridge bus name or ARN, got "${bus}"`);
  return bus;
}

/** An AWS Backup vault's ARN, in any region and account (a copy's destination). */
const BACKUP_VAULT = /^arn:aws[a-z-]*:backup:[a-z0-9-]+:\d{12}:backup-vault:[A-Za-z0-9_.-]+$/;

/** Ten years: past that, an archive is the better tool (and a daily full copy for that long costs 3,650 tables). */
const MAX_BACKUP_RETENTION_DAYS = 3650;

function readBackup(node: Node): IdentityConfig['backup'] {
  const backup = contextString(node, 'backup');
  if (backup !== 'daily' && backup !== 'off') {
    throw new Error(`Context "backup" must be "daily" or "off", got "${backup}"`);
  }
  const copyVaultArn = contextString(node, 'backupCopyVaultArn');
  if (copyVaultArn !== '' && !BACKUP_VAULT.test(copyVaultArn)) {
    throw new Error(`Context "backupCopyVaultArn" must be the ARN of an AWS Backup vault, got "${copyVaultArn}"`);
  }
  if (backup === 'off') {
    if (copyVaultArn !== '') throw new Error('Context "backupCopyVaultArn" needs "backup": "daily"');
    return undefined;
  }
  const retentionDays = positiveInteger(node, 'backupRetentionDays');
  if (retentionDays > MAX_BACKUP_RETENTION_DAYS) {
    throw new Error(
      `Context "backupRetentionDays" must be from 1 to ${MAX_BACKUP_RETENTION_DAYS}, got ${retentionDays}`,
    );
  }
  return { copyVaultArn: copyVaultArn === '' ? undefined : copyVaultArn, retentionDays };
}

/** A KMS key's ARN; a multi-Region key's id starts with `mrk-`. */
const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/(mrk-)?[0-9a-f-]+$/;

function readKmsKeyArn(node: Node): string | undefined {
  const arn = contextString(node, 'kmsKeyArn');
  if (arn === '') return undefined;
  if (!KMS_KEY_ARN.test(arn)) throw new Error(`Context "kmsKeyArn" must be the ARN of a KMS key, got "${arn}"`);
  if (contextString(node, 'multiRegionKey') === 'true') {
    throw new Error(
      'Context "multiRegionKey" makes the stack\'s own key: it cannot go with "kmsKeyArn", a key made elsewhere',
    );
  }
  return arn;
}

function readBoolean(node: Node, key: 'multiRegionKey' | 'sesSandbox'): boolean {
  const value = contextString(node, key);
  if (value !== 'true' && value !== 'false') throw new Error(`Context "${key}" must be true or false, got "${value}"`);
  return value === 'true';
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

/**
 * A steady rate and a burst. API Gateway's account quota in a region (10,000 requests a second, burst 5,000, shared
 * by every API of the account) caps them all: a route setting above it is never reached.
 */
function throttleOf(
  node: Node,
  rateKey: keyof typeof CONTEXT_DEFAULTS,
  burstKey: keyof typeof CONTEXT_DEFAULTS,
): { rateLimit: number; burstLimit: number } {
  const rateLimit = positiveInteger(node, rateKey);
  const burstLimit = positiveInteger(node, burstKey);
  if (burstLimit < rateLimit) {
    throw new Error(`Context "${burstKey}" (${burstLimit}) must be at least "${rateKey}" (${rateLimit})`);
  }
  return { rateLimit, burstLimit };
}

function positiveInteger(node: Node, key: keyof typeof CONTEXT_DEFAULTS): number {
  const value = contextString(node, key);
  if (!/^[1-9][0-9]*$/.test(value)) {
    const none = key === 'argon2ReservedConcurrency' ? ' or "none"' : '';
    throw new Error(`Context "${key}" must be a positive integer${none}, got "${value}"`);
  }
  return Number(value);
}
