import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, isDynamoDbUp } from '#local/dynamodb.ts';
import { tenantCommand } from '#local/tenant-cli.ts';
import { bodyOf } from '#test/support/http.ts';
import { runInProcess, runScript } from '#test/support/processes.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const store = { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), TABLE_NAME: inject('tableName') };
const unique = () => `cli-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const tenantCli = (args: string[], env: Record<string, string> = store) => runInProcess(tenantCommand, args, env);
/** As `npm run tenant` runs it: a process of its own, started by tsx. */
const spawnedTenantCli = (args: string[]) => runScript('local/tenant-cli.ts', args, store);

describe('npm run tenant -- create', () => {
  it('prints the new tenant as JSON, and discovery finds it for its origin', async () => {
    const subdomain = unique();
    const result = await spawnedTenantCli([
      'create',
      '--name',
      'Acme',
      '--admin-email',
      'a@acme.test',
      '--origin',
      'http://localhost:5173',
      '--origin',
      'https://acme.example',
      '--login-mode',
      'PASSWORD_OR_OTP_EMAIL',
      '--signup-mode',
      'INVITATION_ONLY',
      '--subdomain',
      subdomain,
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(Object.keys(created).sort()).toEqual(
      ['id', 'app', 'mid', 'publicApiKey', 'subdomain', 'adminUserId', 'adminEmail', 'adminPassword'].sort(),
    );
    expect(created).toMatchObject({ subdomain, adminEmail: 'a@acme.test' });
    expect(created.adminPassword).toMatch(/^(?=.*[a-z])(?=.*\d).{8,128}$/);

    const res = await fetch(`${api.url}/auth/discovery?clientId=${created.publicApiKey}`, {
      headers: { origin: 'https://acme.example' },
    });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({
      name: 'Acme',
      app: created.app,
      mid: created.mid,
      loginMode: 'PASSWORD_OR_OTP_EMAIL',
      signupMode: 'INVITATION_ONLY',
    });
  });

  it('refuses a taken subdomain with a clear error and exit code 1', async () => {
    const args = ['create', '--name', 'Twice', '--admin-email', 'a@b.test', '--origin', 'https://b.example'];
    const subdomain = unique();
    expect((await tenantCli([...args, '--subdomain', subdomain])).code).toBe(0);
    const again = await tenantCli([...args, '--subdomain', subdomain, '--json']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(`subdomain "${subdomain}" is taken`);
  });

  it('refuses bad flags with exit code 2, naming the flag and printing the usage', async () => {
    const cases: [string[], string][] = [
      [['create', '--name', 'X', '--admin-email', 'a@b.test', '--bogus'], "Unknown option '--bogus'"],
      [['create', '--admin-email', 'a@b.test'], '--name is required'],
      [['create', '--name', 'X', '--admin-email', 'not-an-email'], '--admin-email: must be an e-mail address'],
      [
        ['create', '--name', 'X', '--admin-email', 'a@b.test', '--origin', 'https://x.test/path'],
        '--origin: must be an origin',
      ],
      [['create', '--name', 'X', '--admin-email', 'a@b.test', '--login-mode', 'MAGIC'], '--login-mode'],
      [['delete', '--name', 'X'], 'the one command is "create"'],
    ];
    for (const [args, message] of cases) {
      const result = await tenantCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('usage: npm run tenant -- create');
    }
  });

  describe('when the local stack is not running', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'identity-cli-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    // It starts a JVM of its own, twice: slow on a busy machine. The command runs in this process: the JVM it starts
    // and stops is a child process either way.
    it('starts DynamoDB Local on the data folder itself, writes there, and stops it again', async () => {
      const port = await freePort();
      const env = { IDENTITY_DATA_DIR: dataDir, DYNAMODB_PORT: String(port) };
      const args = ['create', '--name', 'Offline', '--admin-email', 'a@off.test', '--subdomain', 'offline', '--json'];
      const first = await tenantCli(args, env);
      expect(first.code).toBe(0);
      expect(await isDynamoDbUp(`http://127.0.0.1:${port}`)).toBe(false);
      // The data is on disk: a second run sees the subdomain taken.
      const second = await tenantCli(args, env);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('subdomain "offline" is taken');
    }, 60_000);
  });
});
