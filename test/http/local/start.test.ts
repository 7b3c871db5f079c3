import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, isDynamoDbUp } from '#local/dynamodb.ts';
import { bodyOf } from '#test/support/http.ts';
import { startScript } from '#test/support/processes.ts';

/** What `npm start` prints about the demo tenant. */
function printedTenant(output: string) {
  const field = (name: string) => new RegExp(`^\\s+${name}\\s+(\\S+)`, 'm').exec(output)?.[1];
  return {
    app: field('app'),
    mid: field('mid'),
    publicApiKey: field('publicApiKey'),
    admin: field('admin'),
    password: field('password'),
  };
}

async function ports() {
  return {
    PORT: String(await freePort()),
    PLANTS_PORT: String(await freePort()),
    SES_PORT: String(await freePort()),
    DYNAMODB_PORT: String(await freePort()),
  };
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'identity-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves the demo tenant, keeps it across a restart, and Ctrl-C stops every child process and prints the metrics', async () => {
    // As `npm start` runs outside the tests, which keep the request lines and the info log lines quiet.
    const env = {
      ...(await ports()),
      IDENTITY_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    const first = await startScript('local/start.ts', [], env, 'Ctrl-C stops everything.');
    const tenant = printedTenant(first.output());
    expect(tenant.app).toMatch(/^app_/);
    expect(tenant.mid).toMatch(/^mid_/);
    expect(tenant.admin).toBe('admin@demo.test');
    expect(tenant.password).toMatch(/^(?=.*[a-z])(?=.*\d).{8,}$/);
    expect(first.output()).toContain(`http://localhost:${env.PORT}/api/v1`);
    expect(first.output()).toContain(`http://localhost:${env.SES_PORT}/`);

    const api = `http://localhost:${env.PORT}/api/v1`;
    const discover = (origin: string) =>
      fetch(`${api}/auth/discovery?clientId=${tenant.publicApiKey}`, { headers: { origin } });
    for (const origin of ['http://localhost:3000', 'http://localhost:5173']) {
      const res = await discover(origin);
      expect(res.status).toBe(200);
      expect(await bodyOf(res)).toMatchObject({ app: tenant.app, mid: tenant.mid, subdomain: 'demo' });
    }
    expect((await discover('http://localhost:8080')).status).toBe(403);
    const inbox = await fetch(`http://localhost:${env.SES_PORT}/store`);
    expect(inbox.status).toBe(200);

    // The demo tenant's hosted pages, printed for the user to open; their own origin discovers it by slug.
    const pages = `http://demo.localhost:${env.PORT}`;
    for (const path of ['/sign-in', '/sign-up', '/account', '/console'])
      expect(first.output()).toContain(`${pages}${path}`);
    const bySlug = await fetch(`${api}/auth/discovery?slug=demo`, { headers: { origin: pages } });
    expect(bySlug.status).toBe(200);
    expect(await bodyOf(bySlug)).toMatchObject({ app: tenant.app, publicApiKey: tenant.publicApiKey });

    // The plant store: the demo admin logs in and creates a plant with the access token.
    const plants = `http://localhost:${env.PLANTS_PORT}`;
    expect(first.output()).toContain(`Plant store  ${plants}`);
    const login = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': `${tenant.app}`, 'x-mid-key': `${tenant.mid}` },
      body: JSON.stringify({ email: tenant.admin, password: tenant.password }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await bodyOf(login)).data;
    const plant = await fetch(`${plants}/plants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ id: 1, name: 'Monstera', tag: 'demo' }),
    });
    expect(plant.status).toBe(200);
    expect(await bodyOf(plant)).toEqual({ id: 1, name: 'Monstera', tag: 'demo' });

    // A refused sign-in too, for the summary's outcomes and counters.
    const refused = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': `${tenant.app}`, 'x-mid-key': `${tenant.mid}` },
      body: JSON.stringify({ email: tenant.admin, password: 'not-the-password-1' }),
    });
    expect(refused.status).toBe(401);
    // Each request's line goes to the summary below, not to the terminal (--metrics prints them as they come).
    expect(first.output()).not.toContain('"message":"request"');

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    // On Ctrl-C, the metrics the functions sent, per route (requests, latency, outcomes), and the counters.
    const summary = first.output().slice(first.output().indexOf('Metrics of this run'));
    expect(summary).toMatch(
      /^\s+login\s+2\s+\d+\s+\d+\s+(success 1, unauthenticated 1|unauthenticated 1, success 1)$/m,
    );
    expect(summary).toMatch(/^\s+createPlant\s+1\s+\d+\s+\d+\s+success 1$/m);
    expect(summary).toMatch(/^\s+discovery\s+4\s/m);
    expect(summary).toContain('counters: FailedLogins 1, SessionsStarted 1');
    expect(await isDynamoDbUp(`http://127.0.0.1:${env.DYNAMODB_PORT}`)).toBe(false);
    await expect(fetch(`http://localhost:${env.SES_PORT}/store`)).rejects.toThrow();
    await expect(fetch(`${plants}/openapi.json`)).rejects.toThrow();

    // The data lives in the data folder: a restart prints the same tenant, which still answers.
    const second = await startScript('local/start.ts', [], env, 'Ctrl-C stops everything.');
    try {
      expect(printedTenant(second.output())).toEqual(tenant);
      expect((await discover('http://localhost:5173')).status).toBe(200);
    } finally {
      second.child.kill('SIGINT');
      await second.exited;
    }
  }, 60_000);

  it("with --in-memory keeps nothing on disk and makes the demo tenant anew; --metrics prints each request's line", async () => {
    const env = {
      ...(await ports()),
      IDENTITY_DATA_DIR: join(dataDir, 'unused'),
      LOG_LEVEL: 'info',
    };
    const run = await startScript('local/start.ts', ['--in-memory', '--metrics'], env, 'Ctrl-C stops everything.');
    try {
      expect(run.output()).toContain('in memory');
      const tenant = printedTenant(run.output());
      const res = await fetch(`http://localhost:${env.PORT}/api/v1/auth/discovery?clientId=${tenant.publicApiKey}`, {
        headers: { origin: 'http://localhost:5173' },
      });
      expect(res.status).toBe(200);
      // The request's line as the function wrote it: its summary, and what CloudWatch would turn into the route's
      // Requests and Latency.
      await expect
        .poll(() =>
          run
            .output()
            .split('\n')
            .filter((line) => line.startsWith('{"message":"request"'))
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .find((line) => line.route === 'discovery'),
        )
        .toMatchObject({
          _aws: {
            CloudWatchMetrics: [
              {
                Namespace: 'IdentityService',
                Dimensions: [
                  ['service', 'route'],
                  ['service', 'route', 'outcome'],
                ],
              },
              { Namespace: 'IdentityService', Dimensions: [['service', 'route']] },
            ],
          },
          service: 'local',
          status: 200,
          outcome: 'success',
          Requests: 1,
        });
    } finally {
      run.child.kill('SIGINT');
      await run.exited;
    }
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dataDir, 'unused'))).toBe(false);
  }, 60_000);
});
