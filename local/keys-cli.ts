/**
 * Token-signing keys, for operators:
 *
 *   npm run keys -- rotate [--json]
 *
 * Makes a new active signing key and retires the previous one, which stays in
 * the JWK Set for an hour so tokens in flight keep verifying: the ES256 key,
 * and the RS256 key too when the deployment has one (OpenID clients asked for
 * it), in one transaction. `--json` answers `{ kid, kids }`: `kid` the new
 * ES256 kid, `kids` the new kid of each algorithm. Against the
 * local store by default (as `npm run tenant`); against a deployed table with
 * `TABLE_NAME` and `KMS_KEY_ID` (the stack's outputs) and AWS credentials.
 */

import { makeDeps } from '#shared/deps.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
import { type Command, commandLine, runAsMain, usageError } from './command-line.ts';
import { storeTarget } from './store-target.ts';

const USAGE = 'usage: npm run keys -- rotate [--json]';

export const keysCommand: Command = async (io) => {
  const { values, positionals } = commandLine(io, USAGE, {});
  if (positionals[0] !== 'rotate' || positionals.length > 1) usageError(io, USAGE, 'the one command is "rotate"');
  if (io.env.TABLE_NAME && !io.env.DYNAMODB_ENDPOINT && !io.env.KMS_KEY_ID) {
    usageError(io, USAGE, 'a deployed table needs KMS_KEY_ID (the stack output KmsKeyId)');
  }
  const target = await storeTarget(io.env);
  try {
    const kids = await signingKeys(makeDeps(target.env)).rotate();
    const text = kids.RS256
      ? `Signing keys rotated: new ES256 kid ${kids.ES256}, new RS256 kid ${kids.RS256}. The previous keys stay published for 1 hour.`
      : `Signing key rotated: new kid ${kids.ES256}. The previous key stays published for 1 hour.`;
    io.out(values.json ? `${JSON.stringify({ kid: kids.ES256, kids })}\n` : `${text}\n`);
    return 0;
  } catch (error) {
    io.err(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await target.stop();
  }
};

await runAsMain(import.meta.url, keysCommand);
