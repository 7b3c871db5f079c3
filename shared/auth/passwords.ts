import { createRequire } from 'node:module';

// Loaded on the first hash or check, by CommonJS require, not `import`: argon2 is a CommonJS native addon, and an
// ESM import of CommonJS starts Node's CommonJS export lexer first, about 30 ms of every argon2 route's cold start;
// required, it is 5–10 ms, paid by the first password a function checks, not by an e-mail code login's cold start
// (bench/RESULTS.md, cold init).
let argon2: typeof import('@node-rs/argon2') | undefined;
const argon2Module = () => {
  argon2 ??= createRequire(import.meta.url)('@node-rs/argon2') as typeof import('@node-rs/argon2');
  return argon2;
};

/**
 * argon2id with OWASP's minimum parameters (m=19456 KiB, t=2, p=1). Hashes are
 * PHC strings that carry their own parameters, so they can be raised later and
 * old hashes rehashed at login.
 */
export const ARGON2_PARAMS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, which isolated modules cannot import)
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2Module().hash(password, ARGON2_PARAMS);
}

export function verifyPassword(phcHash: string, password: string): Promise<boolean> {
  return argon2Module().verify(phcHash, password);
}

/** True when a stored hash was made with other parameters than ours (or another algorithm): rehash at login. */
export function needsRehash(phcHash: string): boolean {
  const { memoryCost, timeCost, parallelism } = ARGON2_PARAMS;
  return !phcHash.startsWith(`$argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}$`);
}
