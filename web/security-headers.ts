/**
 * The security headers of every hosted page, written once: CloudFront's
 * response headers policy (infra/web-stack.ts) and the local server
 * (local/web-server.ts) both send exactly these, so what a test sees locally
 * is what a browser gets from AWS.
 *
 * The Content-Security-Policy allows no inline script and no script from
 * anywhere but the pages' own origin; the API is same-origin (`/api/*`), so
 * `connect-src 'self'` is all it needs. Tenant logos may be any https image.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Two years, subdomains included: every tenant's pages live on a subdomain of the hosted domain. */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;

export const WEB_SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  // Invitation tokens travel in the sign-up URL: no page ever sends its URL to another site.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
} as const;

/** Hashed build assets never change; the HTML always revalidates so a deploy is seen at once. */
export const CACHE_CONTROL = {
  asset: 'public, max-age=31536000, immutable',
  html: 'no-cache',
} as const;
