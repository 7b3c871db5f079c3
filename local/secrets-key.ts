import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local stand-in for the KMS key: 32 random bytes, kept beside the data so
 * that signing keys and TOTP secrets stored in `.data/` still decrypt after a
 * restart. In memory, a new one each run. Never used on AWS.
 */
export function localSecretsKey(dataDir: string | undefined): string {
  if (!dataDir) return randomBytes(32).toString('base64');
  const file = join(dataDir, 'local-secrets.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
