import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from '#shared/auth/passwords.ts';

describe('passwords', () => {
  it('hashes with argon2id at OWASP parameters (m=19456, t=2, p=1) as a PHC string', async () => {
    const hash = await hashPassword('Greenhouse42');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(await verifyPassword(hash, 'Greenhouse42')).toBe(true);
    expect(await verifyPassword(hash, 'greenhouse42')).toBe(false);
  });

  it('asks for a rehash of hashes made with other parameters or algorithms', () => {
    expect(needsRehash('$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(false);
    expect(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(true);
    expect(needsRehash('$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(true);
  });
});
