import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the fake upstream providers have in common on the wire: a loopback server, form bodies, JSON answers,
 * a cookie jar for driving an authorization without a browser, and the answer a provider sends back to the
 * client's redirect_uri.
 */

/**
 * The authorization response as the browser would deliver it to the client's redirect_uri.
 * `response_mode=query` (and every provider that knows no other) is a redirect: method GET, `url` is the
 * redirect_uri with the answer in its query, and `params` is that query. `response_mode=form_post` (Apple's)
 * is a self-submitting form: method POST, `url` is the redirect_uri as registered, and `params` is the form.
 * Either way `params` is what oauth4webapi's validateAuthResponse takes.
 */
export interface AuthorizationResponse {
  method: 'GET' | 'POST';
  url: URL;
  params: URLSearchParams;
}

/** The request a browser makes to the client with an authorization response (a fetch without redirects). */
export function callbackRequest(response: AuthorizationResponse): Request {
  if (response.method === 'GET') return new Request(response.url, { redirect: 'manual' });
  return new Request(response.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: response.params.toString(),
  });
}

export interface Listening {
  port: number;
  close(): Promise<void>;
}

/** Serves on loopback only (port 0: any free port). A handler that throws answers 500 with the message. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
  port = 0,
): Promise<Listening> {
  const listener: RequestListener = (req, res) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(error instanceof Error ? error.message : String(error));
      });
  };
  const server = createServer(listener);
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      // Keep-alive connections of the clients under test would hold close() open until they time out.
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** A request's form body (application/x-www-form-urlencoded), empty when there is none. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

export function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string | URL, status = 302) {
  res.writeHead(status, { location: String(location), 'cache-control': 'no-store' });
  res.end();
}

/** The client credentials of a token request: HTTP Basic (client_secret_basic) or the form (client_secret_post). */
export function clientCredentials(
  req: IncomingMessage,
  form: URLSearchParams,
): { clientId: string | null; clientSecret: string | null } {
  const header = req.headers.authorization;
  if (header?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { clientId: null, clientSecret: null };
    // OAuth 2 form-encodes the id and the secret each before it joins them.
    const unform = (value: string) => decodeURIComponent(value.replace(/\+/g, '%20'));
    return { clientId: unform(decoded.slice(0, colon)), clientSecret: unform(decoded.slice(colon + 1)) };
  }
  return { clientId: form.get('client_id'), clientSecret: form.get('client_secret') };
}

/**
 * The cookies one pretend browser holds for one origin. Every cookie goes with every request to that origin:
 * the providers' cookies are few and short-lived, and their paths only keep them apart from each other.
 */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals < 0) continue;
      const name = pair.slice(0, equals).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', value = ''] = attribute.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(value) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(value) <= Date.now();
        return false;
      });
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(equals + 1).trim());
    }
  }

  header(): Record<string, string> {
    if (this.#cookies.size === 0) return {};
    return { cookie: [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}

/** Decodes what an HTML attribute value escapes (the forms the providers render). */
export function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A page's first form: where it posts and its hidden inputs (a form_post answer, or a stub's own page). */
export function firstForm(html: string): { action: string; fields: URLSearchParams } | null {
  const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return null;
  const fields = new URLSearchParams();
  for (const input of (form[2] ?? '').matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(input[0]);
    const value = /\bvalue="([^"]*)"/i.exec(input[0]);
    if (name?.[1] !== undefined) fields.append(unescapeHtml(name[1]), unescapeHtml(value?.[1] ?? ''));
  }
  return { action: unescapeHtml(form[1] ?? ''), fields };
}
