import { describe, expect, it } from 'vitest';
import { adminApi } from '#test/support/admin.ts';
import { latestCodeTo, mailsTo } from '#test/support/auth.ts';
import { expectProblem, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * COMPROMISED voids the password. As a mere disable flag, re-enabling the
 * user would bring the leaked password back, and the owner could not recover.
 * So it voids the password (NIST 800-63B: force a change on evidence of
 * compromise), forgot-password serves COMPROMISED users, and their reset makes
 * them ACTIVE again.
 */

const api = useLocalStack();
const { call, aSuperAdmin, aSignedInUser, setStatus, login } = adminApi(() => api.url);

describe('PATCH /users/{id}/status COMPROMISED', () => {
  it('voids the password: enabling the user again does not bring it back', async () => {
    const owner = await aSuperAdmin();
    const { user } = await aSignedInUser(owner.tenant);
    expect((await setStatus(owner, user.id, 'COMPROMISED')).status).toBe(200);
    expectProblem(await login(owner.tenant, user.email, user.password), 401, 'INVALID_CREDENTIALS');
    expect((await setStatus(owner, user.id, 'ACTIVE')).status).toBe(200);
    // The leaked password is gone for good.
    expectProblem(await login(owner.tenant, user.email, user.password), 401, 'INVALID_CREDENTIALS');
  });

  it('lets the owner recover through forgot-password, which makes them ACTIVE with the new password', async () => {
    const owner = await aSuperAdmin();
    const { user } = await aSignedInUser(owner.tenant);
    expect((await setStatus(owner, user.id, 'COMPROMISED')).status).toBe(200);
    const mailsBefore = (await mailsTo(api.stack.sesUrl, user.email)).length;
    const forgot = await post(`${api.url}/auth/forgot-password`, { email: user.email }, owner.tenant.headers);
    expect(forgot.status).toBe(202);
    expect(await mailsTo(api.stack.sesUrl, user.email)).toHaveLength(mailsBefore + 1);
    const reset = await post(
      `${api.url}/auth/reset-password`,
      {
        challengeId: forgot.body.challengeId,
        code: await latestCodeTo(api.stack.sesUrl, user.email),
        newPassword: 'Recovered-42-fern',
      },
      owner.tenant.headers,
    );
    expect(reset.status, JSON.stringify(reset.body)).toBe(204);
    expect((await call('GET', `/users/${user.id}`, owner.headers)).body.status).toBe('ACTIVE');
    expect((await login(owner.tenant, user.email, 'Recovered-42-fern')).status).toBe(200);
    expectProblem(await login(owner.tenant, user.email, user.password), 401, 'INVALID_CREDENTIALS');
  });
});
