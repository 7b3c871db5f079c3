import { createRequire } from 'node:module';

// Loaded on the first hash or check, by CommonJS require, not `import`: argon2 is a CommonJS native addon, and an
// ESM import of CommonJS starts Node's CommonJS export lexer first, a cost of every argon2 route's cold start;
// required, it is smaller and paid by the first password a function checks, not by an e-mail code login's cold
// start (bench/NOTES.md, "Numbers behind the code").
let argon2: typeof import('@node-rs/argon2') | undefined;
const argon2Module = () => {
  argon2 ??= createRequire(import.meta.url)('@node-rs/argon2') as typeof import('@node-rs/argon2');
  return argon2;
};

/** argon2id's cost: memory in KiB (m), iterations (t), parallelism (p), as a PHC hash records them. */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/**
 * argon2id with OWASP's minimum parameters (m=19456 KiB, t=2, p=1): what every deployed function hashes with, as no
 * deployment sets ARGON2_PARAMS (test/infra/identity-stack.test.ts holds it). Hashes are PHC strings that carry
 * their own parameters, so they can be raised later and old hashes rehashed at login.
 */
export const PRODUCTION_ARGON2: Argon2Params = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** `m=19456,t=2,p=1`: the parameters as a PHC hash writes them, and as ARGON2_PARAMS gives them. */
export function argon2ParamsText({ memoryCost, timeCost, parallelism }: Argon2Params): string {
  return `m=${memoryCost},t=${timeCost},p=${parallelism}`;
}

/** ARGON2_PARAMS's value (`m=…,t=…,p=…`), or undefined when it is not one argon2 takes (8 × p KiB at least). */
export function parseArgon2Params(text: string): Argon2Params | undefined {
  const match = /^m=(\d{1,7}),t=(\d{1,2}),p=(\d{1,2})$/.exec(text.trim());
  if (!match) return undefined;
  const [memoryCost, timeCost, parallelism] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  if (timeCost < 1 || parallelism < 1 || memoryCost < 8 * parallelism) return undefined;
  return { memoryCost, timeCost, parallelism };
}

/** An argon2id PHC hash of the password at these parameters. */
export function hashPassword(params: Argon2Params, password: string): Promise<string> {
  // Algorithm.Argon2id is 2 (a const enum, which isolated modules cannot import).
  return argon2Module().hash(password, { algorithm: 2, ...params });
}

/** Whether the password is the one hashed (at the parameters the hash records). */
export function verifyPassword(phcHash: string, password: string): Promise<boolean> {
  return argon2Module().verify(phcHash, password);
}

/** An argon2id hash of a password nobody has, per parameters: made once per process, on its first use. */
const dummyHashes = new Map<string, Promise<string>>();

/**
 * Whether `password` is the one `phcHash` records. Without a hash (no account, or one without a password) a dummy hash
 * at these parameters is checked instead, and the answer is false: the refusal takes as long as a wrong password's.
 */
export async function verifyPasswordOrDummy(
  params: Argon2Params,
  phcHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (phcHash) return verifyPassword(phcHash, password);
  const key = argon2ParamsText(params);
  let dummy = dummyHashes.get(key);
  if (!dummy) {
    dummy = hashPassword(params, `dummy-${Math.random()}`);
    dummyHashes.set(key, dummy);
  }
  await verifyPassword(await dummy, password);
  return false;
}

/** True when a stored hash was made with other parameters than these (or another algorithm): rehash at login. */
export function needsRehash(params: Argon2Params, phcHash: string): boolean {
  return !phcHash.startsWith(`$argon2id$v=19$${argon2ParamsText(params)}$`);
}
