import { describe, expect, it } from 'vitest';
import { ERRORS } from '#shared/errors.ts';
import { SERVICE_ERROR_CODES } from '../../../client/src/errors.ts';

describe('the client SDK error catalogue', () => {
  it('lists exactly the service’s problem codes (shared/errors.ts), REAUTHENTICATION_REQUIRED included', () => {
    expect([...SERVICE_ERROR_CODES].sort()).toEqual(Object.keys(ERRORS).sort());
    expect(SERVICE_ERROR_CODES).toContain('REAUTHENTICATION_REQUIRED');
    expect(ERRORS.REAUTHENTICATION_REQUIRED).toBe(403);
  });
});
