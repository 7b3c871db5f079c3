import { setTimeout as sleep } from 'node:timers/promises';

// The answer floor (AUTH_ANSWER_FLOOR_MS, default 400 ms): the least time of every answer that must not tell a known
// address from an unknown one. Their work differs by branch (a mail sent or not, a profile read, a lock marked on an
// account), by a few milliseconds locally and more on AWS (an SES call); below the floor, none of it shows.

/**
 * Runs `work` and answers no sooner than `floorMs` after it began, whether it succeeded or failed: code requests and
 * sign-ups, whose every answer looks alike.
 */
export async function withTimeFloor<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    await padTo(floorMs, started);
  }
}

/**
 * Runs `work`; a refusal (it throws) answers no sooner than `floorMs` after it began, a success at once: a wrong
 * password is refused in the same time for every address, and a right one (which tells nothing new) is not slowed.
 */
export async function withRefusalFloor<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } catch (error) {
    await padTo(floorMs, started);
    throw error;
  }
}

async function padTo(floorMs: number, started: number) {
  const left = floorMs - (performance.now() - started);
  if (left > 0) await sleep(left);
}
