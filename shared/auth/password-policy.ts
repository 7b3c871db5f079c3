import { brotliDecompressSync } from 'node:zlib';
import * as v from 'valibot';
import { COMMON_PASSWORDS_BROTLI_BASE64 } from './common-passwords.ts';

/**
 * The password rules (docs/security.md#passwords), after NIST
 * SP 800-63B §5.1.1: 8–128 characters with a letter and a digit (the
 * schema), and not a commonly used password (`isCommonPassword`, which the
 * caller turns into 400 PASSWORD_TOO_COMMON).
 */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * A new password (sign-up, change, reset). Lengths count Unicode code points,
 * not UTF-16 units, as NIST 800-63B asks ("each Unicode code point counted as
 * a single character"): an emoji or a CJK supplementary character is one
 * character, not two. Letters and digits are Unicode-wide (`\p{L}`, `\p{Nd}`),
 * so a password in any script can meet the rule.
 */
/**
 * A password as presented (login, current password): not the policy, as an old
 * password may predate it, but measured as the policy measures, in code points
 * (a 128-character password of 4-byte characters is 256 UTF-16 units): a
 * password the policy accepted is never refused at login. Longer cannot match.
 */
export const PresentedPassword = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'is required'),
  v.maxCodePoints(PASSWORD_MAX_LENGTH, `is longer than any password (${PASSWORD_MAX_LENGTH} characters)`),
);

export const NewPassword = v.pipe(
  v.string(),
  v.minCodePoints(PASSWORD_MIN_LENGTH, `needs at least ${PASSWORD_MIN_LENGTH} characters`),
  v.maxCodePoints(PASSWORD_MAX_LENGTH, `needs at most ${PASSWORD_MAX_LENGTH} characters`),
  v.regex(/\p{L}/u, 'needs a letter'),
  v.regex(/\p{Nd}/u, 'needs a digit'),
);

let blocklist: Set<string> | undefined;

/**
 * The blocklist, decoded on first use and kept for the life of the process
 * (one Lambda cold start), so routes that never check a password never pay
 * for it. See common-passwords.ts for what it holds.
 */
function commonPasswords(): Set<string> {
  blocklist ??= new Set(
    brotliDecompressSync(Buffer.from(COMMON_PASSWORDS_BROTLI_BASE64, 'base64')).toString('utf8').split('\n'),
  );
  return blocklist;
}

/**
 * Whether `password` is one of the most common passwords, ignoring case
 * ("Password123" is as guessable as "password123": crackers try case
 * variants first).
 *
 * Meant for a password that already passed `NewPassword`: the stored list
 * keeps only the entries that could pass it, so a password the schema
 * refuses anyway (say "password", no digit) may answer false here.
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}
