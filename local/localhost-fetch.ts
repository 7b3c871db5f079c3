import { request as httpRequest } from 'node:http';

/**
 * A fetch that reaches `*.localhost` hosts (a tenant's hosted origin, its OpenID Provider's issuer): Node's fetch
 * resolves none of them (Chromium does) and lets no caller set `Host`, so such a request goes to 127.0.0.1 over
 * node:http with the host it named, as a browser's arrives. Other URLs go to fetch. Never follows redirects.
 * (test/support/oidc.ts wraps it to record the answers for the OpenAPI check.)
 */
export const localhostFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (!url.hostname.endsWith('.localhost')) return fetch(request);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  headers.host = url.host;
  if (body) headers['content-length'] = String(body.length);
  return new Promise<Response>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        signal: request.signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = res.statusCode ?? 500;
          const empty = status === 204 || status === 304 || request.method === 'HEAD';
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
};
