/**
 * The operator CLI (CONTRACT.md, Tenancy):
 *
 *   npm run tenant -- create --name "Acme" --admin-email a@acme.test \
 *     --origin http://localhost:5173 [--origin …] [--login-mode M] [--signup-mode S] [--subdomain s] [--json]
 *
 * Against the local store by default: the running local stack's DynamoDB
 * Local, or one it starts itself on the same `.data/` when the stack is down.
 * With `TABLE_NAME` set (and no DYNAMODB_ENDPOINT) it writes to that deployed
 * table with the usual AWS credentials.
 */
import { parseArgs } from 'node:util';
import { makeDeps } from '#shared/deps.ts';
import { isAppError } from '#shared/http/errors.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { storeTarget } from './store-target.ts';

const USAGE = `usage: npm run tenant -- create --name NAME --admin-email EMAIL --origin ORIGIN [--origin ORIGIN …]
         [--login-mode PASSWORD|OTP_EMAIL|PASSWORD_OR_OTP_EMAIL] [--signup-mode OPEN|INVITATION_ONLY]
         [--subdomain SUBDOMAIN] [--json]`;

/** Exit codes: 0 done, 1 refused (a taken subdomain) or failed, 2 bad command line. */
function usageError(message: string): never {
  process.stderr.write(`error: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        'admin-email': { type: 'string' },
        origin: { type: 'string', multiple: true },
        'login-mode': { type: 'string' },
        'signup-mode': { type: 'string' },
        subdomain: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
}

async function main() {
  const { values, positionals } = parse(process.argv.slice(2));
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals[0] !== 'create' || positionals.length > 1) usageError('the one command is "create"');
  if (!values.name) usageError('--name is required');
  if (!values['admin-email']) usageError('--admin-email is required');

  const target = await storeTarget();

  try {
    const created = await createTenant(makeDeps(target.env), {
      name: values.name,
      adminEmail: values['admin-email'],
      origins: values.origin ?? [],
      ...(values['login-mode'] ? { loginMode: values['login-mode'] as never } : {}),
      ...(values['signup-mode'] ? { signupMode: values['signup-mode'] as never } : {}),
      ...(values.subdomain ? { subdomain: values.subdomain } : {}),
    });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(created)}\n`);
    } else {
      process.stdout.write(
        [
          `Tenant "${values.name}" created`,
          ...Object.entries(created).map(([key, value]) => `  ${key.padEnd(13)} ${value}`),
          'The admin password is shown once; only its hash is stored.',
          '',
        ].join('\n'),
      );
    }
  } catch (error) {
    if (isAppError(error) && error.code === 'VALIDATION_FAILED') {
      const flags: Record<string, string> = {
        adminEmail: '--admin-email',
        origins: '--origin',
        loginMode: '--login-mode',
        signupMode: '--signup-mode',
      };
      const flag = (path: string) => {
        const field = path.replace(/\.\d+$/, '');
        return flags[field] ?? `--${field}`;
      };
      usageError((error.errors ?? []).map((e) => `${flag(e.path)}: ${e.message}`).join('; '));
    }
    if (isAppError(error)) {
      process.stderr.write(`error: ${error.detail ?? error.code}\n`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  } finally {
    await target.stop();
  }
}

await main();
