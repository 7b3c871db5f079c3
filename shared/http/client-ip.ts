import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type HttpEvent, header } from './request-state.ts';

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
}

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
let secretByArn: { arn: string; value: Promise<string> } | undefined;

/**
 * The value of the edge secret stored at `arn` (Secrets Manager's GetSecretValue, the function's role may call it
 * on that one secret). The client is imported on first use, as the KMS client is (shared/crypto/key-vault.ts):
 * only requests that came through CloudFront need it. `client` is for the tests.
 */
export function edgeSecretAt(arn: string, client?: SecretsManagerClient): Promise<string> {
  if (secretByArn?.arn === arn) return secretByArn.value;
  const value = (async () => {
    const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    const { SecretString } = await (client ?? new SecretsManagerClient({})).send(
      new GetSecretValueCommand({ SecretId: arn }),
    );
    if (!SecretString) throw new Error('the edge secret has no string value');
    return SecretString;
  })();
  secretByArn = { arn, value };
  value.catch(() => {
    if (secretByArn?.value === value) secretByArn = undefined;
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
  let secret = config.edgeSecret;
  if (!secret && config.edgeSecretArn) {
    try {
      secret = await edgeSecretAt(config.edgeSecretArn);
    } catch (error) {
      onReadError(error);
      return 'not-from-edge';
    }
  }
  if (!secret) return 'not-from-edge';
  // Compared as digests: equal lengths, and no timing to learn the secret from.
  return timingSafeEqual(digest(presented), digestOfSecret(secret)) ? 'from-edge' : 'not-from-edge';
}

/** The client's address: the viewer's when the request came through our edge, API Gateway's `sourceIp` otherwise. */
export function clientIp(event: HttpEvent, trust: EdgeTrust): string {
  const sourceIp = event.requestContext?.http?.sourceIp ?? '';
  if (trust !== 'from-edge') return sourceIp;
  const viewer = header(event, VIEWER_IP_HEADER)?.trim();
  if (!viewer || isIP(viewer) === 0) return sourceIp;
  return viewer;
}
