import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '#local/dynamodb.ts';
import { keysCommand } from '#local/keys-cli.ts';
import { makeDeps } from '#shared/deps.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
import { runInProcess, runScript } from '#test/support/processes.ts';

// A table of its own: rotating the keys of the shared test table would not break other files
// (that is the point of rotation), but their assertions on kids are theirs to keep.
const table = `keys-cli-${process.pid}-${Date.now().toString(36)}`;
const env = {
  DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
  TABLE_NAME: table,
  LOCAL_SECRETS_KEY: inject('secretsKey'),
};
const keysCli = (args: string[], extra: Record<string, string> = {}) =>
  runInProcess(keysCommand, args, { ...env, ...extra });
/** As `npm run keys` runs it: a process of its own, started by tsx. */
const spawnedKeysCli = (args: string[]) => runScript('local/keys-cli.ts', args, env);
const tableKeys = () => signingKeys(makeDeps({ ...env, AWS_REGION: 'us-east-1' }));
const keysOfTable = () => tableKeys().publicJwks({ fresh: true });

beforeAll(() => ensureTable(env.DYNAMODB_ENDPOINT, table));

describe('npm run keys -- rotate', () => {
  it('makes a new active key and keeps the previous one published', async () => {
    const first = await spawnedKeysCli(['rotate', '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const { kid: firstKid } = JSON.parse(first.stdout);
    expect(firstKid).toMatch(/^key_/);

    const second = await keysCli(['rotate']);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Signing key rotated: new kid key_\w+\./);
    const secondKid = second.stdout.match(/new kid (key_\w+)/)?.[1];

    const { keys } = await keysOfTable();
    expect(keys.map((k) => k.kid)).toEqual([secondKid, firstKid]);
    expect((await tableKeys().active()).kid).toBe(secondKid);
  });

  it('refuses, writing nothing, when its secrets key cannot read the current key', async () => {
    await tableKeys().active();
    const before = await keysOfTable();
    const result = await keysCli(['rotate'], { LOCAL_SECRETS_KEY: randomBytes(32).toString('base64') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('does not decrypt with this key vault; nothing rotated');
    expect(await keysOfTable()).toEqual(before);
  });

  it('rotates the RS256 key too once the deployment has one, in the same run', async () => {
    const es = (await tableKeys().active()).kid;
    const rs = (await tableKeys().active('RS256')).kid;
    const result = await keysCli(['rotate', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { kid, kids } = JSON.parse(result.stdout);
    expect(kids).toEqual({ ES256: kid, RS256: expect.stringMatching(/^key_/) });
    expect([kid, kids.RS256]).not.toContain(es);
    expect([kid, kids.RS256]).not.toContain(rs);
    expect((await tableKeys().active('RS256')).kid).toBe(kids.RS256);
    const published = (await keysOfTable()).keys.map((k) => k.kid);
    expect(published).toEqual(expect.arrayContaining([es, rs, kid, kids.RS256]));

    const text = await keysCli(['rotate']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^Signing keys rotated: new ES256 kid key_\w+, new RS256 kid key_\w+\. The previous keys stay published for 1 hour\.\n$/,
    );
  });

  it('refuses bad command lines with exit code 2 and the usage', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [[], {}, 'the one command is "rotate"'],
      [['rotate', '--bogus'], {}, "Unknown option '--bogus'"],
      [['rotate'], { DYNAMODB_ENDPOINT: '', TABLE_NAME: 'Identity-Table' }, 'a deployed table needs KMS_KEY_ID'],
    ];
    for (const [args, extra, message] of cases) {
      const result = await keysCli(args, extra);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('usage: npm run keys -- rotate [--json]');
    }
  });
});
