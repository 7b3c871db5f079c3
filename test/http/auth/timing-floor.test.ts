import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const FLOOR_MS = 300;
const api = useLocalStack({ codeResponseFloorMs: FLOOR_MS });

/** Lower bounds only: a floor holds on any machine, however slow (no upper bound is asserted). */
async function timed(run: () => Promise<{ status: number }>) {
  const started = performance.now();
  const res = await run();
  return { status: res.status, ms: performance.now() - started };
}

describe('code requests take at least the configured floor, known e-mail or not', () => {
  it('e-mail-code login and forgot-password answer no sooner than the floor for both', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    for (const email of [user.email, `nobody-${Date.now()}@shop.test`]) {
      const login = await timed(() => post(`${api.url}/auth/login`, { email }, tenant.headers));
      expect(login.status).toBe(200);
      expect(login.ms).toBeGreaterThanOrEqual(FLOOR_MS);
      const forgot = await timed(() => post(`${api.url}/auth/forgot-password`, { email }, tenant.headers));
      expect(forgot.status).toBe(202);
      expect(forgot.ms).toBeGreaterThanOrEqual(FLOOR_MS);
    }
  });
});
