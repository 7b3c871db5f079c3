import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { login } from '#shared/auth/login.ts';
import { PRODUCTION_ARGON2, verifyPassword } from '#shared/auth/passwords.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

describe('login with a hash made at older parameters', () => {
  it('logs in and stores a new hash at the current parameters', async () => {
    const deps = makeTestDeps();
    const created = await aTenantWith({}, deps);
    const tenant = (await merchantRepo(deps.store).get(created)) as Merchant;
    const user = await aUser(tenant, {}, deps);
    const weak = await hash(user.password, { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await userRepo(deps.store).update(tenant, user.id, { passwordHash: weak });

    // At production's cost, as a deployed login runs (the tests' deps hash cheaply).
    const result = await login(
      { ...deps, config: { ...deps.config, argon2: PRODUCTION_ARGON2 } },
      tenant,
      { email: user.email, password: user.password },
      { ip: '::1', userAgent: 'x', language: 'en' as const },
    );
    expect(result).toHaveProperty('accessToken');
    const stored = (await userRepo(deps.store).get(tenant, user.id))?.passwordHash ?? '';
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, user.password)).toBe(true);
  });
});
