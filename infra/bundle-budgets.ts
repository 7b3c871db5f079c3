// The size budget of each route's bundle (minified), checked by test/infra/bundles.test.ts and shown beside each
// bundle in bench/RESULTS.md. Each exception says what fills the bundle and what would bring it under.
import type { RouteDef } from '#shared/http/route.ts';

/** The bundle budget: 100 KB minified (the benchmarks issue's target). */
const BUDGET = 100 * 1024;
/**
 * Known exceptions, each with its cause (bench/RESULTS.md has the esbuild
 * metafile of each). changePassword carries the common-password list (22 KB,
 * brotli + base64), the TOTP check (otpauth, 8 KB) and the mail templates
 * (7 KB) on top of the bearer check: about 116 KB; then the lockout's attempt
 * reservation (2 KB, security review M1), the one-transaction change with
 * the credential epoch (3 KB, M3: hash, epoch, the caller's session
 * re-stamped), the e-mail-change-requested and reauthentication templates
 * (2.5 KB, M2) and what the mail limits and the expiry of unverified signups
 * add to every bundle (0.7 KB, M6, M7). What would bring it under:
 * the list as a file beside the bundle, read on first use, or mail templates
 * per kind. Kept visible here rather than hidden in a raised budget.
 */
/**
 * The OpenID Provider (issue 18) adds about 2.3 KB to every bundle: the RS256 signing keys beside ES256 in the
 * signing-key module every bearer check reads (0.8 KB), form bodies in the body stage (0.4 KB), the session's
 * binding to its client and the OIDC item keys (0.5 KB), CORS for the protocol endpoints and the edge's viewer
 * (0.4 KB); what only its routes need (the issuer lookup, OAuth's error body) is passed by their handlers alone.
 * Bundles that were within 2.3 KB of their budget got the difference (marked "+ OIDC").
 */
const OIDC_EVERYWHERE = 2.3 * 1024;
/**
 * The operator's metrics (issue 20) add 15.4 to 18 KB to every bundle: @aws-lambda-powertools/metrics with its
 * commons and @aws/lambda-invoke-store (15.2 KB minified: the issue asks for Powertools' Embedded Metric Format
 * rather than EMF of our own), then each request's report and summary line (shared/http/request-metrics.ts,
 * handler.ts) and the domain's counters (about 0.5 KB). Every budget gets it, written here rather than hidden in
 * the numbers; the SDK-bundled routes' cold starts were measured again with it (bench/NOTES.md, Metrics).
 */
const METRICS_EVERYWHERE = 18 * 1024;
/**
 * Deployable: the edge secret read by ARN on the first request that presents one, instead of a value in
 * every function's environment (shared/http/client-ip.ts: 0.6 KB more than the comparison it replaces, and the
 * handler's await of it), its Secrets Manager client imported from the runtime on that first use: 1 KB; and the
 * refusal of a caller that went around CloudFront's web ACL (EDGE_ONLY, 0.2 KB): 1.25 KB in every bundle.
 */
const EDGE_SECRET_BY_ARN = 1280;
/**
 * Argon2's cost read from the configuration (ARGON2_PARAMS, which only the tests set; shared/deps.ts): its parser
 * and production's parameters in every function's deps, 0.5 KB.
 */
const ARGON2_CONFIG = 512;
/**
 * Mail that is watched, in every bundle that sends mail (`ses` rows): the suppression of an address that
 * bounced or complained, read before a mail and its repository (1.6 KB), the send path that counts MailsFailed by
 * kind (0.5 KB), the configuration set and the tenant's tags on every mail (0.2 KB), and the invitation's answer
 * for a suppressed address: 3 KB.
 */
const MAIL_FEEDBACK = 3 * 1024;
/**
 * The signup limits: their two settings in every function's deps (SIGNUPS_PER_IP_PER_HOUR,
 * SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT; 0.4 KB), and the two mail budgets (which budget a mail spends, the budget in
 * each count's key; 0.6 KB) in every bundle that sends mail.
 */
const SIGNUP_LIMITS_CONFIG = 400;
const TWO_MAIL_BUDGETS = 600;
/**
 * A code request held back by the per-recipient limit takes the code the address last received: the challenge
 * repository's binding and the session list's per-client entries and cap, in every function's deps (0.65 KB); the
 * binding's checks, the normalised recipient and the slot's last challenge in every bundle that sends mail (1.1 KB).
 */
const HELD_BACK_CODES_AND_CLIENT_SESSIONS = 700;
const BOUND_HELD_BACK_CODES = 1100;
const EXCEPTIONS: Record<string, number> = {
  changePassword: 127 * 1024 + OIDC_EVERYWHERE,
  /**
   * The proofs of changePassword (TOTP check, 8 KB) and the e-mail-code login's
   * mail path (templates 7 KB, the mail limits 2.6 KB): 108 KB; then the hosted pages (1.5 KB in every
   * bundle, and 1 KB of links to them in the templates): 112.2 KB.
   */
  reauthenticate: 113 * 1024 + OIDC_EVERYWHERE,
  /**
   * The common-password list (22 KB) and the mail templates (7 KB) on top of the tenant stage: 101 KB, then
   * what the hosted pages add to every bundle (1.5 KB: discovery by slug and the hosted origin in the tenant
   * and Origin stages, the edge's client address) and the templates' links to the hosted pages: 104 KB.
   */
  signup: 108 * 1024,
  /** ua-parser-js (20 KB: every browser and OS a device is named by) on top of the admin stages: 100 KB, then 1.5 KB as above. */
  listUserDevices: 105 * 1024,
  /** ua-parser-js (20 KB) as listUserDevices has it, on the bearer stages: 99.9 KB, then + OIDC. */
  listMySessions: 100 * 1024 + OIDC_EVERYWHERE,
  /** The invitation's mail path (templates 8.3 KB, the mail limits 2.6 KB) on the admin stages: 99.9 KB, then + OIDC. */
  inviteUser: 100 * 1024 + OIDC_EVERYWHERE,
  /**
   * This service's OpenAPI document, built from the route list and its valibot schemas on first request: it
   * grows with every route (the OpenID Provider's eleven and their schemas: 5 KB). Serving the committed
   * openapi.json would not be smaller (about 200 KB of JSON).
   */
  getOpenapi: 108 * 1024,
};

/**
 * The routes a user waits on carry the AWS SDK's DynamoDB client (`bundleSdk`, infra/http-api.ts: bundlingFor):
 * about 200 KB of SDK on top of the route's own code, for a cold start of about 40 ms instead of 100 (issue 19,
 * bench/RESULTS.md). Measured: discovery 273 KB, authorize 284, refresh 304, getMe 299, loginVerify 315,
 * oidcToken 318, login 321 (its e-mail-code path's SES client is imported on the first mail, not bundled: bundled,
 * it was 403 KB and a cold start near 60 ms).
 */
const SDK_BUNDLED_BUDGET = 330 * 1024;
const SDK_BUNDLED_EXCEPTIONS: Record<string, number> = {};

/** The budget of this route's bundle, in bytes. */
export function bundleBudgetOf(route: Pick<RouteDef, 'operationId' | 'bundleSdk' | 'ses'>): number {
  const own = route.bundleSdk
    ? (SDK_BUNDLED_EXCEPTIONS[route.operationId] ?? SDK_BUNDLED_BUDGET)
    : (EXCEPTIONS[route.operationId] ?? BUDGET);
  return (
    own +
    METRICS_EVERYWHERE +
    EDGE_SECRET_BY_ARN +
    ARGON2_CONFIG +
    SIGNUP_LIMITS_CONFIG +
    HELD_BACK_CODES_AND_CLIENT_SESSIONS +
    (route.ses ? MAIL_FEEDBACK + TWO_MAIL_BUDGETS + BOUND_HELD_BACK_CODES : 0)
  );
}
