import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adminApi, aUserRecord, putUsers } from '#test/support/admin.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * GET /users answers the whole tenant in one list (docs/http.md#pagination), so its size is what limits a tenant
 * (Lambda answers at most 6 MB): gzipped when the client accepts it, several times more users fit. Sent here over
 * node:http, whose requests carry only the Accept-Encoding a test gives (fetch adds its own and decodes).
 */

const api = useLocalStack();
const { aSuperAdmin } = adminApi(() => api.url);

async function getUsers(headers: Record<string, string>, acceptEncoding: string | null) {
  const url = new URL(`${api.url}/users`);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { ...headers, ...(acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('GET /users, compressed', () => {
  it('answers gzip when the client accepts it: the same list, several times smaller', async () => {
    const owner = await aSuperAdmin();
    const deps = makeTestDeps();
    const users = await Promise.all(Array.from({ length: 60 }, () => aUserRecord(owner.tenant, {}, deps)));
    await putUsers(deps, owner.tenant, users);

    const plain = await getUsers(owner.headers, null);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const list = JSON.parse(plain.body.toString('utf8')) as { id: string }[];
    expect(list).toHaveLength(61);

    const zipped = await getUsers(owner.headers, 'gzip, deflate, br');
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(String(zipped.headers.vary)).toContain('Accept-Encoding');
    expect(JSON.parse(gunzipSync(zipped.body).toString('utf8'))).toEqual(list);
    expect(zipped.body.length * 4).toBeLessThan(plain.body.length);
  });

  it('answers plain JSON to a client that refuses gzip (q=0), and a small list uncompressed', async () => {
    const owner = await aSuperAdmin();
    const refused = await getUsers(owner.headers, 'gzip;q=0, identity');
    expect(refused.headers['content-encoding']).toBeUndefined();
    // One user: under a kilobyte, not worth compressing.
    const small = await getUsers(owner.headers, 'gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toHaveLength(1);
  });
});
