import { describe, expect, it } from 'vitest';
import { BUNDLE_FLOORS, bundleSizeReport, bundleSizeVerdicts } from '#infra/bundle-budgets.ts';
import { bundledRoutes, bundleRoute, recordedBundleSizes } from '#infra/bundle-sizes.ts';

/**
 * Bundles each route the way NodejsFunction does (esbuild, ESM, AWS SDK external), in memory. Synth in the tests
 * skips bundling, so this is where a route that pulls in the argon2 native module without `argon2: true`, or a
 * bundle that grew, is caught. The recorded sizes and the floors: infra/bundle-budgets.ts.
 */
const measured: Record<string, number> = {};

describe.each(bundledRoutes.map((r) => [r.operationId, r] as const))('bundle of %s', (_, route) => {
  it('builds, carries argon2 only when the route says so, and the SDK exactly when the route carries it', async () => {
    const result = await bundleRoute(route);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.includes('@node-rs/argon2'))).toBe(false);
    expect(inputs.some((file) => file.includes('@aws-sdk/client-dynamodb'))).toBe(route.bundleSdk === true);
    const size = result.outputFiles[0]?.contents.length ?? 0;
    expect(size).toBeGreaterThan(0);
    measured[route.operationId] = size;
  });
});

describe('bundle sizes', () => {
  it('every bundle is its recorded size, within the tolerance, and every recorded route still exists', () => {
    expect(Object.keys(measured).sort(), 'a bundle failed to build (above)').toEqual(
      bundledRoutes.map((r) => r.operationId).sort(),
    );
    const verdicts = bundleSizeVerdicts(recordedBundleSizes(), measured);
    expect(verdicts, bundleSizeReport(verdicts)).toEqual([]);
  });

  it.each(Object.entries(BUNDLE_FLOORS))(
    'the %s floor stays under its ceiling (infra/bundle-budgets.ts)',
    (id, ceiling) => {
      expect(measured[id], `${id}'s bundle`).toBeDefined();
      expect(measured[id]).toBeLessThanOrEqual(ceiling);
    },
  );
});
