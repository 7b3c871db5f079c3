// Known vs unknown addresses, path by path: whether an answer's time tells that an address has an account. Each path
// answers interleaved pairs (the known side first or second, at random), every address tried once, on a local stack
// of its own with production's settings: argon2id at production's cost and the 400 ms answer floor. Then again with
// the floor at 0, one request at a time: what the floor hides, and how far below it the work stays.
import { startLocalStack } from '#local/stack.ts';
import { hashPassword, PRODUCTION_ARGON2 } from '#shared/auth/passwords.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { percentile } from './limits.ts';
import { seedTenant } from './seed.ts';

/** One side of a pair: a request and how long its answer took, from sending to the last byte of the body. */
interface Timed {
  ms: number;
  status: number;
}

export interface PathTiming {
  path: string;
  /** What the two sides are (known and unknown addresses, or as the path says). */
  sides: string;
  pairs: number;
  knownMedianMs: number;
  unknownMedianMs: number;
  /** known − unknown, of the medians. */
  medianDifferenceMs: number;
  knownP99Ms: number;
  unknownP99Ms: number;
  /** The answers' statuses, known/unknown: the same on both sides, or the pair would tell without a clock. */
  statuses: string[];
}

export interface TimingFigures {
  pairs: number;
  floorMs: number;
  /** Concurrent streams of pairs with the floor (each stream's pairs one after the other). */
  streams: number;
  withFloor: PathTiming[];
  withoutFloor: PathTiming[];
}

const WRONG = 'Wrong-guess-zz-1';
const WARM_UP_PAIRS = 5;
const round2 = (n: number) => Math.round(n * 100) / 100;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** Up to `width` at once, in order of index. */
async function inBatches<T>(items: T[], width: number, run: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(run));
}

/**
 * One path's pairs: `streams` loops, each taking pairs one after the other; in a pair, which side goes first is a coin's
 * toss. The first WARM_UP_PAIRS indices warm the path and are not counted.
 */
async function pairsOf(
  path: string,
  sides: string,
  count: number,
  streams: number,
  known: (i: number) => Promise<Timed>,
  unknown: (i: number) => Promise<Timed>,
): Promise<PathTiming> {
  for (let i = 0; i < WARM_UP_PAIRS; i++) await Promise.all([known(i), unknown(i)]);
  const knownMs: number[] = [];
  const unknownMs: number[] = [];
  const statuses = new Set<string>();
  let next = WARM_UP_PAIRS;
  const stream = async () => {
    while (next < count + WARM_UP_PAIRS) {
      const i = next++;
      const knownFirst = Math.random() < 0.5;
      const first = await (knownFirst ? known(i) : unknown(i));
      const second = await (knownFirst ? unknown(i) : known(i));
      const [k, u] = knownFirst ? [first, second] : [second, first];
      knownMs.push(k.ms);
      unknownMs.push(u.ms);
      statuses.add(`${k.status}/${u.status}`);
    }
  };
  await Promise.all(Array.from({ length: streams }, stream));
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  return {
    path,
    sides,
    pairs: knownMs.length,
    knownMedianMs: round2(median(knownMs)),
    unknownMedianMs: round2(median(unknownMs)),
    medianDifferenceMs: round2(median(knownMs) - median(unknownMs)),
    knownP99Ms: round2(percentile(sorted(knownMs), 99)),
    unknownP99Ms: round2(percentile(sorted(unknownMs), 99)),
    statuses: [...statuses].sort(),
  };
}

/** Every path the contract lists, `count` pairs each, on a fresh stack whose answer floor is `floorMs`. */
async function measurePaths(options: {
  dynamoEndpoint: string;
  secretsKey: string;
  phc: string;
  password: string;
  floorMs: number;
  count: number;
  streams: number;
  log: (line: string) => void;
}): Promise<PathTiming[]> {
  const { count, streams, log } = options;
  const stack = await startLocalStack({
    port: 0,
    sesPort: 0,
    dynamoEndpoint: options.dynamoEndpoint,
    tableName: `timing-${options.floorMs}-${Date.now()}`,
    secretsKey: options.secretsKey,
    answerFloorMs: options.floorMs,
    // The limits stay out of the way (each address is tried once; every request comes from one IP here); their
    // counters are still written, alike on both sides.
    authRateLimitPerMinute: 1_000_000_000,
    signupsPerIpPerHour: 1_000_000_000,
    signupMailDailyBudgetPerTenant: 1_000_000_000,
    mailDailyBudgetPerTenant: 1_000_000_000,
  });
  try {
    const perSet = count + WARM_UP_PAIRS;
    const sets = ['signup', 'login', 'lock', 'forgot', 'code', 'reauthPassword', 'reauthNone'] as const;
    const seeded = await seedTenant(stack.deps, {
      name: `timing${options.floorMs}x${Date.now()}`,
      userCount: perSet * sets.length,
      phc: options.phc,
      origin: 'https://shop.bench.test',
    });
    const known = Object.fromEntries(
      sets.map((set, n) => [set, seeded.emails.slice(n * perSet, (n + 1) * perSet)]),
    ) as Record<(typeof sets)[number], string[]>;
    let fresh = 0;
    const nobody = () => `nobody${fresh++}-${Date.now()}@timing.test`;
    const send = async (path: string, body: unknown, headers: Record<string, string> = seeded.headers) => {
      const started = performance.now();
      const res = await fetch(`${stack.apiUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      await res.arrayBuffer();
      return { ms: performance.now() - started, status: res.status };
    };
    const signup = (email: string) =>
      send('/auth/signup', {
        app: seeded.tenant.app,
        mid: seeded.tenant.mid,
        email,
        password: 'Probe-pass-1234',
        firstName: 'P',
        lastName: 'R',
      });
    const wrongLogin = (email: string) => send('/auth/login', { email, password: WRONG });
    const at = (list: string[], i: number) => list[i] as string;
    const results: PathTiming[] = [];
    const measure = async (
      path: string,
      sides: string,
      known: (i: number) => Promise<Timed>,
      unknown: (i: number) => Promise<Timed>,
    ) => {
      const figures = await pairsOf(path, sides, count, streams, known, unknown);
      log(
        `  ${figures.path}: known ${figures.knownMedianMs} ms, unknown ${figures.unknownMedianMs} ms, ` +
          `difference ${figures.medianDifferenceMs} ms (${figures.statuses.join(' ')})`,
      );
      results.push(figures);
    };
    const addresses = 'a registered address vs a new one';

    await measure(
      'sign-up',
      addresses,
      (i) => signup(at(known.signup, i)),
      () => signup(nobody()),
    );
    await measure(
      'refused login: a wrong password',
      addresses,
      (i) => wrongLogin(at(known.login, i)),
      () => wrongLogin(nobody()),
    );
    // The lock engages at the fifth wrong password in 15 minutes: four first (not timed), for both sides' addresses.
    const lockUnknown = Array.from({ length: perSet }, nobody);
    await inBatches([...known.lock, ...lockUnknown], 16, async (email) => {
      for (let attempt = 0; attempt < 4; attempt++) await wrongLogin(email);
    });
    await measure(
      'refused login: the fifth wrong password, which engages the lock',
      addresses,
      (i) => wrongLogin(at(known.lock, i)),
      (i) => wrongLogin(at(lockUnknown, i)),
    );
    await measure(
      'refused login: locked',
      addresses,
      (i) => wrongLogin(at(known.lock, i)),
      (i) => wrongLogin(at(lockUnknown, i)),
    );
    await measure(
      'forgot-password',
      addresses,
      (i) => send('/auth/forgot-password', { email: at(known.forgot, i) }),
      () => send('/auth/forgot-password', { email: nobody() }),
    );
    await measure(
      'e-mail-code login request',
      addresses,
      (i) => send('/auth/login', { email: at(known.code, i) }),
      () => send('/auth/login', { email: nobody() }),
    );
    // Reauthentication is a signed-in user's: what it could tell is whether the account has a password at all.
    const tokenOf = new Map<string, string>();
    await inBatches([...known.reauthPassword, ...known.reauthNone], 4, async (email) => {
      const res = await fetch(`${stack.apiUrl}/auth/login`, {
        method: 'POST',
        headers: seeded.headers,
        body: JSON.stringify({ email, password: options.password }),
      });
      const body = (await res.json()) as { data: { accessToken: string } };
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
      tokenOf.set(email, body.data.accessToken);
    });
    for (const email of known.reauthNone) {
      const user = await userRepo(stack.deps.store).findByEmail(seeded.t, email, new Date());
      if (!user) throw new Error(`${email} is gone`);
      await userRepo(stack.deps.store).update(seeded.t, user.id, { passwordHash: null });
    }
    const wrongReauth = (email: string) =>
      send(
        '/auth/reauthenticate',
        { password: WRONG },
        { ...seeded.headers, authorization: `Bearer ${tokenOf.get(email)}` },
      );
    await measure(
      'refused reauthentication: a wrong password',
      'an account with a password vs one without (e-mail codes only)',
      (i) => wrongReauth(at(known.reauthPassword, i)),
      (i) => wrongReauth(at(known.reauthNone, i)),
    );
    return results;
  } finally {
    await stack.stop();
  }
}

/**
 * The timing pairs of every listed path: with the production floor (`streams` concurrent streams of pairs), then
 * with none (one pair at a time), against the given DynamoDB.
 */
export async function timingPairs(options: {
  dynamoEndpoint: string;
  secretsKey: string;
  count: number;
  streams: number;
  log: (line: string) => void;
}): Promise<TimingFigures> {
  const password = 'Timing-password-42';
  const phc = await hashPassword(PRODUCTION_ARGON2, password);
  const floorMs = 400;
  options.log(`timing pairs, answer floor ${floorMs} ms, ${options.streams} streams:`);
  const withFloor = await measurePaths({ ...options, phc, password, floorMs });
  options.log('timing pairs, no floor, one pair at a time:');
  const withoutFloor = await measurePaths({ ...options, phc, password, floorMs: 0, streams: 1 });
  return { pairs: options.count, floorMs, streams: options.streams, withFloor, withoutFloor };
}

/** The target: every path's median difference within 1 ms, with the floor. */
export const TIMING_TARGET_MS = 1;

/** The target's row: the largest median difference of any path, with the floor. */
export function timingTargetRow(t: TimingFigures): string {
  const worst = t.withFloor.reduce((a, b) => (Math.abs(b.medianDifferenceMs) > Math.abs(a.medianDifferenceMs) ? b : a));
  const met = t.withFloor.every((p) => Math.abs(p.medianDifferenceMs) <= TIMING_TARGET_MS);
  return (
    `| known vs unknown address: median difference ≤ ${TIMING_TARGET_MS} ms on every listed path (${t.pairs} ` +
    `interleaved pairs each) | largest ${worst.medianDifferenceMs} ms (${worst.path}) | ${met ? 'met' : '**missed**'} |`
  );
}

/** The section of bench/RESULTS.md: both runs, path by path. */
export function renderTiming(t: TimingFigures): string[] {
  const row = (p: PathTiming) =>
    `| ${p.path} | ${p.sides} | ${p.knownMedianMs} | ${p.unknownMedianMs} | ${p.medianDifferenceMs} | ${p.knownP99Ms} | ${p.unknownP99Ms} | ${p.statuses.join(' ')} |`;
  const header = [
    '| path | sides (first vs second) | first median ms | second median ms | difference ms | first p99 ms | second p99 ms | statuses |',
    '|---|---|---|---|---|---|---|---|',
  ];
  return [
    '## Timing: known vs unknown addresses',
    '',
    `Every path that must not tell whether an address has an account, ${t.pairs} interleaved pairs each (which side ` +
      'goes first is a coin toss), every address tried once, after 5 warm-up pairs; a local stack of its own with ' +
      "production's argon2id and the limits out of the way (their counters still written). The time is the client's, " +
      'from sending the request to the last byte of the answer.',
    '',
    `With the answer floor (\`AUTH_ANSWER_FLOOR_MS\`, ${t.floorMs} ms, production's default), ${t.streams} streams of pairs at once:`,
    '',
    ...header,
    ...t.withFloor.map(row),
    '',
    'Without the floor (0 ms), one pair at a time: what the floor hides, and how far below it the work stays (the p99 ' +
      'of the slower side against the floor).',
    '',
    ...header,
    ...t.withoutFloor.map(row),
    '',
  ];
}
