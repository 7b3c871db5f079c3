/**
 * Users for a local tenant, so that its console looks like a real tenant's (README, Tenants):
 *
 *   npm run users -- seed [COUNT] [--tenant SUBDOMAIN] [--json]
 *
 * COUNT users (100 unless given) in the tenant at SUBDOMAIN (the demo tenant `npm start` makes unless given): most
 * active with a password, some with TOTP, some invited, some disabled, holding various roles, registered over
 * the past year (local/seed-users.ts). Every active user of one run has the password it prints. Local store only:
 * the running stack's DynamoDB Local, or one started on `.data/` for the time of the command; never a deployed table.
 */
import { makeDeps } from '#shared/deps.ts';
import { isAppError } from '#shared/errors.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { type Command, commandLine, runAsMain, usageError } from './command-line.ts';
import { DEMO_TENANT } from './demo-tenant.ts';
import { seedUsers } from './seed-users.ts';
import { storeTarget } from './store-target.ts';

const USAGE = 'usage: npm run users -- seed [COUNT] [--tenant SUBDOMAIN] [--json]   (COUNT 1-1000, 100 by default)';

/** The run's password: every seeded user who can sign in has it (a local, throwaway secret, like the demo admin's). */
function runPassword(token: (chars: number) => string): string {
  for (;;) {
    const candidate = token(16);
    if (/[a-z]/.test(candidate) && /\d/.test(candidate)) return `Seed-${candidate}`;
  }
}

export const usersCommand: Command = async (io) => {
  const { values, positionals } = commandLine(io, USAGE, { tenant: { type: 'string' } });
  if (positionals[0] !== 'seed' || positionals.length > 2) usageError(io, USAGE, 'the one command is "seed"');
  const count = positionals[1] === undefined ? 100 : Number(positionals[1]);
  if (!Number.isInteger(count) || count < 1 || count > 1000) usageError(io, USAGE, 'COUNT must be 1 to 1000');
  const subdomain = (values.tenant as string | undefined) ?? DEMO_TENANT.subdomain;
  // Made-up people in a deployed tenant would mix with its real users, and mail nobody should get could follow.
  if (io.env.TABLE_NAME && !io.env.DYNAMODB_ENDPOINT) usageError(io, USAGE, 'seeding is for the local store only');

  const target = await storeTarget(io.env);
  try {
    // No answer floor: it keeps callers from timing sign-ups, and the seed is no caller. Info lines would bury the summary.
    const deps = makeDeps({ ...target.env, AUTH_ANSWER_FLOOR_MS: '0', LOG_LEVEL: target.env.LOG_LEVEL ?? 'error' });
    const tenant = await merchantRepo(deps.store).findBySubdomain(subdomain);
    if (!tenant) {
      const hint = subdomain === DEMO_TENANT.subdomain ? ' (`npm start` makes it)' : '';
      io.err(`error: no tenant has the subdomain "${subdomain}"${hint}\n`);
      return 1;
    }
    const password = runPassword((chars) => deps.random.token(chars));
    const summary = await seedUsers(deps, tenant, { count, password });
    const signInPage = `http://${subdomain}.localhost:${io.env.PORT ?? 3000}/sign-in`;
    if (values.json) {
      io.out(`${JSON.stringify({ tenant: subdomain, ...summary, password, signInPage })}\n`);
      return 0;
    }
    const roles = Object.entries(summary.roles)
      .map(([name, n]) => `${n} ${name}`)
      .join(', ');
    io.out(
      `Seeded ${summary.seeded} users in "${subdomain}": ${summary.active} active (${summary.totp} with TOTP), ` +
        `${summary.invited} invited, ${summary.disabled} disabled; roles granted: ${roles || 'none'}.\n`,
    );
    if (summary.signInAs) {
      io.out(
        `Sign in at ${signInPage} as ${summary.signInAs} with the password ${password} ` +
          '(every active user of this run has it; the TOTP ones also need a code, which nobody has).\n',
      );
    }
    return 0;
  } catch (error) {
    if (!isAppError(error)) throw error;
    io.err(`error: ${error.detail ?? error.code}\n`);
    return 1;
  } finally {
    await target.stop();
  }
};

await runAsMain(import.meta.url, usersCommand);
