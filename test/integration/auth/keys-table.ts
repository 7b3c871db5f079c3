import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject, vi } from 'vitest';
import { ensureTable } from '#local/dynamodb.ts';
import type { Clock } from '#shared/clock.ts';
import { type Deps, makeDeps } from '#shared/deps.ts';

/**
 * The signing keys live in one table-wide partition (`KEYS`), so these tests
 * each get a table of their own on the run's DynamoDB Local: nothing depends
 * on, or disturbs, the keys other test files make in the shared table.
 */
let counter = 0;

export async function aKeysTable(): Promise<string> {
  counter++;
  const tableName = `keys-${process.pid}-${Date.now().toString(36)}-${counter}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  return tableName;
}

/**
 * The deps of one "process" (one Lambda cold start) on that table: each call
 * builds its own store client, so it starts with empty key caches.
 */
export function aProcess(tableName: string, overrides: Partial<Deps> = {}): Deps {
  const deps = makeDeps({
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    AWS_REGION: 'us-east-1',
    ISSUER_URL: 'http://localhost:3000/api/v1',
    LOCAL_SECRETS_KEY: inject('secretsKey'),
  });
  return { ...deps, ...overrides };
}

/** A clock that moves only when told. */
export function aClock(start = '2026-11-21T10:00:00.000Z'): Clock & { advance(ms: number): void } {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
  };
}

export const MINUTE = 60_000;

/** A process whose Queries are counted: every read of the KEYS partition is one. */
export function countingQueries(deps: Deps) {
  const send = deps.store.doc.send.bind(deps.store.doc);
  const queries = vi.fn();
  deps.store.doc.send = ((command: unknown, ...rest: unknown[]) => {
    if (command instanceof QueryCommand) queries();
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof deps.store.doc.send;
  return { deps, queries };
}
