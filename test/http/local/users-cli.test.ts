import { describe, expect, inject, it } from 'vitest';
import { usersCommand } from '#local/users-cli.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { TEST_ARGON2_PARAMS } from '#test/support/deps.ts';
import { bearer, expectProblem, identityApi } from '#test/support/http.ts';
import { runInProcess, runScript } from '#test/support/processes.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const { call, login, logIn } = identityApi(() => api.url);
// The test stack's store and secrets key (TOTP secrets must open for the stack's logins), and the tests' argon2 cost.
const store = {
  DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
  TABLE_NAME: inject('tableName'),
  LOCAL_SECRETS_KEY: inject('secretsKey'),
  ARGON2_PARAMS: TEST_ARGON2_PARAMS,
};

interface Listed {
  id: string;
  email: string;
  status: string;
  emailStatus: string;
  firstName: string | null;
  totpEnabled: boolean;
  roles: { name: string; expiresAt: string | null }[];
  registeredAt: string;
  lastLoginAt: string | null;
}

const countBy = <T>(items: T[], key: (item: T) => string) =>
  items.reduce<Record<string, number>>((counts, item) => {
    counts[key(item)] = (counts[key(item)] ?? 0) + 1;
    return counts;
  }, {});

describe('npm run users -- seed', () => {
  it('makes a tenant of active, TOTP, invited and disabled users with various roles, as its admin sees them', async () => {
    const tenant = await aTenantWith();
    const result = await runInProcess(usersCommand, ['seed', '20', '--tenant', tenant.subdomain, '--json'], store);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const seeded = JSON.parse(result.stdout);
    expect(seeded).toMatchObject({
      tenant: tenant.subdomain,
      seeded: 20,
      active: 15,
      totp: 3,
      invited: 3,
      disabled: 2,
    });
    expect(seeded.roles).toEqual({ USER: 10, ADMIN: 1, SUPPORT: 1, CATALOG_EDITOR: 1, WHOLESALE: 2 });

    const admin = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
    const res = await call('GET', '/users', bearer(tenant, admin.accessToken));
    expect(res.status).toBe(200);
    const users = (res.body as Listed[]).filter((user) => user.id !== tenant.adminUserId);
    expect(users).toHaveLength(20);
    expect(countBy(users, (user) => user.status)).toEqual({ ACTIVE: 15, INVITED: 3, DISABLED: 2 });
    expect(users.filter((user) => user.totpEnabled)).toHaveLength(3);
    // Invitations as an admin's invite leaves them: two still open, one past its 7 days; one invited without a name.
    const invited = users.filter((user) => user.status === 'INVITED');
    expect(countBy(invited, (user) => user.emailStatus)).toEqual({ VALIDATION_SENT: 2, UNVALIDATED: 1 });
    expect(invited.filter((user) => user.firstName === null)).toHaveLength(1);
    expect(invited.every((user) => user.lastLoginAt === null)).toBe(true);
    const granted = users.flatMap((user) => user.roles.filter((role) => role.name !== 'DEFAULT'));
    expect(countBy(granted, (role) => role.name)).toEqual(seeded.roles);
    expect(granted.filter((role) => role.expiresAt !== null).map((role) => role.name)).toEqual([
      'WHOLESALE',
      'WHOLESALE',
    ]);
    // Spread over months, not made in one instant; every address its own, realistic and at an example domain.
    const registered = users.map((user) => Date.parse(user.registeredAt));
    expect(Math.max(...registered) - Math.min(...registered)).toBeGreaterThan(30 * 86_400_000);
    expect(new Set(users.map((user) => user.email)).size).toBe(20);
    for (const user of users) expect(user.email).toMatch(/^[a-z][a-z0-9._-]*@[a-z0-9.-]+\.(com|org|net|example)$/);
    const signedIn = users.filter((user) => user.lastLoginAt !== null);
    for (const user of signedIn)
      expect(Date.parse(user.lastLoginAt ?? '')).toBeGreaterThan(Date.parse(user.registeredAt));

    // The printed user signs in with the run's password; a TOTP user gets the second step, not tokens.
    await logIn(tenant, seeded.signInAs, seeded.password);
    for (const user of users.filter((u) => u.totpEnabled)) {
      const step = await login(tenant, user.email, seeded.password);
      expect(step.status).toBe(200);
      expect(step.body.data).toMatchObject({ challengeRequired: true, challengeType: 'TOTP' });
      expect(step.body.data).not.toHaveProperty('accessToken');
    }
    for (const user of users.filter((u) => u.status === 'DISABLED')) {
      expectProblem(await login(tenant, user.email, seeded.password), 403, 'ACCOUNT_DISABLED');
    }
  }, 60_000);

  it('adds as many again on a second run, with other people, and prints its summary and a user to sign in as', async () => {
    const tenant = await aTenantWith();
    const args = ['seed', '10', '--tenant', tenant.subdomain];
    expect((await runInProcess(usersCommand, args, store)).code).toBe(0);
    // As `npm run users` runs it: a process of its own.
    const again = await runScript('local/users-cli.ts', args, store);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^Seeded 10 users in "${tenant.subdomain}": 7 active \\(2 with TOTP\\), 2 invited, 1 disabled; `),
    );
    const signIn = /as (\S+) with the password (\S+) /.exec(again.stdout);
    expect(signIn).not.toBeNull();
    await logIn(tenant, signIn?.[1] ?? '', signIn?.[2] ?? '');

    const admin = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
    const users = (await call('GET', '/users', bearer(tenant, admin.accessToken))).body as Listed[];
    expect(users).toHaveLength(21);
    expect(new Set(users.map((user) => user.email)).size).toBe(21);
  }, 60_000);

  it('refuses an unknown tenant, a bad count and a deployed table', async () => {
    const unknown = await runInProcess(usersCommand, ['seed', '5', '--tenant', 'no-such-tenant'], store);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no tenant has the subdomain "no-such-tenant"');
    for (const count of ['0', '1001', 'many']) {
      const bad = await runInProcess(usersCommand, ['seed', count], store);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('COUNT must be 1 to 1000');
    }
    const deployed = await runInProcess(usersCommand, ['seed'], { TABLE_NAME: 'identity', DYNAMODB_ENDPOINT: '' });
    expect(deployed.code).toBe(2);
    expect(deployed.stderr).toContain('seeding is for the local store only');
  });
});
