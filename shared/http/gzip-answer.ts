import { gzipSync } from 'node:zlib';
import { type HttpEvent, type HttpResult, header } from './request-state.ts';

/** Smaller answers gain too little to be worth the CPU (and a base64 body through API Gateway). */
const MIN_BYTES = 1024;

/** Whether the client takes gzip (`Accept-Encoding`), and does not refuse it with `q=0`. */
function acceptsGzip(event: HttpEvent): boolean {
  const accepted = header(event, 'accept-encoding') ?? '';
  return accepted.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * The answer gzipped when the client accepts it and it is large (GET /users: one list of every user, which
 * gzip makes several times smaller, so far more users fit under Lambda's 6 MB response limit). The body goes
 * base64-encoded, as API Gateway takes binary from Lambda; browsers and fetch decode it themselves.
 * Passed to httpHandler (`encodeAnswer`) by the routes that use it, so no other bundle carries it.
 */
export function gzipLargeAnswer(event: HttpEvent, answer: HttpResult): HttpResult {
  const vary = { vary: [answer.headers?.vary, 'Accept-Encoding'].filter(Boolean).join(', ') };
  if (typeof answer.body !== 'string' || answer.isBase64Encoded) return answer;
  const withVary = { ...answer, headers: { ...answer.headers, ...vary } };
  if (Buffer.byteLength(answer.body) < MIN_BYTES || !acceptsGzip(event)) return withVary;
  return {
    ...withVary,
    headers: { ...withVary.headers, 'content-encoding': 'gzip' },
    body: gzipSync(answer.body).toString('base64'),
    isBase64Encoded: true,
  };
}
