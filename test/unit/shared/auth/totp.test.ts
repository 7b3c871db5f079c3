import { createHash } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { describe, expect, it, vi } from 'vitest';
import {
  hashBackupCode,
  newBackupCodes,
  newTotpSecret,
  storedBackupCodeHash,
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
  const CODE = /^[0-9a-hjkmnp-tv-z]{6}(-[0-9a-hjkmnp-tv-z]{6}){3}$/;
  const userA = 'usr_aaaaaaaaaaaaaaaaaaaa';
  const userB = 'usr_bbbbbbbbbbbbbbbbbbbb';

  it('makes ten distinct codes that hash the same however they are typed', () => {
    const codes = newBackupCodes(cryptoRandom);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(storedBackupCodeHash(userA, code)).toBe(hashBackupCode(userA, code));
    const [code = ''] = codes;
    for (const typed of [code.toUpperCase().replaceAll('-', ''), ` ${code.replaceAll('-', ' ')} `]) {
      expect(hashBackupCode(userA, typed)).toBe(hashBackupCode(userA, code));
      expect(storedBackupCodeHash(userA, typed)).toBe(hashBackupCode(userA, code));
    }
    expect(hashBackupCode(userA, code)).not.toContain(code.replaceAll('-', ''));
  });

  it('are 4 groups of 6 Crockford base32 characters: 120 bits each, at least the 112 ASVS 6.5.2 asks', () => {
    const drawn: number[] = [];
    const random = {
      token: vi.fn((chars: number) => {
        drawn.push(chars);
        return cryptoRandom.token(chars);
      }),
    };
    const codes = newBackupCodes(random);
    expect(drawn).toEqual(Array(10).fill(24));
    for (const code of codes) expect(code).toMatch(CODE);
    // 24 characters of a 32-letter alphabet, drawn uniformly (5 bits of a random byte each).
    expect(24 * Math.log2(32)).toBe(120);
    const seen = new Set(newBackupCodes(cryptoRandom, 200).join('').replaceAll('-', ''));
    expect(seen.size).toBe(32);
  });

  it('hashes one code differently for two users (the user id salts it)', () => {
    const [code = ''] = newBackupCodes(cryptoRandom);
    expect(hashBackupCode(userA, code)).not.toBe(hashBackupCode(userB, code));
    expect(hashBackupCode(userA, code)).toMatch(/^v2:[0-9a-f]{64}$/);
  });

  it('finds an old-format code (12 characters, before the salt) under its old unsalted hash', () => {
    const legacy = 'k3m9-x2pq-7hcd';
    const oldHash = createHash('sha256').update('backup:k3m9x2pq7hcd').digest('hex');
    expect(storedBackupCodeHash(userA, legacy)).toBe(oldHash);
    expect(storedBackupCodeHash(userB, 'K3M9X2PQ7HCD')).toBe(oldHash);
    // Crockford look-alikes typed for digits: O for 0, I or L for 1.
    expect(storedBackupCodeHash(userA, 'k3m9-x2pq-7hc0')).toBe(storedBackupCodeHash(userA, 'K3M9-X2PQ-7HCO'));
  });

  it('takes a TOTP code or anything else for no backup code', () => {
    for (const other of [
      '123456',
      '',
      'k3m9-x2pq',
      'k3m9-x2pq-7hcd-x',
      'uuuuuu-uuuuuu-uuuuuu-uuuuuu',
      'k3m9#x2pq#7hcd',
    ]) {
      expect(storedBackupCodeHash(userA, other), other).toBeNull();
    }
  });
});
