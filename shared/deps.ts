import * as v from 'valibot';
import { type Argon2Params, PRODUCTION_ARGON2, parseArgon2Params } from './auth/passwords.ts';
import { type Clock, systemClock } from './clock.ts';
import { type KeyVault, kmsKeyVault, localKeyVault } from './crypto/key-vault.ts';
import { type Logger, loggerAt, type RequestLog, requestLogAt } from './log.ts';
import type { Mailer } from './mail/message.ts';
import { noSignals, type Signals } from './metrics.ts';
import { cryptoRandom, type Random } from './random.ts';
import { createStoreClient, type StoreClient } from './store/client.ts';
import { withDirectReads } from './store/direct-read.ts';

/** The environment a function runs with; checked once per cold start. */
const Env = v.object({
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  /** DynamoDB Local's URL; unset on AWS. */
  DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  AWS_REGION: v.optional(v.string()),
  /** The SES v2 emulator's URL; unset on AWS. */
  SES_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** The access token `iss`: the identity base URL. */
  ISSUER_URL: v.optional(v.string(), 'http://localhost:3000/api/v1'),
  SENDER_EMAIL: v.optional(v.string(), 'no-reply@example.com'),
  /** The deployment's name in every mail's From, after the tenant's (`Acme via <name>`); unset: the sender's domain. */
  SENDER_NAME: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64))),
  /**
   * The SES configuration set every mail is sent with: its event destination publishes bounces and
   * complaints to SNS, for functions/mail/ses-events.ts; each mail then carries the tags `app`, `mid` and `kind`.
   * Unset (locally): no configuration set, no tags.
   */
  SES_CONFIGURATION_SET: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/))),
  /** The KMS key that encrypts signing keys and TOTP secrets (AWS). */
  KMS_KEY_ID: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Locally, instead of KMS: a 32-byte AES key, base64. */
  LOCAL_SECRETS_KEY: v.optional(
    v.pipe(
      v.string(),
      v.base64(),
      v.check((k) => Buffer.from(k, 'base64').length === 32, 'must be 32 bytes'),
    ),
  ),
  /** The answer floor (shared/auth/timing.ts): the least time of answers that must not tell known addresses. */
  AUTH_ANSWER_FLOOR_MS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)), '400'),
  AUTH_RATE_LIMIT_PER_MINUTE: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1)),
    '120',
  ),
  /**
   * Where the hosted pages of a tenant live (web/): an origin with `{subdomain}` in its host, such as
   * `https://{subdomain}.id.example.com`. Each tenant's own hosted origin passes its Origin check, and discovery
   * finds a tenant by subdomain from there. Unset: no hosted pages.
   */
  HOSTED_PAGES_ORIGIN: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => /^https?:\/\/\{subdomain\}\.[a-z0-9.-]+(:\d+)?$/.test(value),
        'must look like https://{subdomain}.example.com',
      ),
    ),
  ),
  /** The hosted pages' edge secret (infra/identity-stack.ts): a request carrying it may name its viewer's address. */
  EDGE_SECRET: v.optional(v.pipe(v.string(), v.minLength(16))),
  /** On AWS, where that secret is kept instead (a Secrets Manager ARN): read on first use (shared/http/client-ip.ts). */
  EDGE_SECRET_ARN: v.optional(v.pipe(v.string(), v.startsWith('arn:'))),
  /** `true`: only requests that came through CloudFront are answered, its web ACL in front (infra/firewall-stack.ts). */
  EDGE_ONLY: v.optional(v.picklist(['true', 'false']), 'false'),
  /**
   * argon2id's cost, `m=<KiB>,t=<iterations>,p=<parallelism>`; unset: production's (shared/auth/passwords.ts). Only
   * the tests set it, to cheap parameters: no deployment does.
   */
  ARGON2_PARAMS: v.optional(
    v.pipe(
      v.string(),
      v.transform(parseArgon2Params),
      v.check((params) => params !== undefined, 'must look like m=19456,t=2,p=1'),
    ),
  ),
  /** `error` keeps the info lines (each request's summary among them) out of the log: shared/log.ts loggerAt. */
  LOG_LEVEL: v.optional(v.picklist(['info', 'error']), 'info'),
  /** The `service` dimension of the request metrics: the stack's name on AWS (infra/http-api.ts), `local` unset. */
  SERVICE_NAME: v.optional(v.pipe(v.string(), v.minLength(1)), 'local'),
  /**
   * The `account` mail budget: mails a tenant may send a day (UTC) to its accounts that the mail limits count
   * (login, reset, e-mail-change and reauthentication codes, invitations: shared/auth/mail-limits.ts), so that one
   * tenant's flood cannot spend the SES account's quota or bounce rate that every tenant shares. Signups never
   * spend it: they have the `signup` budget below, so nobody can stop a tenant's login codes by signing up.
   */
  MAIL_DAILY_BUDGET_PER_TENANT: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1)),
    // Room for a busy tenant's codes (SES production accounts start at 50,000 a day, shared by every tenant).
    '10000',
  ),
  /**
   * The `signup` mail budget: signup codes and "already registered" notices a tenant may mail a day (UTC). Past it,
   * every signup answers 503 UNAVAILABLE until midnight UTC. Half the account budget: these go to addresses nobody
   * has proven yet, the ones that bounce.
   */
  SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1)),
    '5000',
  ),
  /**
   * How long a function keeps its copy of a tenant for its users' requests (shared/store/tenant-cache.ts): a settings
   * change reaches them this many seconds late at most. `0`: every request reads its tenant (the tests).
   */
  TENANT_CACHE_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.maxValue(60)), '5'),
  /** Open signups (not invitations) one IP may make to one tenant an hour; past it 429 RATE_LIMITED. */
  SIGNUPS_PER_IP_PER_HOUR: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1)), '20'),
  /**
   * Local runs only (the local stack and the tests set it; no deployment does): JSON `{ "GOOGLE": "<issuer>", … }`,
   * where the fake providers on loopback stand in for the real ones' endpoints, and plain-http loopback providers are
   * allowed (shared/sign-in-providers/kinds.ts).
   */
  LOCAL_SIGN_IN_PROVIDERS: v.optional(v.string()),
  /** The webhook deliveries queue (SQS, infra/webhooks.ts): where the dispatcher puts each delivery and its retries. */
  WEBHOOK_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  /** Where a delivery goes once its 24 hours of retries are spent (an alarm watches it). */
  WEBHOOK_DEAD_LETTER_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  /** Context `webhookEventBus`: an EventBridge bus (name or ARN) that gets every event too. Unset: none. */
  WEBHOOK_EVENT_BUS: v.optional(v.pipe(v.string(), v.minLength(1))),
  /**
   * Local runs only (the local stack sets it; no deployment does): webhook endpoints may be plain-http loopback
   * URLs, where the tests' receivers and a developer's own listen.
   */
  WEBHOOK_LOOPBACK: v.optional(v.picklist(['true', 'false']), 'false'),
  /**
   * Tests only: webhook retry waits and the 24 hours they span, times this factor (`0.001`: 5 s become 5 ms), so that
   * a test sees a day of retries in seconds. Unset: 1.
   */
  WEBHOOK_TIME_SCALE: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.minValue(0.000001), v.maxValue(1)),
    '1',
  ),
});

export interface Config {
  issuerUrl: string;
  /** The SES v2 emulator's URL, locally. */
  sesEndpoint: string | undefined;
  region: string | undefined;
  senderEmail: string;
  /** SENDER_NAME (shared/mail/ses-mailer.ts, senderDisplayName). */
  senderName: string | undefined;
  /** SES_CONFIGURATION_SET (shared/mail/ses-mailer.ts): unset, mails carry no configuration set and no tags. */
  sesConfigurationSet: string | undefined;
  authRateLimitPerMinute: number;
  answerFloorMs: number;
  /** MAIL_DAILY_BUDGET_PER_TENANT: the `account` mail budget. */
  mailDailyBudgetPerTenant: number;
  /** SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT: the `signup` mail budget. */
  signupMailDailyBudgetPerTenant: number;
  /** SIGNUPS_PER_IP_PER_HOUR. */
  signupsPerIpPerHour: number;
  /** TENANT_CACHE_SECONDS (shared/store/tenant-cache.ts). */
  tenantCacheSeconds: number;
  /** HOSTED_PAGES_ORIGIN: the hosted pages' origin with `{subdomain}` for the tenant's subdomain. */
  hostedPagesOrigin: string | undefined;
  /** EDGE_SECRET (shared/http/client-ip.ts). */
  edgeSecret: string | undefined;
  /** EDGE_SECRET_ARN (shared/http/client-ip.ts). */
  edgeSecretArn: string | undefined;
  /** EDGE_ONLY (shared/http/client-ip.ts). */
  edgeOnly: boolean;
  /** ARGON2_PARAMS: the cost passwords are hashed at (shared/auth/passwords.ts); production's unless a test sets it. */
  argon2: Argon2Params;
  /** LOCAL_SIGN_IN_PROVIDERS, as given (read by shared/sign-in-providers/kinds.ts only). */
  localSignInProviders: string | undefined;
  /** WEBHOOK_QUEUE_URL, WEBHOOK_DEAD_LETTER_QUEUE_URL, WEBHOOK_EVENT_BUS, WEBHOOK_LOOPBACK, WEBHOOK_TIME_SCALE. */
  webhooks: {
    queueUrl: string | undefined;
    deadLetterQueueUrl: string | undefined;
    eventBus: string | undefined;
    allowLoopback: boolean;
    timeScale: number;
  };
}

export interface Deps {
  /** Which service these deps serve: the one pipeline (shared/http/handler.ts) serves this one and the plant store. */
  readonly service: 'identity';
  config: Config;
  /**
   * The table. Repositories are built from it where they are used (`userRepo(deps.store).get(…)`), never kept here:
   * a bundle then carries only the repositories its route calls.
   */
  store: StoreClient;
  vault: KeyVault;
  /**
   * Set by httpHandler for routes flagged `ses` (their handlers pass the SES
   * mailer), so that only their bundles carry the mail code; elsewhere it refuses.
   */
  mailer: Mailer;
  clock: Clock;
  random: Random;
  log: Logger;
  /** Each request's line, its summary and its metrics (shared/http/request-metrics.ts). */
  requestLog: RequestLog;
  /** What the operator should count of the request (shared/metrics.ts): httpHandler gives each request its own. */
  signals: Signals;
}

const noMailer: Mailer = {
  send: async () => {
    throw new Error('this function sends no mail: flag its route `ses` and pass the mailer to httpHandler');
  },
};

function vaultOf(kmsKeyId: string | undefined, localKey: string | undefined): KeyVault {
  if (kmsKeyId) return kmsKeyVault(kmsKeyId);
  if (localKey) return localKeyVault(Buffer.from(localKey, 'base64'));
  const missing = async (): Promise<never> => {
    throw new Error('no KMS_KEY_ID (AWS) or LOCAL_SECRETS_KEY (local) is configured');
  };
  return { encrypt: missing, decrypt: missing };
}

/** Builds everything a handler needs from the environment: the only place that reads `process.env`. */
export function makeDeps(env: Record<string, string | undefined>): Deps {
  const parsed = v.safeParse(Env, env);
  if (!parsed.success) {
    const fields = parsed.issues.map((issue) => v.getDotPath(issue) ?? '?').join(', ');
    throw new Error(`invalid environment: ${fields}`);
  }
  const e = parsed.output;
  if (e.EDGE_ONLY === 'true' && !e.EDGE_SECRET && !e.EDGE_SECRET_ARN) {
    throw new Error('invalid environment: EDGE_ONLY needs EDGE_SECRET or EDGE_SECRET_ARN');
  }
  const store = createStoreClient({ tableName: e.TABLE_NAME, endpoint: e.DYNAMODB_ENDPOINT, region: e.AWS_REGION });
  return {
    service: 'identity',
    config: {
      issuerUrl: e.ISSUER_URL,
      sesEndpoint: e.SES_ENDPOINT,
      region: e.AWS_REGION,
      senderEmail: e.SENDER_EMAIL,
      senderName: e.SENDER_NAME,
      sesConfigurationSet: e.SES_CONFIGURATION_SET,
      authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
      answerFloorMs: e.AUTH_ANSWER_FLOOR_MS,
      mailDailyBudgetPerTenant: e.MAIL_DAILY_BUDGET_PER_TENANT,
      signupMailDailyBudgetPerTenant: e.SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT,
      signupsPerIpPerHour: e.SIGNUPS_PER_IP_PER_HOUR,
      tenantCacheSeconds: e.TENANT_CACHE_SECONDS,
      hostedPagesOrigin: e.HOSTED_PAGES_ORIGIN,
      edgeSecret: e.EDGE_SECRET,
      edgeSecretArn: e.EDGE_SECRET_ARN,
      edgeOnly: e.EDGE_ONLY === 'true',
      argon2: e.ARGON2_PARAMS ?? PRODUCTION_ARGON2,
      localSignInProviders: e.LOCAL_SIGN_IN_PROVIDERS,
      webhooks: {
        queueUrl: e.WEBHOOK_QUEUE_URL,
        deadLetterQueueUrl: e.WEBHOOK_DEAD_LETTER_QUEUE_URL,
        eventBus: e.WEBHOOK_EVENT_BUS,
        allowLoopback: e.WEBHOOK_LOOPBACK === 'true',
        timeScale: e.WEBHOOK_TIME_SCALE,
      },
    },
    store,
    vault: vaultOf(e.KMS_KEY_ID, e.LOCAL_SECRETS_KEY),
    mailer: noMailer,
    clock: systemClock,
    random: cryptoRandom,
    log: loggerAt(e.LOG_LEVEL),
    requestLog: requestLogAt(e.LOG_LEVEL, e.SERVICE_NAME),
    signals: noSignals,
  };
}

/** The same deps over another store client (a request's, with what it prefetched). */
export function depsWithStore(deps: Deps, store: StoreClient): Deps {
  return { ...deps, store };
}

const directReads = new WeakMap<Deps, Deps>();

/**
 * These deps with their store's direct reads (store/direct-read.ts), the same object for the same deps: what the
 * handlers of the routes a user waits on (`bundleSdk`) take, `depsForRoute: withDirectReadsDeps`.
 */
export function withDirectReadsDeps(deps: Deps): Deps {
  let direct = directReads.get(deps);
  if (!direct) {
    direct = depsWithStore(deps, withDirectReads(deps.store));
    directReads.set(deps, direct);
  }
  return direct;
}

let cached: Deps | undefined;

/** The deps of this process, built on first use (once per Lambda cold start). */
export function processDeps(): Deps {
  cached ??= makeDeps(process.env);
  return cached;
}

/**
 * The request log from SERVICE_NAME and LOG_LEVEL alone, for a request whose deps could not be built (a bad
 * environment): its 500 is still written, and counted where the alarms read it. Either service's (the plant
 * store's deps read the same two variables).
 */
export function processRequestLog(): RequestLog {
  return requestLogAt(process.env.LOG_LEVEL === 'error' ? 'error' : 'info', process.env.SERVICE_NAME || 'local');
}
