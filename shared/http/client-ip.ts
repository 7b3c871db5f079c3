import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { sameSecret } from '../crypto/same-secret.ts';
import { fail } from '../errors.ts';
import { type HttpEvent, header } from './request-state.ts';
import type { RouteDef } from './route.ts';

/**
 * Behind the hosted pages' CloudFront distribution (infra/web-stack.ts) API Gateway sees an edge server's
 * address as `sourceIp`, which would make every visitor of one edge share a rate limit. CloudFront sends the
 * viewer's address in VIEWER_IP_HEADER (set by its viewer-request function, over whatever the viewer sent) with
 * the deployment's edge secret in EDGE_SECRET_HEADER; only a request carrying that secret may name its client.
 * CloudFront refuses custom origin headers named `X-Edge-*`, hence the names.
 */
export const EDGE_SECRET_HEADER = 'x-identity-edge-secret';
export const VIEWER_IP_HEADER = 'x-identity-viewer-ip';

/**
 * Where a function finds the edge secret: its value (EDGE_SECRET: the tests, or a deployment that sets it by hand)
 * or, on AWS, the ARN of the Secrets Manager secret (EDGE_SECRET_ARN), read on the first request that presents a
 * secret and kept for the life of the process. Not a CloudFormation dynamic reference in every function's
 * environment: a template may hold 60 of those, and the value would sit in every function's settings.
 */
export interface EdgeSecretConfig {
  edgeSecret: string | undefined;
  edgeSecretArn: string | undefined;
  /**
   * EDGE_ONLY: a request that did not come through CloudFront is refused. Set when the distribution has a web ACL
   * (context `waf`): HTTP APIs take none, so a caller of the API's own domain would otherwise go around it.
   */
  edgeOnly: boolean;
}

/** The detail of the 403 a caller that went around CloudFront gets (EdgeSecretConfig.edgeOnly). */
export const EDGE_ONLY_DETAIL =
  "This API answers through the deployment's CloudFront distribution only: call it at the hosted pages' origin, under /api/v1";

/**
 * How far a request's viewer headers are believed: `no-edge` (no edge secret configured: the local stack, whose
 * edge passes the browser's Host through), `from-edge` (it carries the deployment's secret: CloudFront sent it),
 * `not-from-edge` (an edge is configured but the request did not come through it: a direct caller of the API).
 */
export type EdgeTrust = 'no-edge' | 'from-edge' | 'not-from-edge';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The secret's digest, made once per process (the secret is the deployment's, fixed for the process). */
let secretDigest: { secret: string; digest: Buffer } | undefined;
function digestOfSecret(secret: string): Buffer {
  if (secretDigest?.secret !== secret) secretDigest = { secret, digest: digest(secret) };
  return secretDigest.digest;
}

/** The secret read by ARN, once per process; a failed read is forgotten, so that the next request tries again. */
let secretByArn: { arn: string; value: Promise<string>; readAt: number } | undefined;

/**
 * How long a read secret is kept before a request presenting another value may have it read again: a rotated
 * secret (a redeploy of the Web stack with a new value) reaches every function instance within this time, and a
 * caller presenting made-up secrets costs at most one read per instance in this time.
 */
export const EDGE_SECRET_REREAD_MS = 5 * 60_000;

/**
 * The value of the edge secret stored at `arn` (Secrets Manager's GetSecretValue, the function's role may call it
 * on that one secret). The client is imported on first use, as the KMS client is (shared/crypto/key-vault.ts):
 * only requests that came through CloudFront need it. `fresh` reads it again if the kept one is older than
 * EDGE_SECRET_REREAD_MS. `client` and `now` are for the tests.
 */
export function edgeSecretAt(
  arn: string,
  options: { client?: SecretsManagerClient; fresh?: boolean; now?: number } = {},
): Promise<string> {
  const now = options.now ?? Date.now();
  const kept = secretByArn?.arn === arn ? secretByArn : undefined;
  if (kept && !(options.fresh && now - kept.readAt >= EDGE_SECRET_REREAD_MS)) return kept.value;
  const value = (async () => {
    const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    const { SecretString } = await (options.client ?? new SecretsManagerClient({})).send(
      new GetSecretValueCommand({ SecretId: arn }),
    );
    if (!SecretString) throw new Error('the edge secret has no string value');
    return SecretString;
  })();
  const entry = { arn, value, readAt: now };
  secretByArn = entry;
  value.catch(() => {
    if (secretByArn === entry) secretByArn = undefined;
  });
  return value;
}

/**
 * Whether the request came through our CloudFront distribution: it carries the deployment's edge secret, which
 * CloudFront adds to every request it sends the API (and which no viewer knows). A request that presents no secret
 * costs nothing; the first one that does reads the secret by ARN. When that read fails the request is treated as
 * not from the edge (its viewer headers are not believed) and the error is thrown to `onReadError`'s caller to log.
 */
export async function edgeTrust(
  event: HttpEvent,
  config: EdgeSecretConfig,
  onReadError: (error: unknown) => void = () => {},
): Promise<EdgeTrust> {
  if (!config.edgeSecret && !config.edgeSecretArn) return 'no-edge';
  const presented = header(event, EDGE_SECRET_HEADER);
  if (typeof presented !== 'string' || presented === '') return 'not-from-edge';
  // Compared as digests: equal lengths, and no timing to learn the secret from.
  const matches = (secret: string) => sameSecret(digest(presented), digestOfSecret(secret));
  if (config.edgeSecret) return matches(config.edgeSecret) ? 'from-edge' : 'not-from-edge';
  const arn = config.edgeSecretArn as string;
  try {
    if (matches(await edgeSecretAt(arn))) return 'from-edge';
    // Another value: the secret may have been rotated since it was read (at most one read per instance in 5 min).
    return matches(await edgeSecretAt(arn, { fresh: true })) ? 'from-edge' : 'not-from-edge';
  } catch (error) {
    onReadError(error);
    return 'not-from-edge';
  }
}

/**
 * With EDGE_ONLY, refuses a request that did not come through CloudFront (403 FORBIDDEN), before any other step;
 * but on the routes served at the issuer (RouteDef.servedAtIssuer), which resource servers read at the API's URL.
 */
export function refuseUnlessFromEdge(trust: EdgeTrust, config: EdgeSecretConfig, route: RouteDef): void {
  if (config.edgeOnly && trust === 'not-from-edge' && !route.servedAtIssuer) {
    throw fail('FORBIDDEN', { detail: EDGE_ONLY_DETAIL });
  }
}

/** The client's address: the viewer's when the request came through our edge, API Gateway's `sourceIp` otherwise. */
export function clientIp(event: HttpEvent, trust: EdgeTrust): string {
  const sourceIp = event.requestContext?.http?.sourceIp ?? '';
  if (trust !== 'from-edge') return sourceIp;
  const viewer = header(event, VIEWER_IP_HEADER)?.trim();
  if (!viewer || isIP(viewer) === 0) return sourceIp;
  return viewer;
}
