import { createHash } from 'node:crypto';

/** RFC 7636 4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * RFC 7636 4.6 (S256): BASE64URL(SHA256(verifier)) equals the challenge. The OpenID Provider's token endpoint checks
 * a client's code with it, and a sign-in provider's result is taken only by the page whose challenge it carries.
 */
export function pkceMatches(verifier: string, challenge: string): boolean {
  return CODE_VERIFIER.test(verifier) && createHash('sha256').update(verifier).digest('base64url') === challenge;
}
