// What each route's bundle (minified) may weigh. Every bundle is held to its measured size, recorded in
// infra/bundle-sizes.json by `npm run bundles`: a change that grows one beyond the tolerance below shows as a
// diff of that file, with its reason in the commit. Two floors have a ceiling of their own, which only an edit of
// this file moves: what every bundle pays, and what every bundle that carries the DynamoDB client pays.

/** The bundles that stand for a class of bundles, and the most each may weigh, in bytes. */
export const BUNDLE_FLOORS: Readonly<Record<string, number>> = {
  /**
   * The pipeline every route runs (environment, stages, errors, metrics), with no domain code: `health`. 45 KB since
   * webhooks: their five settings in the environment's schema and two error codes are in every bundle (0.75 KB). 46 KB
   * since the tenant's copy (shared/store/tenant-cache.ts and its setting, in the tenant stage every route runs: 0.95 KB).
   */
  health: 46 * 1024,
  /**
   * A bearer check with the DynamoDB client inside (`bundleSdk`), the class of the routes a user waits on: `getMe`.
   * 299 KB since sign-in providers: their seven error codes, the merchant's buttons and LOCAL_SIGN_IN_PROVIDERS are in
   * every bundle (0.4 KB); 300 KB since webhooks (0.75 KB, as `health`); 301 KB since the tenant's copy (0.95 KB).
   */
  getMe: 301 * 1024,
};

/**
 * How far a bundle may move from its recorded size before the record must be written again: 2 KB, or 2 % of a
 * larger bundle, but never 3 KB: a growth of 3 KB is a change worth a sentence in any bundle, the SDK-carrying ones
 * (300 KB and more, where 2 % would be 6 KB) too.
 */
export function bundleSizeTolerance(recordedBytes: number): number {
  return Math.max(2 * 1024, Math.min(Math.ceil(recordedBytes * 0.02), 2.5 * 1024));
}

export type BundleSizeProblem = 'grew' | 'shrank' | 'unrecorded' | 'gone';

export interface BundleSizeVerdict {
  operationId: string;
  problem: BundleSizeProblem;
  sentence: string;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Each bundle whose measured size does not match its record: grown or shrunk beyond the tolerance, measured with
 * no record (a new route), or recorded with no bundle (a route gone). Empty when the record holds.
 */
export function bundleSizeVerdicts(
  recorded: Readonly<Record<string, number>>,
  measured: Readonly<Record<string, number>>,
): BundleSizeVerdict[] {
  const verdicts: BundleSizeVerdict[] = [];
  for (const [operationId, bytes] of Object.entries(measured)) {
    const record = recorded[operationId];
    if (record === undefined) {
      verdicts.push({ operationId, problem: 'unrecorded', sentence: `${operationId}: ${kb(bytes)}, not recorded` });
      continue;
    }
    const change = bytes - record;
    if (Math.abs(change) <= bundleSizeTolerance(record)) continue;
    verdicts.push({
      operationId,
      problem: change > 0 ? 'grew' : 'shrank',
      sentence: `${operationId}: ${kb(record)} recorded, ${kb(bytes)} now (${change > 0 ? '+' : '−'}${kb(Math.abs(change))})`,
    });
  }
  for (const [operationId, record] of Object.entries(recorded)) {
    if (!(operationId in measured)) {
      verdicts.push({
        operationId,
        problem: 'gone',
        sentence: `${operationId}: ${kb(record)} recorded, no such route`,
      });
    }
  }
  return verdicts;
}

/** What a failing size check says: the bundles off their record, and what to do about it. */
export function bundleSizeReport(verdicts: readonly BundleSizeVerdict[]): string {
  return [
    'bundles off their recorded size (infra/bundle-sizes.json):',
    ...verdicts.map((verdict) => `  ${verdict.sentence}`),
    'Run `npm run bundles` to record the sizes, and say in the commit why a bundle grew.',
  ].join('\n');
}
