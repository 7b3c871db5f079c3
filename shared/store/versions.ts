/**
 * The `updatedAt` of a change: later than both now and the previous stamp, so that `updatedAt` serves as the item's
 * version (a conditional write on it refuses a change made meanwhile, even within the same millisecond).
 */
export function nextUpdatedAt(now: Date, previous: string): string {
  const after = Date.parse(previous) + 1;
  return new Date(Number.isNaN(after) ? now.getTime() : Math.max(now.getTime(), after)).toISOString();
}
