/**
 * The operator CLI, which creates tenants (README, Tenants):
 *
 *   npm run tenant -- create --name "Acme" --admin-email a@acme.test \
 *     --origin http://localhost:5173 [--origin …] [--login-mode M] [--signup-mode S] [--subdomain s] [--json]
 *
 * Against the local store by default: the running local stack's DynamoDB
 * Local, or one it starts itself on the same `.data/` when the stack is down.
 * With `TABLE_NAME` set (and no DYNAMODB_ENDPOINT) it writes to that deployed
 * table with the usual AWS credentials.
 */
import { makeDeps } from '#shared/deps.ts';
import { isAppError } from '#shared/errors.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { type Command, commandLine, runAsMain, usageError } from './command-line.ts';
import { storeTarget } from './store-target.ts';

const USAGE = `usage: npm run tenant -- create --name NAME --admin-email EMAIL --origin ORIGIN [--origin ORIGIN …]
         [--login-mode PASSWORD|OTP_EMAIL|PASSWORD_OR_OTP_EMAIL] [--signup-mode OPEN|INVITATION_ONLY]
         [--subdomain SUBDOMAIN] [--json]`;

export const tenantCommand: Command = async (io) => {
  const { values, positionals } = commandLine(io, USAGE, {
    name: { type: 'string' },
    'admin-email': { type: 'string' },
    origin: { type: 'string', multiple: true },
    'login-mode': { type: 'string' },
    'signup-mode': { type: 'string' },
    subdomain: { type: 'string' },
  });
  if (positionals[0] !== 'create' || positionals.length > 1) usageError(io, USAGE, 'the one command is "create"');
  const name = values.name as string | undefined;
  const adminEmail = values['admin-email'] as string | undefined;
  if (!name) usageError(io, USAGE, '--name is required');
  if (!adminEmail) usageError(io, USAGE, '--admin-email is required');

  const target = await storeTarget(io.env);

  try {
    const created = await createTenant(makeDeps(target.env), {
      name,
      adminEmail,
      origins: (values.origin as string[] | undefined) ?? [],
      ...(values['login-mode'] ? { loginMode: values['login-mode'] as never } : {}),
      ...(values['signup-mode'] ? { signupMode: values['signup-mode'] as never } : {}),
      ...(values.subdomain ? { subdomain: values.subdomain as string } : {}),
    });
    if (values.json) {
      io.out(`${JSON.stringify(created)}\n`);
    } else {
      io.out(
        [
          `Tenant "${name}" created`,
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
      usageError(io, USAGE, (error.errors ?? []).map((e) => `${flag(e.path)}: ${e.message}`).join('; '));
    }
    if (isAppError(error)) {
      io.err(`error: ${error.detail ?? error.code}\n`);
      return 1;
    }
    throw error;
  } finally {
    await target.stop();
  }
  return 0;
};

await runAsMain(import.meta.url, tenantCommand);
