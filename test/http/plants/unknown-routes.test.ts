import { describe, it } from 'vitest';
import { call } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { expectPlantError } from './helpers.ts';

const api = useLocalStack();

const send = (method: string, path: string) => call(api.plantsUrl, method, path, {});

describe('unknown routes of the plant store ($default)', () => {
  it('answer 404 in its own body { error: 404, message } for an unknown path and a known path with a method it does not have', async () => {
    for (const [method, path] of [
      ['GET', '/no/such/route'],
      ['GET', '/plants'],
      ['PUT', '/plants'],
      ['DELETE', '/openapi.json'],
      ['GET', '/api/v1/health'],
    ] as const) {
      expectPlantError(await send(method, path), 404, /no route/);
    }
  });
});
