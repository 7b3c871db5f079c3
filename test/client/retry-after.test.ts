import { describe, expect, it } from 'vitest';
import { ApiError, IdentityClient } from '../../client/src/index.ts';
import { BASE_URL, fakeFetch, json, problem, recordingCookies, tenantConfig } from './support/fake-fetch.ts';

/** A client whose login is answered by `answer` (discovery as the service answers it). */
async function loginAnsweredBy(answer: () => Response): Promise<ApiError> {
  const fake = fakeFetch((request) => (request.path === '/auth/discovery' ? json(200, tenantConfig) : answer()));
  const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: recordingCookies().store });
  await client.discover({ clientId: 'pk_1' });
  const failure = await client.login({ email: 'fern@shop.test', password: 'wrong-1' }).catch((e: unknown) => e);
  if (!(failure instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(failure)}`);
  return failure;
}

function withHeader(response: Response, name: string, value: string): Response {
  response.headers.set(name, value);
  return response;
}

describe('ApiError.retryAfter', () => {
  it('is the seconds of the answer’s Retry-After (a 429 lockout)', async () => {
    const error = await loginAnsweredBy(() => withHeader(problem(429, 'TOO_MANY_ATTEMPTS'), 'Retry-After', '840'));
    expect(error.status).toBe(429);
    expect(error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(error.retryAfter).toBe(840);
  });

  it('is undefined when the answer has no Retry-After', async () => {
    const error = await loginAnsweredBy(() => problem(429, 'RATE_LIMITED'));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfter).toBeUndefined();
  });

  it('is undefined when Retry-After is not a number of seconds', async () => {
    const error = await loginAnsweredBy(() =>
      withHeader(problem(503, 'UNAVAILABLE'), 'Retry-After', 'Wed, 21 Oct 2026 07:28:00 GMT'),
    );
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.retryAfter).toBeUndefined();
  });
});
