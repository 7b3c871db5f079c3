import { describe, expect, it } from 'vitest';
import { loginMethod } from '#shared/auth/login.ts';
import type { LoginRequest } from '#shared/auth/schemas.ts';
import { AppError } from '#shared/errors.ts';
import type { LoginMode } from '#shared/tenancy/schemas.ts';
import { aMerchant } from '#test/support/builders.ts';

const email = 'fern@shop.test';

/** The AppError code `loginMethod` stops with, or the method it picks. */
function outcome(loginMode: LoginMode, body: LoginRequest): string {
  try {
    return loginMethod(aMerchant({ loginMode }), body);
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.code}`;
    throw error;
  }
}

describe('loginMethod', () => {
  describe('in a PASSWORD tenant', () => {
    it('takes { email, password } as a password login', () => {
      expect(outcome('PASSWORD', { email, password: 'Fern-1234' })).toBe('PASSWORD');
      expect(outcome('PASSWORD', { email, password: 'Fern-1234', loginMode: 'PASSWORD' })).toBe('PASSWORD');
    });

    it('refuses { email } alone with 400 VALIDATION_FAILED naming password', () => {
      expect(outcome('PASSWORD', { email })).toBe('400 VALIDATION_FAILED');
      try {
        loginMethod(aMerchant({ loginMode: 'PASSWORD' }), { email });
        expect.unreachable('a password login without a password was accepted');
      } catch (error) {
        expect((error as AppError).errors).toEqual([{ path: 'password', message: 'is required' }]);
      }
    });

    it('refuses loginMode OTP_EMAIL with 403 LOGIN_MODE_NOT_ALLOWED', () => {
      expect(outcome('PASSWORD', { email, loginMode: 'OTP_EMAIL' })).toBe('403 LOGIN_MODE_NOT_ALLOWED');
    });
  });

  describe('in an OTP_EMAIL tenant', () => {
    it('takes { email } as an e-mail code login', () => {
      expect(outcome('OTP_EMAIL', { email })).toBe('OTP_EMAIL');
      expect(outcome('OTP_EMAIL', { email, loginMode: 'OTP_EMAIL' })).toBe('OTP_EMAIL');
    });

    it('refuses a password with 403 LOGIN_MODE_NOT_ALLOWED', () => {
      expect(outcome('OTP_EMAIL', { email, password: 'Fern-1234' })).toBe('403 LOGIN_MODE_NOT_ALLOWED');
      expect(outcome('OTP_EMAIL', { email, password: 'Fern-1234', loginMode: 'PASSWORD' })).toBe(
        '403 LOGIN_MODE_NOT_ALLOWED',
      );
    });

    it('refuses loginMode PASSWORD with 403 LOGIN_MODE_NOT_ALLOWED', () => {
      expect(outcome('OTP_EMAIL', { email, loginMode: 'PASSWORD' })).toBe('403 LOGIN_MODE_NOT_ALLOWED');
    });
  });

  describe('in a PASSWORD_OR_OTP_EMAIL tenant', () => {
    it('takes { email, password } as a password login', () => {
      expect(outcome('PASSWORD_OR_OTP_EMAIL', { email, password: 'Fern-1234' })).toBe('PASSWORD');
      expect(outcome('PASSWORD_OR_OTP_EMAIL', { email, password: 'Fern-1234', loginMode: 'PASSWORD' })).toBe(
        'PASSWORD',
      );
    });

    it('takes { email } as an e-mail code login', () => {
      expect(outcome('PASSWORD_OR_OTP_EMAIL', { email })).toBe('OTP_EMAIL');
    });

    it('takes loginMode OTP_EMAIL as an e-mail code login', () => {
      expect(outcome('PASSWORD_OR_OTP_EMAIL', { email, loginMode: 'OTP_EMAIL' })).toBe('OTP_EMAIL');
    });

    it('refuses loginMode PASSWORD without a password with 400 VALIDATION_FAILED', () => {
      expect(outcome('PASSWORD_OR_OTP_EMAIL', { email, loginMode: 'PASSWORD' })).toBe('400 VALIDATION_FAILED');
    });
  });
});

describe('loginMethod when the body names both credentials', () => {
  const both = { email: 'a@b.test', password: 'Secret123', loginMode: 'OTP_EMAIL' as const };

  it("judges the tenant's mode first: 403 LOGIN_MODE_NOT_ALLOWED where one of them is not accepted", () => {
    for (const loginMode of ['PASSWORD', 'OTP_EMAIL'] as const) {
      expect(() => loginMethod(aMerchant({ loginMode }), both)).toThrow(
        expect.objectContaining({ code: 'LOGIN_MODE_NOT_ALLOWED' }),
      );
    }
  });

  it('finds the body ambiguous (400) only where the tenant takes both', () => {
    expect(() => loginMethod(aMerchant({ loginMode: 'PASSWORD_OR_OTP_EMAIL' }), both)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
