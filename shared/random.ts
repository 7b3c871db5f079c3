import { randomBytes } from 'node:crypto';

/** Lower-case Crockford base32: unambiguous, URL- and key-safe (no `#`). */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export interface Random {
  /** `n` random base32 characters (5 bits each) from the CSPRNG. */
  token(chars: number): string;
}

export const cryptoRandom: Random = {
  token(chars) {
    const bytes = randomBytes(chars);
    let out = '';
    for (let i = 0; i < chars; i++) out += ALPHABET[(bytes[i] ?? 0) & 31];
    return out;
  },
};

/** An opaque id with a readable type prefix, 100 bits of entropy: `usr_9x3k…`. */
export function newId(random: Random, prefix: string): string {
  return `${prefix}_${random.token(20)}`;
}
