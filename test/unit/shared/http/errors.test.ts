import { describe, expect, it } from 'vitest';
import { failField } from '#shared/errors.ts';

describe('failField: a client error about one field', () => {
  it('is 400 VALIDATION_FAILED whose detail and one errors entry name the field and say what is wrong', () => {
    const error = failField('password', 'is required');
    expect({ status: error.status, code: error.code, detail: error.detail, errors: error.errors }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'password: is required',
      errors: [{ path: 'password', message: 'is required' }],
    });
  });

  it('takes another code for a field error of its own kind (a common password)', () => {
    const error = failField('newPassword', 'is one of the most common passwords', 'PASSWORD_TOO_COMMON');
    expect({ status: error.status, code: error.code, errors: error.errors }).toEqual({
      status: 400,
      code: 'PASSWORD_TOO_COMMON',
      errors: [{ path: 'newPassword', message: 'is one of the most common passwords' }],
    });
  });
});
