import { describe, expect, it } from 'vitest';
import { reauthMethod } from '#shared/auth/reauthenticate.ts';
import type { ReauthenticateRequest } from '#shared/auth/schemas.ts';
import { AppError } from '#shared/errors.ts';
import type { LoginMode } from '#shared/tenancy/schemas.ts';
import { aMerchant } from '#test/support/builders.ts';

/** The method `reauthMethod` picks, or `<status> <code> <path?>` when it stops. */
function outcome(loginMode: LoginMode, body: ReauthenticateRequest): string {
  try {
    return reauthMethod(aMerchant({ loginMode }), body);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return [error.status, error.code, error.errors?.[0]?.path].filter(Boolean).join(' ');
  }
}

const password = { password: 'Fern-1234' };
const sendCode = { loginMode: 'OTP_EMAIL' } as const;
const codeStep = { challengeId: 'chl_1', code: '123456' };

// biome-ignore format: a table reads best aligned
const cases: [string, ReauthenticateRequest, Record<LoginMode, string>][] = [
  ['{ password }',                password,                           { PASSWORD: 'PASSWORD',               OTP_EMAIL: '403 LOGIN_MODE_NOT_ALLOWED', PASSWORD_OR_OTP_EMAIL: 'PASSWORD' }],
  ['{ password, totpCode }',      { ...password, totpCode: '1' },     { PASSWORD: 'PASSWORD',               OTP_EMAIL: '403 LOGIN_MODE_NOT_ALLOWED', PASSWORD_OR_OTP_EMAIL: 'PASSWORD' }],
  ['{ loginMode: OTP_EMAIL }',    sendCode,                           { PASSWORD: '403 LOGIN_MODE_NOT_ALLOWED', OTP_EMAIL: 'SEND_CODE',             PASSWORD_OR_OTP_EMAIL: 'SEND_CODE' }],
  ['{ challengeId, code }',       codeStep,                           { PASSWORD: '403 LOGIN_MODE_NOT_ALLOWED', OTP_EMAIL: 'CODE',                  PASSWORD_OR_OTP_EMAIL: 'CODE' }],
  ['{ loginMode: PASSWORD }',     { loginMode: 'PASSWORD' },          { PASSWORD: '400 VALIDATION_FAILED password', OTP_EMAIL: '403 LOGIN_MODE_NOT_ALLOWED', PASSWORD_OR_OTP_EMAIL: '400 VALIDATION_FAILED password' }],
  ['{}',                          {},                                 { PASSWORD: '400 VALIDATION_FAILED password', OTP_EMAIL: '400 VALIDATION_FAILED loginMode', PASSWORD_OR_OTP_EMAIL: '400 VALIDATION_FAILED password' }],
  ['a password and a code',       { ...password, ...codeStep },       { PASSWORD: '403 LOGIN_MODE_NOT_ALLOWED', OTP_EMAIL: '403 LOGIN_MODE_NOT_ALLOWED', PASSWORD_OR_OTP_EMAIL: '400 VALIDATION_FAILED password' }],
  ['a code without challengeId',  { code: '123456' },                 { PASSWORD: '403 LOGIN_MODE_NOT_ALLOWED', OTP_EMAIL: '400 VALIDATION_FAILED challengeId', PASSWORD_OR_OTP_EMAIL: '400 VALIDATION_FAILED challengeId' }],
  ['a code request with totpCode', { ...sendCode, totpCode: '1' },    { PASSWORD: '403 LOGIN_MODE_NOT_ALLOWED', OTP_EMAIL: '400 VALIDATION_FAILED totpCode', PASSWORD_OR_OTP_EMAIL: '400 VALIDATION_FAILED totpCode' }],
];

describe('reauthMethod: the tenant’s login mode is judged first, as at login', () => {
  it.each(cases)('%s', (_, body, expected) => {
    for (const mode of ['PASSWORD', 'OTP_EMAIL', 'PASSWORD_OR_OTP_EMAIL'] as const) {
      expect({ mode, answer: outcome(mode, body) }).toEqual({ mode, answer: expected[mode] });
    }
  });
});
