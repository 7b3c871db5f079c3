import { describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '#shared/errors.ts';
import { outcomeOf } from '#shared/metrics.ts';

/** The outcome dimension (shared/metrics.ts): every problem code in a family of its status, and few families. */
describe('outcomeOf', () => {
  it('puts every answer below 400 in success (200, 201, 202, 204, the redirects)', () => {
    for (const status of [200, 201, 202, 204, 302, 303]) expect(outcomeOf(status)).toBe('success');
  });

  it('puts each problem code of the catalogue in the family of its status', () => {
    const families = Object.fromEntries(
      (Object.keys(ERRORS) as ErrorCode[]).map((code) => [code, outcomeOf(ERRORS[code])]),
    );
    expect(families).toMatchObject({
      VALIDATION_FAILED: 'invalid_request',
      MALFORMED_JSON: 'invalid_request',
      PAYLOAD_TOO_LARGE: 'invalid_request',
      UNSUPPORTED_MEDIA_TYPE: 'invalid_request',
      METHOD_NOT_ALLOWED: 'invalid_request',
      INVALID_GRANT: 'invalid_request',
      INVALID_CREDENTIALS: 'unauthenticated',
      INVALID_CODE: 'unauthenticated',
      REFRESH_TOKEN_REUSED: 'unauthenticated',
      SESSION_REVOKED: 'unauthenticated',
      REAUTHENTICATION_REQUIRED: 'forbidden',
      ACCOUNT_DISABLED: 'forbidden',
      NOT_FOUND: 'not_found',
      TENANT_NOT_FOUND: 'not_found',
      CONFLICT: 'conflict',
      ALREADY_EXISTS: 'conflict',
      TOO_MANY_ATTEMPTS: 'rate_limited',
      RATE_LIMITED: 'rate_limited',
      INTERNAL: 'server_error',
      UNAVAILABLE: 'unavailable',
    });
    // Eight problem families at most (nine outcomes with success): each is a metric series per route, billed.
    expect(new Set(Object.values(families)).size).toBeLessThanOrEqual(8);
  });

  it("puts API Gateway's own answers in a family too (a 502 or 504 is a server error)", () => {
    expect(outcomeOf(502)).toBe('server_error');
    expect(outcomeOf(504)).toBe('server_error');
    expect(outcomeOf(418)).toBe('invalid_request');
  });
});
