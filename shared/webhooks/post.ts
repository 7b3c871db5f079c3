import { lookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress, publicUrlProblem } from '../http/outbound-url.ts';

/** How long one attempt may take, connection to last byte. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** What came of one POST. */
export interface PostOutcome {
  /** The receiver's status; null when none came. */
  statusCode: number | null;
  /** Why it failed, in a few words (never the receiver's body); null on 2xx. */
  error: string | null;
  latencyMs: number;
}

const isLoopback = (address: string) => address === '::1' || /^127\./.test(address) || address === '::ffff:127.0.0.1';

/**
 * The DNS lookup of the connection itself: every address the host resolves to must be public (or loopback, in local
 * runs), checked on the very answer the socket connects to, so that a name resolving to a public address when the
 * URL was checked and to a private one a moment later (DNS rebinding) is still refused.
 */
function publicOnlyLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.every((a) => isPublicAddress(a.address) || (allowLoopback && isLoopback(a.address)));
      if (!allowed || addresses.length === 0) {
        return callback(
          Object.assign(new Error('resolves to an address that is not public'), { code: 'ENOTPUBLIC' }),
          '',
          0,
        );
      }
      if (options.all) return (callback as (e: null, all: typeof addresses) => void)(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
}

/**
 * POSTs one signed event. The URL is checked again first (https, no credentials, a public host: the rules of saving
 * it, which a DNS change since may break), redirects are not followed (a 3xx is a failure), the receiver's body is
 * read up to 64 KiB and dropped, and the whole attempt ends after 10 s.
 */
export async function postEvent(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowLoopback: boolean; now: () => number },
): Promise<PostOutcome> {
  const started = options.now();
  const outcome = (statusCode: number | null, error: string | null): PostOutcome => ({
    statusCode,
    error,
    latencyMs: Math.max(0, Math.round(options.now() - started)),
  });
  const problem = await publicUrlProblem(url, { allowLoopback: options.allowLoopback });
  if (problem) return outcome(null, `URL ${problem}`);
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostOutcome>((done) => {
    let settled = false;
    const finish = (result: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(result);
    };
    const req = send(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body).toString(),
          'user-agent': 'identity-webhooks/1',
        },
        lookup: publicOnlyLookup(options.allowLoopback),
        agent: false,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 65_536) res.destroy();
        });
        const status = res.statusCode ?? 0;
        const settle = () =>
          finish(
            status >= 200 && status < 300
              ? outcome(status, null)
              : outcome(status, status >= 300 && status < 400 ? 'redirect not followed' : `answered ${status}`),
          );
        res.on('end', settle);
        res.on('close', settle);
        res.on('error', settle);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(outcome(null, 'timed out after 10 s'));
    }, ATTEMPT_TIMEOUT_MS);
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish(outcome(null, error.code === 'ENOTPUBLIC' ? 'URL must name a public host' : (error.code ?? 'no answer')));
    });
    req.end(body);
  });
}
