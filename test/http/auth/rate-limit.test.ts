import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { aSessionOf } from '#test/support/faults.ts';
import { type Answer, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const LIMIT = 3;
const api = useLocalStack({ authRateLimitPerMinute: LIMIT });

let counter = 0;
const anEmail = (name = 'ivy') => `${name}-${process.pid}-${Date.now().toString(36)}-${++counter}@shop.test`;

const signup = (tenant: TestTenant) =>
  post(
    `${api.url}/auth/signup`,
    {
      app: tenant.app,
      mid: tenant.mid,
      email: anEmail(),
      password: 'Monstera-42-leaf',
      firstName: 'Ivy',
      lastName: 'Green',
    },
    tenant.headers,
  );
const forgot = (tenant: TestTenant) => post(`${api.url}/auth/forgot-password`, { email: anEmail() }, tenant.headers);

/**
 * The limiter counts per clock minute. Runs `requests` against a fresh setup
 * and keeps the answers only if they all fell within one minute; a batch that
 * straddles a minute boundary is run once more (two batches of a few seconds
 * cannot both straddle one).
 */
async function withinOneMinute<S>(setup: () => Promise<S>, requests: (s: S) => Promise<Answer[]>) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const state = await setup();
    const minute = Math.floor(Date.now() / 60_000);
    const answers = await requests(state);
    if (Math.floor(Date.now() / 60_000) === minute) return { state, answers };
  }
  throw new Error('two batches in a row straddled a minute boundary');
}

async function inSequence(count: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) answers.push(await send());
  return answers;
}

function expectRateLimited(res: Answer) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body.code).toBe('RATE_LIMITED');
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
}

describe('auth rate limit per (tenant, IP)', () => {
  it('returns 429 RATE_LIMITED with Retry-After to the 4th signup within a minute', async () => {
    const { answers } = await withinOneMinute(
      () => aTenantWith(),
      (tenant) => inSequence(LIMIT + 2, () => signup(tenant)),
    );
    expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual([201, 201, 201]);
    for (const res of answers.slice(LIMIT)) expectRateLimited(res);
  });

  it('returns 429 RATE_LIMITED with Retry-After to the 4th login within a minute, even with the right password', async () => {
    const { answers } = await withinOneMinute(
      async () => {
        const tenant = await aTenantWith();
        return { tenant, user: await aUser(tenant) };
      },
      ({ tenant, user }) =>
        inSequence(LIMIT + 2, () =>
          post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers),
        ),
    );
    expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual([200, 200, 200]);
    for (const res of answers.slice(LIMIT)) {
      expectRateLimited(res);
      expect(res.body.data).toBeUndefined();
    }
  });

  it('returns 429 RATE_LIMITED with Retry-After to the 4th forgot-password within a minute', async () => {
    const { answers } = await withinOneMinute(
      () => aTenantWith(),
      (tenant) => inSequence(LIMIT + 2, () => forgot(tenant)),
    );
    expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual([202, 202, 202]);
    for (const res of answers.slice(LIMIT)) expectRateLimited(res);
  });

  it('leaves refreshes out: five within a minute all answer 200, and a login after them is the first counted', async () => {
    const { answers } = await withinOneMinute(
      async () => {
        const tenant = await aTenantWith();
        const user = await aUser(tenant);
        // A session started in the store: a login through the API would count against the limit.
        return { tenant, user, session: await aSessionOf(tenant, user.id) };
      },
      async ({ tenant, user, session }) => {
        let refreshToken = session.refreshToken;
        const refreshes = await inSequence(LIMIT + 2, async () => {
          const res = await post(`${api.url}/auth/refresh`, { refreshToken }, tenant.headers);
          if (res.status === 200) refreshToken = res.body.data.refreshToken;
          return res;
        });
        // Users behind one NAT refresh freely; what the limit guards (guesses) still counts from one.
        const logins = await inSequence(LIMIT + 1, () =>
          post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers),
        );
        return [...refreshes, ...logins];
      },
    );
    expect(answers.slice(0, LIMIT + 2).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.slice(LIMIT + 2, 2 * LIMIT + 2).map((a) => a.status)).toEqual([200, 200, 200]);
    expectRateLimited(answers[2 * LIMIT + 2] as Answer);
  });

  it('counts signup, login and forgot-password requests together', async () => {
    const { answers } = await withinOneMinute(
      () => aTenantWith(),
      async (tenant) => [
        await signup(tenant),
        await post(`${api.url}/auth/login`, { email: anEmail(), password: 'Wrong-12-pass' }, tenant.headers),
        await forgot(tenant),
        await forgot(tenant),
      ],
    );
    expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual([201, 401, 202]);
    expectRateLimited(answers[LIMIT] as Answer);
  });

  it('returns 429 RATE_LIMITED with Retry-After to the 4th invitation lookup within a minute, whatever the token', async () => {
    const lookup = (tenant: TestTenant) =>
      post(`${api.url}/auth/invitations/lookup`, { invitationToken: `inv_${anEmail()}` }, tenant.headers);
    const { answers } = await withinOneMinute(
      () => aTenantWith(),
      (tenant) => inSequence(LIMIT + 2, () => lookup(tenant)),
    );
    // Guessing tokens is held to the limit like guessing codes.
    expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual([404, 404, 404]);
    for (const res of answers.slice(LIMIT)) expectRateLimited(res);
  });

  it('counts another tenant separately for the same IP', async () => {
    const { answers } = await withinOneMinute(
      async () => ({ limited: await aTenantWith(), other: await aTenantWith() }),
      async ({ limited, other }) => [
        ...(await inSequence(LIMIT + 1, () => forgot(limited))),
        ...(await inSequence(LIMIT, () => forgot(other))),
      ],
    );
    expectRateLimited(answers[LIMIT] as Answer);
    expect(answers.slice(LIMIT + 1).map((a) => a.status)).toEqual([202, 202, 202]);
  });
});
