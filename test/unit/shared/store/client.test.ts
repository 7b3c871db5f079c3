import { describe, expect, it } from 'vitest';
import { createStoreClient } from '#shared/store/client.ts';

describe('createStoreClient', () => {
  it("carries no SDK logger middleware: it would build a redacted copy of every answer for a logger we don't have", () => {
    const store = createStoreClient({ tableName: 'identity', endpoint: 'http://127.0.0.1:1' });
    const middleware = store.doc.middlewareStack.identify();
    expect(middleware.some((name) => name.startsWith('loggerMiddleware'))).toBe(false);
    // The rest of the SDK's stack is there (signing, retries): only the logger went.
    expect(middleware.some((name) => name.startsWith('retryMiddleware'))).toBe(true);
  });
});
