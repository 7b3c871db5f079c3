import type { EdgeTrust } from './client-ip.ts';
import { type HttpEvent, header } from './request-state.ts';

/**
 * The host the viewer asked for, sent by the hosted pages' CloudFront viewer-request function (infra/web-stack.ts)
 * over whatever the viewer sent in it: behind CloudFront the API's own `Host` is API Gateway's. Believed only
 * beside the edge secret, as VIEWER_IP_HEADER is (shared/http/client-ip.ts).
 */
export const VIEWER_HOST_HEADER = 'x-identity-viewer-host';

/**
 * The documents a tenant's hosted origin serves at its root, by path, and the API route (under the base path)
 * that answers each: where OpenID Connect and OAuth clients look for the issuer's metadata (OIDC Discovery 1.0,
 * RFC 8414), and where browsers look for the origins that may use the tenant's passkeys (WebAuthn Related Origin
 * Requests). The edge (CloudFront's viewer-request function, infra/web-stack.ts, and the local edge,
 * local/web-server.ts) rewrites these and answers 404 for any other `/.well-known/` path of a tenant's host.
 */
export const WELL_KNOWN_ROUTES: Readonly<Record<string, string>> = {
  '/.well-known/openid-configuration': '/oidc/openid-configuration',
  '/.well-known/oauth-authorization-server': '/oidc/openid-configuration',
  '/.well-known/webauthn': '/passkeys/related-origins',
};

/** The longest DNS host name (RFC 1035, in text form without the trailing dot). */
const MAX_HOST_NAME = 253;
/** One DNS label: letters, digits and inner hyphens, at most 63 characters. */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A host name with an optional port, nothing else: no scheme, path, userinfo, spaces or list. */
const HOST = new RegExp(`^(${LABEL}(?:\\.${LABEL})*)(?::([1-9][0-9]{0,4}))?$`, 'i');
const DEFAULT_PORT = { http: '80', https: '443' } as const;

/**
 * The origin (`scheme://host[:port]`, host lower-cased, no default port) the viewer used to reach the API: the
 * tenant's hosted origin, which is its OpenID Provider's issuer (shared/oidc/README.md).
 *
 * - With an edge secret (AWS, behind CloudFront): `https://` and VIEWER_HOST_HEADER, only when the request carries
 *   the edge secret (`from-edge`); a direct caller of the API Gateway URL (`not-from-edge`) names no issuer.
 * - Without one (`no-edge`: the local stack, whose edge passes the browser's Host through): the `Host` header, the
 *   scheme from `x-forwarded-proto` when it is `http` or `https` (the local gateway sets it), `http` otherwise.
 *
 * Undefined when the host is missing or not a plain host name; never throws.
 */
export function viewerOrigin(event: HttpEvent, trust: EdgeTrust): string | undefined {
  if (trust !== 'no-edge') {
    const host = plainHost(header(event, VIEWER_HOST_HEADER));
    if (!host || trust !== 'from-edge') return undefined;
    return origin('https', host);
  }
  const host = plainHost(header(event, 'host'));
  if (!host) return undefined;
  const proto = header(event, 'x-forwarded-proto');
  const scheme = typeof proto === 'string' && /^https?$/i.test(proto.trim()) ? proto.trim().toLowerCase() : 'http';
  return origin(scheme as 'http' | 'https', host);
}

/** The host name (lower-cased) and port of a well-formed host header value, else undefined. */
function plainHost(value: unknown): { name: string; port: string | undefined } | undefined {
  if (typeof value !== 'string' || value.length > MAX_HOST_NAME + 6) return undefined;
  const match = HOST.exec(value);
  const name = match?.[1];
  if (!name || name.length > MAX_HOST_NAME) return undefined;
  const port = match[2];
  if (port !== undefined && Number(port) > 65_535) return undefined;
  return { name: name.toLowerCase(), port };
}

function origin(scheme: 'http' | 'https', host: { name: string; port: string | undefined }): string {
  const port = host.port === undefined || host.port === DEFAULT_PORT[scheme] ? '' : `:${host.port}`;
  return `${scheme}://${host.name}${port}`;
}
