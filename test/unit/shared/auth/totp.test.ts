import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  hashBackupCode,
  looksLikeBackupCode,
  newBackupCodes,
  newTotpSecret,
  totpCodeAt,
  totpStepOf,
  totpUri,
} from '#shared/auth/totp.ts';
import { cryptoRandom } from '#shared/random.ts';

const now = new Date('2026-11-21T12:00:15Z');
const step = Math.floor(now.getTime() / 30_000);

describe('TOTP (RFC 6238, SHA-1, 6 digits, 30 s, ±1 step)', () => {
  const secret = newTotpSecret();

  it('accepts the current code and those of one step before and after, naming their step', () => {
    expect(totpStepOf(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(totpStepOf(secret, totpCodeAt(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(totpStepOf(secret, totpCodeAt(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
  });

  it('refuses codes two steps away and anything that is not six digits', () => {
    expect(totpStepOf(secret, totpCodeAt(secret, new Date(now.getTime() - 60_000)), now)).toBeNull();
    for (const code of ['', '12345', '1234567', 'abcdef']) expect(totpStepOf(secret, code, now)).toBeNull();
  });

  it('matches RFC 6238 test vector (SHA-1, T=59 → 287082 in 6 digits)', () => {
    const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
    expect(totpCodeAt(rfcSecret, new Date(59_000))).toBe('287082');
  });

  it('builds an otpauth:// URI with the tenant as issuer', () => {
    const uri = totpUri(secret, 'Acme Plants', 'ada@acme.test');
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(uri).toContain('issuer=Acme%20Plants');
    expect(uri).toContain(`secret=${secret}`);
  });

  it.each([
    ['Acme: Plants', 'Acme Plants'],
    ['Shop:1', 'Shop 1'],
    ['a : b :: c', 'a b c'],
  ])('puts a tenant named %j into the label and issuer as authenticator apps parse them', (name, shown) => {
    // Apps split the decoded label at its first colon (key-uri format); otpauth's parser does the same.
    const parsed = OTPAuth.URI.parse(totpUri(secret, name, 'ada@acme.test'));
    expect(parsed).toBeInstanceOf(OTPAuth.TOTP);
    expect({ issuer: parsed.issuer, label: parsed.label, secret: parsed.secret.base32 }).toEqual({
      issuer: shown,
      label: 'ada@acme.test',
      secret,
    });
    const label = decodeURIComponent(new URL(totpUri(secret, name, 'ada@acme.test')).pathname.slice(1));
    expect(label).toBe(`${shown}:ada@acme.test`);
  });
});

describe('backup codes', () => {
  it('makes ten distinct codes that hash the same however they are typed', () => {
    const codes = newBackupCodes(cryptoRandom);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(looksLikeBackupCode(code)).toBe(true);
    const [code = ''] = codes;
    expect(hashBackupCode(code.toUpperCase().replaceAll('-', ''))).toBe(hashBackupCode(code));
    expect(hashBackupCode(code)).not.toContain(code.replaceAll('-', ''));
  });
});
