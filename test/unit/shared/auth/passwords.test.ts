import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  needsRehash,
  PRODUCTION_ARGON2,
  parseArgon2Params,
  verifyPassword,
} from '#shared/auth/passwords.ts';
import { makeDeps } from '#shared/deps.ts';
import { TEST_ARGON2_PARAMS } from '#test/support/deps.ts';

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

describe('passwords', () => {
  it('are hashed in production at OWASP’s argon2id parameters (m=19456 KiB, t=2, p=1), which the stored hash records', async () => {
    // A deployed function's environment has no ARGON2_PARAMS (test/infra/identity-stack.test.ts): these are its deps.
    const { argon2 } = makeDeps({ TABLE_NAME: 'unit-test' }).config;
    expect(argon2).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    const hash = await hashPassword(argon2, 'Greenhouse42');
    expect(PHC.exec(hash)?.slice(1)).toEqual(['19456', '2', '1']);
    expect(await verifyPassword(hash, 'Greenhouse42')).toBe(true);
    expect(await verifyPassword(hash, 'greenhouse42')).toBe(false);
  });

  it('take the tests’ cheap parameters from ARGON2_PARAMS, and a hash made at either verifies under both', async () => {
    const { argon2 } = makeDeps({ TABLE_NAME: 'unit-test', ARGON2_PARAMS: TEST_ARGON2_PARAMS }).config;
    expect(argon2).toEqual({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    const cheap = await hashPassword(argon2, 'Greenhouse42');
    expect(PHC.exec(cheap)?.slice(1)).toEqual(['1024', '1', '1']);
    expect(await verifyPassword(cheap, 'Greenhouse42')).toBe(true);
    // Production rehashes such a hash at the next login.
    expect(needsRehash(PRODUCTION_ARGON2, cheap)).toBe(true);
    expect(needsRehash(argon2, cheap)).toBe(false);
  });

  it('refuses ARGON2_PARAMS argon2 would not take, at startup', () => {
    for (const bad of ['m=4,t=1,p=1', 'm=1024,t=0,p=1', 'm=1024,t=1', '19456,2,1', 'm=1024,t=1,p=0']) {
      expect(parseArgon2Params(bad), bad).toBeUndefined();
      expect(() => makeDeps({ TABLE_NAME: 'unit-test', ARGON2_PARAMS: bad }), bad).toThrow(/ARGON2_PARAMS/);
    }
  });

  it('asks for a rehash of hashes made with other parameters or algorithms', () => {
    expect(needsRehash(PRODUCTION_ARGON2, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(false);
    expect(needsRehash(PRODUCTION_ARGON2, '$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(true);
    expect(needsRehash(PRODUCTION_ARGON2, '$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(true);
  });
});
