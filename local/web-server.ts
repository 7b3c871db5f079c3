import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { BASE_PATH } from '#functions/routes.ts';
import { WELL_KNOWN_ROUTES } from '#shared/http/viewer-origin.ts';
import { CACHE_CONTROL, WEB_SECURITY_HEADERS } from '../web/security-headers.ts';

/** Where `npm run build:web` writes the hosted pages. */
export const WEB_DIST = resolve(import.meta.dirname, '../web/dist');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** What CloudFront's `/.well-known/*` behaviour lets through (AllowedMethods.ALLOW_GET_HEAD_OPTIONS). */
const WELL_KNOWN_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The local CloudFront: on a tenant's host `/api/*` goes to the API (the gateway), every other
 * path to the built pages, the way infra/web-stack.ts's behaviours route them,
 * with the same response headers. So the pages at `<subdomain>.localhost:<port>`
 * call the API same-origin, as on AWS.
 *
 * A tenant's host is also its OpenID Provider's issuer (shared/oidc/README.md) and its passkeys'
 * relying party: its well-known paths (WELL_KNOWN_ROUTES) go to their API routes, query kept, as
 * CloudFront's viewer-request function rewrites them, and any other `/.well-known/` path is 404. The Host
 * header stays the browser's: the gateway passes it on, and the API takes the issuer from it
 * (shared/http/viewer-origin.ts).
 */
export function localEdge(options: { api: RequestListener; distDir?: string }): RequestListener {
  const distDir = options.distDir ?? WEB_DIST;
  return (req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    // `localhost:<port>` itself is the API's own URL (API Gateway's on AWS): all of it goes to the gateway.
    // Only a tenant's host, `<subdomain>.localhost:<port>`, is the distribution serving pages.
    if (!isPagesHost(req.headers.host) || path === '/api' || path.startsWith('/api/')) {
      options.api(req, res);
      return;
    }
    if (path.startsWith('/.well-known/')) {
      if (!WELL_KNOWN_METHODS.has(req.method ?? 'GET')) return forbidden(res);
      const route = Object.hasOwn(WELL_KNOWN_ROUTES, path) ? WELL_KNOWN_ROUTES[path] : undefined;
      if (!route) return notFound(res);
      const query = url.indexOf('?');
      req.url = `${BASE_PATH}${route}${query === -1 ? '' : url.slice(query)}`;
      options.api(req, res);
      return;
    }
    servePage(distDir, path, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}

function isPagesHost(host: string | undefined): boolean {
  return /^[a-z0-9-]{1,63}\.localhost(:\d+)?$/i.test(host ?? '');
}

/**
 * A file of the build, or `index.html` for any path whose last segment has no
 * extension (the app routes in the browser), as the viewer-request function
 * of the distribution rewrites it. A missing file with an extension is 404.
 */
async function servePage(distDir: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', ...WEB_SECURITY_HEADERS });
    res.end();
    return;
  }
  const last = path.split('/').pop() ?? '';
  let file = '/index.html';
  try {
    if (last.includes('.')) file = decodeURIComponent(path);
  } catch {
    return notFound(res);
  }
  const full = normalize(join(distDir, file));
  if (!full.startsWith(`${distDir}${sep}`)) return notFound(res);
  const found = await stat(full).catch(() => undefined);
  if (!found?.isFile()) {
    if (file === '/index.html') {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', ...WEB_SECURITY_HEADERS });
      res.end('The web app is not built: run `npm run build:web` (npm start does it).\n');
      return;
    }
    return notFound(res);
  }
  const body = await readFile(full);
  const type = CONTENT_TYPES[extname(full)] ?? 'application/octet-stream';
  res.writeHead(200, {
    'content-type': type,
    'content-length': String(body.length),
    'cache-control': file.startsWith('/assets/') ? CACHE_CONTROL.asset : CACHE_CONTROL.html,
    ...WEB_SECURITY_HEADERS,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** What CloudFront answers a method its behaviour does not allow. */
function forbidden(res: ServerResponse): void {
  res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', ...WEB_SECURITY_HEADERS });
  res.end('Forbidden\n');
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...WEB_SECURITY_HEADERS });
  res.end('Not found\n');
}
