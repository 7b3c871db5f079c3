// The same load on our local stack and on the peer (better-auth), in interleaved rounds: ours, the peer's, ours,
// the peer's… so that whatever else the machine does in a minute weighs on both alike. Each run measures the
// server process's CPU per request: our server process (gateway, handlers, AWS SDK, argon2 on libuv's threads;
// DynamoDB Local's JVM is another process and does not count), the peer's process (better-auth, its SQLite,
// scrypt on libuv's threads).
import { median, type RunFigures } from './load.ts';

export interface Side {
  /** One run of the load for `duration` seconds. */
  drive: (duration: number) => Promise<RunFigures>;
  /** Before each round's run (fresh sessions to refresh, …). */
  before?: (round: number) => Promise<void>;
  measureStart(): Promise<void>;
  /** CPU ms of the server process since measureStart. */
  measureStop(): Promise<number>;
}

export interface SideFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Server-process CPU per request, ms (median of the rounds). */
  cpuMsPerRequest: number;
  requests: number;
  non2xx: number;
  errors: number;
  rounds: { rps: number; cpuMsPerRequest: number }[];
}

export interface Comparison {
  ours: SideFigures;
  peer: SideFigures;
  /** ours ÷ peer: above 1, we answer more per second. */
  throughputRatio: number;
  /** ours ÷ peer: below 1, we spend less CPU per request. */
  cpuRatio: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Run = { figures: RunFigures; cpuMsPerRequest: number };

async function oneRun(side: Side, round: number, duration: number): Promise<Run> {
  await side.before?.(round);
  await pause(500); // the previous run's cancelled requests drain
  await side.measureStart();
  const figures = await side.drive(duration);
  const cpuMs = await side.measureStop();
  return { figures, cpuMsPerRequest: cpuMs / Math.max(figures.requests, 1) };
}

function summary(runs: Run[]): SideFigures {
  return {
    rps: round2(median(runs.map((r) => r.figures.rps))),
    p50: median(runs.map((r) => r.figures.p50)),
    p99: median(runs.map((r) => r.figures.p99)),
    cpuMsPerRequest: round2(median(runs.map((r) => r.cpuMsPerRequest))),
    requests: runs.reduce((sum, r) => sum + r.figures.requests, 0),
    non2xx: runs.reduce((sum, r) => sum + r.figures.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.figures.errors, 0),
    rounds: runs.map((r) => ({ rps: round2(r.figures.rps), cpuMsPerRequest: round2(r.cpuMsPerRequest) })),
  };
}

/** A warm-up run of each, then `rounds` interleaved measured runs; the figures are the medians of the rounds. */
export async function interleaved(ours: Side, peer: Side, rounds: number, duration: number): Promise<Comparison> {
  await oneRun(ours, -1, Math.min(duration, 5));
  await oneRun(peer, -1, Math.min(duration, 5));
  const oursRuns: Run[] = [];
  const peerRuns: Run[] = [];
  for (let round = 0; round < rounds; round++) {
    // Who goes first alternates too: neither always runs on the machine the other warmed.
    const order = round % 2 === 0 ? ([ours, peer] as const) : ([peer, ours] as const);
    for (const side of order) (side === ours ? oursRuns : peerRuns).push(await oneRun(side, round, duration));
  }
  const o = summary(oursRuns);
  const p = summary(peerRuns);
  return {
    ours: o,
    peer: p,
    throughputRatio: round2(p.rps > 0 ? o.rps / p.rps : 0),
    cpuRatio: round2(p.cpuMsPerRequest > 0 ? o.cpuMsPerRequest / p.cpuMsPerRequest : 0),
  };
}
