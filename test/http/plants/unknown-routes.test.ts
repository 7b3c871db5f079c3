import { describe, it } from 'vitest';
import { useLocalStack } from '#test/support/server.ts';
import { type Answer, expectPlantError } from './helpers.ts';

const api = useLocalStack();

async function send(method: string, path: string): Promise<Answer> {
  const res = await fetch(`${api.plantsUrl}${path}`, { method });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

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
