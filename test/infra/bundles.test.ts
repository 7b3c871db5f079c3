import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { plantRouteList } from '#functions/plants/routes.ts';
import { identityRouteList } from '#functions/routes.ts';
import { bundleBudgetOf } from '#infra/bundle-budgets.ts';
import { bundlingFor, REPO_ROOT } from '#infra/http-api.ts';

/**
 * Bundles each route the way NodejsFunction does (esbuild, ESM, AWS SDK
 * external), in memory. Synth in the tests skips bundling, so this is where a
 * route that pulls in the argon2 native module without `argon2: true`, or an
 * oversized bundle, is caught. The budgets and their exceptions: infra/bundle-budgets.ts.
 */
/** Both services' routes: the identity's and the plant store's. */
const routes = [...identityRouteList, ...plantRouteList];

describe.each(routes.map((r) => [r.operationId, r] as const))('bundle of %s', (_, route) => {
  it('builds, carries argon2 only when the route says so, and stays within its budget (infra/bundle-budgets.ts)', async () => {
    const options = bundlingFor(route);
    const result = await build({
      entryPoints: [join(REPO_ROOT, route.entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      minify: true,
      write: false,
      metafile: true,
      mainFields: options.mainFields ?? [],
      banner: { js: options.banner ?? '' },
      external: [...(options.externalModules ?? []), ...(options.nodeModules ?? [])],
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.includes('@node-rs/argon2'))).toBe(false);
    // The SDK is inside the bundle exactly when the route says so.
    expect(inputs.some((file) => file.includes('@aws-sdk/client-dynamodb'))).toBe(route.bundleSdk === true);
    const size = result.outputFiles[0]?.contents.length ?? 0;
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThan(bundleBudgetOf(route));
  });
});
