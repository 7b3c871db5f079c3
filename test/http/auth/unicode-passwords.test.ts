import { describe, expect, it } from 'vitest';
import { aTenantWith, latestCodeTo } from '#test/support/auth.ts';
import { bearer, expectProblem, identityApi, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * The policy counts a password in code points (NIST
 * 800-63B), so every place a password is presented must too. A password of
 * 76 code points that are 146 UTF-16 units signs up, and then logs in and
 * serves as the current password (before: 400 at login, a self-lockout).
 */

const api = useLocalStack();
const { logIn, login } = identityApi(() => api.url);
const SEEDLINGS = `${'🌱'.repeat(70)}Plant1`;

describe('a password the policy accepts', () => {
  it('is accepted wherever it is presented, whatever its UTF-16 length', async () => {
    expect([...SEEDLINGS]).toHaveLength(76);
    expect(SEEDLINGS.length).toBe(146);
    const tenant = await aTenantWith();
    const email = `seedling-${Date.now()}@shop.test`;
    const signup = await post(
      `${api.url}/auth/signup`,
      { app: tenant.app, mid: tenant.mid, email, password: SEEDLINGS, firstName: 'S', lastName: 'L' },
      tenant.headers,
    );
    expect(signup.status).toBe(201);
    const verified = await post(
      `${api.url}/auth/signup/verify`,
      { challengeId: signup.body.data.challengeId, code: await latestCodeTo(api.stack.sesUrl, email) },
      tenant.headers,
    );
    expect(verified.status).toBe(200);

    const tokens = await logIn(tenant, email, SEEDLINGS);
    const changed = await post(
      `${api.url}/users/me/password`,
      { currentPassword: SEEDLINGS, newPassword: `${'🌿'.repeat(100)}Fern2` },
      bearer(tenant, tokens.accessToken),
    );
    expect(changed.status).toBe(204);
    expect((await login(tenant, email, `${'🌿'.repeat(100)}Fern2`)).status).toBe(200);
  });

  it('answers 400 naming password, without its length, for one longer than any password can be', async () => {
    const tenant = await aTenantWith();
    const res = await login(tenant, 'nobody@shop.test', 'a1'.repeat(65));
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors).toEqual([{ path: 'password', message: 'is longer than any password (128 characters)' }]);
  });
});
