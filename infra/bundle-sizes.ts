import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { plantRouteList } from '#functions/plants/routes.ts';
import { identityRouteList } from '#functions/routes.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { bundlingFor, REPO_ROOT } from './http-api.ts';

// Each route's bundle as it is deployed, and its size as recorded in infra/bundle-sizes.json: the record the
// bundle test holds every bundle to (infra/bundle-budgets.ts), written again by `npm run bundles`.

/** Both services' routes, each its own function and bundle: the identity's and the plant store's. */
export const bundledRoutes: readonly RouteDef[] = [...identityRouteList, ...plantRouteList];

/**
 * One route bundled as NodejsFunction bundles it (bundlingFor's esbuild options: ESM, minified, node22, the AWS SDK
 * external unless the route carries it, argon2 external where the route says so), in memory, with its metafile.
 */
export function bundleRoute(route: RouteDef, outfile?: string) {
  const options = bundlingFor(route);
  return build({
    entryPoints: [join(REPO_ROOT, route.entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: options.target ?? 'node22',
    minify: options.minify ?? true,
    mainFields: options.mainFields ?? ['module', 'main'],
    banner: { js: options.banner ?? '' },
    external: [...(options.externalModules ?? []), ...(options.nodeModules ?? [])],
    ...(outfile ? { outfile } : {}),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

const RECORDED_SIZES = join(REPO_ROOT, 'infra', 'bundle-sizes.json');

/** Each route's bundle size as last recorded (infra/bundle-sizes.json), in bytes by operationId. */
export function recordedBundleSizes(): Record<string, number> {
  return JSON.parse(readFileSync(RECORDED_SIZES, 'utf8')) as Record<string, number>;
}

/** Bundles every route and records its size: `npm run bundles`. */
export async function recordBundleSizes(): Promise<void> {
  const sizes: Record<string, number> = {};
  for (const route of [...bundledRoutes].sort((a, b) => a.operationId.localeCompare(b.operationId))) {
    const result = await bundleRoute(route);
    sizes[route.operationId] = result.outputFiles[0]?.contents.length ?? 0;
  }
  writeFileSync(RECORDED_SIZES, `${JSON.stringify(sizes, null, 2)}\n`);
  process.stdout.write(`recorded ${Object.keys(sizes).length} bundle sizes in infra/bundle-sizes.json\n`);
}
