import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { dictionary } from '@zxcvbn-ts/language-common';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  COMMON_PASSWORDS_BROTLI_BASE64,
  COMMON_PASSWORDS_KEPT,
  COMMON_PASSWORDS_SOURCE,
} from '#shared/auth/common-passwords.ts';
import { isCommonPassword, NewPassword } from '#shared/auth/password-policy.ts';

const SOURCE_PACKAGE = '@zxcvbn-ts/language-common';
const DATA_FILE = fileURLToPath(new URL('../../../../shared/auth/common-passwords.ts', import.meta.url));

function messagesFor(password: string): string[] {
  const result = v.safeParse(NewPassword, password);
  return result.success ? [] : result.issues.map((issue) => issue.message);
}

/** What common-passwords.ts must hold: the source entries that could pass NewPassword, lower-cased and sorted. */
function expectedEntries(): string[] {
  const source = dictionary['passwords-common'].map((p) => p.toLowerCase());
  return [...new Set(source)].filter((p) => v.is(NewPassword, p)).sort();
}

function renderDataFile(entries: string[], sourceVersion: string, sourceEntries: number): string {
  const text = entries.join('\n');
  const compressed = brotliCompressSync(Buffer.from(text, 'utf8'), {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
    },
  }).toString('base64');
  return `/**
 * GENERATED, do not edit: \`UPDATE_COMMON_PASSWORDS=1 npx vitest run test/unit/shared/auth/password-policy.test.ts\`
 * rewrites it from the installed source package; the same test fails when the two differ.
 *
 * The blocklist of shared/auth/password-policy.ts (NIST SP 800-63B §5.1.1.2: refuse
 * commonly used passwords).
 *
 * Source: ${SOURCE_PACKAGE} ${sourceVersion} (MIT), \`dictionary['passwords-common']\`:
 * the ${sourceEntries.toLocaleString('en-US')} most common passwords of the Xato corpus of 10 million leaked passwords
 * (the data behind SecLists' "10-million-password-list"), lower-cased, ranked by frequency.
 *
 * Kept: only the ${entries.length.toLocaleString('en-US')} entries that could pass the NewPassword schema (8–128
 * characters, a letter and a digit). The others ("password", "12345678", "qwerty") are refused by
 * the schema before the blocklist is asked, so storing them would only grow every bundle that
 * checks passwords (Lambda handlers must stay under 100 KB minified).
 *
 * Encoding: the kept entries, sorted, joined by "\\n", brotli (quality 11), base64: about
 * ${Math.round(compressed.length / 1024)} KB instead of ${Math.round(text.length / 1024)} KB of text. Decoded once per process, on first use.
 */
export const COMMON_PASSWORDS_SOURCE = {
  package: '${SOURCE_PACKAGE}',
  version: '${sourceVersion}',
  entries: ${sourceEntries},
} as const;

export const COMMON_PASSWORDS_KEPT = ${entries.length};

export const COMMON_PASSWORDS_BROTLI_BASE64 =
  '${compressed}';
`;
}

describe('the common-password blocklist data', () => {
  const installedVersion = (
    createRequire(import.meta.url)(`${SOURCE_PACKAGE}/package.json`) as {
      version: string;
    }
  ).version;

  if (process.env.UPDATE_COMMON_PASSWORDS === '1') {
    const entries = expectedEntries();
    const text = renderDataFile(entries, installedVersion, dictionary['passwords-common'].length);
    if (readFileSync(DATA_FILE, 'utf8') !== text) writeFileSync(DATA_FILE, text);
  }

  it('comes from a source list of at least 10,000 common passwords (NIST 800-63B)', () => {
    expect(dictionary['passwords-common'].length).toBeGreaterThanOrEqual(10_000);
    expect(COMMON_PASSWORDS_SOURCE.entries).toBe(dictionary['passwords-common'].length);
    expect(COMMON_PASSWORDS_SOURCE.version).toBe(installedVersion);
  });

  it('holds exactly the source entries that could pass NewPassword (regenerate it if this fails)', () => {
    const stored = brotliDecompressSync(Buffer.from(COMMON_PASSWORDS_BROTLI_BASE64, 'base64'))
      .toString('utf8')
      .split('\n');
    const expected = expectedEntries();
    expect(stored).toEqual(expected);
    expect(COMMON_PASSWORDS_KEPT).toBe(expected.length);
  });
});

describe('isCommonPassword', () => {
  it.each(['password1', 'Password123', 'qwerty123', 'PASSWORD1', 'iloveyou1', 'abcd1234', '1qaz2wsx'])(
    'refuses %s, ignoring case',
    (password) => {
      expect(v.is(NewPassword, password)).toBe(true);
      expect(isCommonPassword(password)).toBe(true);
    },
  );

  it('accepts a random strong password', () => {
    const password = `${randomBytes(18).toString('base64url')}a1`;
    expect(v.is(NewPassword, password)).toBe(true);
    expect(isCommonPassword(password)).toBe(false);
  });

  it('answers from the one list each time (decoded once)', () => {
    expect(isCommonPassword('password1')).toBe(true);
    expect(isCommonPassword('correct horse battery staple 42')).toBe(false);
  });
});

describe('NewPassword', () => {
  it('accepts 8 to 128 characters with a letter and a digit', () => {
    expect(messagesFor('abcdefg1')).toEqual([]);
    expect(messagesFor(`a1${'x'.repeat(126)}`)).toEqual([]);
  });

  it('refuses fewer than 8 characters', () => {
    expect(messagesFor('abc1234')).toEqual(['needs at least 8 characters']);
  });

  it('refuses more than 128 characters', () => {
    expect(messagesFor(`a1${'x'.repeat(127)}`)).toEqual(['needs at most 128 characters']);
  });

  it('needs a letter', () => {
    expect(messagesFor('12345678')).toEqual(['needs a letter']);
  });

  it('needs a digit', () => {
    expect(messagesFor('abcdefgh')).toEqual(['needs a digit']);
  });

  it('reports every broken rule at once', () => {
    expect(messagesFor('!!!')).toEqual(['needs at least 8 characters', 'needs a letter', 'needs a digit']);
  });

  it('counts Unicode code points, not UTF-16 units', () => {
    // 7 code points, 10 UTF-16 units: too short.
    expect(messagesFor('a1😀😀😀bc')).toEqual(['needs at least 8 characters']);
    // 128 code points, 254 UTF-16 units: long enough, not too long.
    expect(messagesFor(`a1${'😀'.repeat(126)}`)).toEqual([]);
  });

  it('takes letters and digits of any script', () => {
    expect(messagesFor('пароль١٢٣')).toEqual([]);
  });

  it('refuses anything but a string', () => {
    expect(v.is(NewPassword, 12345678)).toBe(false);
  });
});
