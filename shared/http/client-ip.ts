import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
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

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The secret's digest, made once per process (the secret is the deployment's, fixed for the process). */
let secretDigest: { secret: string; digest: Buffer } | undefined;
function digestOfSecret(secret: string): Buffer {
  if (secretDigest?.secret !== secret) secretDigest = { secret, digest: digest(secret) };
  return secretDigest.digest;
}

/**
 * Whether the request came through our CloudFront distribution: it carries the deployment's edge secret, which
 * CloudFront adds to every request it sends the API (and which no viewer knows). Never without a secret configured.
 */
export function fromOurEdge(event: HttpEvent, edgeSecret: string | undefined): boolean {
  if (!edgeSecret) return false;
  const presented = header(event, EDGE_SECRET_HEADER);
  if (typeof presented !== 'string' || presented === '') return false;
  // Compared as digests: equal lengths, and no timing to learn the secret from.
  return timingSafeEqual(digest(presented), digestOfSecret(edgeSecret));
}

/** The client's address: the viewer's when the request came through our edge, API Gateway's `sourceIp` otherwise. */
export function clientIp(event: HttpEvent, edgeSecret: string | undefined): string {
  const sourceIp = event.requestContext?.http?.sourceIp ?? '';
  if (!edgeSecret) return sourceIp;
  const viewer = header(event, VIEWER_IP_HEADER)?.trim();
  if (!viewer || isIP(viewer) === 0) return sourceIp;
  return fromOurEdge(event, edgeSecret) ? viewer : sourceIp;
}
