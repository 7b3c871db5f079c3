import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { plantRouteList } from '#functions/plants/routes.ts';
import { identityRouteList } from '#functions/routes.ts';
import { bundlingFor, REPO_ROOT } from '#infra/http-api.ts';
import { median } from './load.ts';

export interface BundleFigures {
  operationId: string;
  bytes: number;
  gzipBytes: number;
  coldInitMs: number | null;
  coldInitError?: string;
}

/**
 * Each route bundled as NodejsFunction bundles it (bundlingFor's esbuild options: ESM, minified,
 * node22, AWS SDK external, argon2 external for argon2 routes), written under node_modules/.cache
 * so that the external AWS SDK resolves; then imported `samples` times in a fresh node process.
 */
export async function bundles(env: Record<string, string>, samples = 10): Promise<BundleFigures[]> {
  const out = join(REPO_ROOT, 'node_modules', '.cache', 'bench-bundles');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const figures: BundleFigures[] = [];
  for (const route of [...identityRouteList, ...plantRouteList]) {
    const options = bundlingFor(route);
    const file = join(out, `${route.operationId}.mjs`);
    const result = await build({
      entryPoints: [join(REPO_ROOT, route.entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: options.target ?? 'node22',
      minify: options.minify ?? true,
      mainFields: options.mainFields ?? ['module', 'main'],
      banner: { js: options.banner ?? '' },
      external: [...(options.externalModules ?? []), ...(options.nodeModules ?? [])],
      outfile: file,
      write: false,
      logLevel: 'silent',
    });
    const contents = result.outputFiles[0]?.contents ?? new Uint8Array();
    writeFileSync(file, contents);
    const figure: BundleFigures = {
      operationId: route.operationId,
      bytes: contents.length,
      gzipBytes: gzipSync(contents).length,
      coldInitMs: null,
    };
    const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
    try {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
          env: { ...process.env, ...env },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        times.push(Number(output));
      }
      figure.coldInitMs = Math.round(median(times) * 10) / 10;
    } catch (error) {
      figure.coldInitError = String((error as { stderr?: string }).stderr ?? error).slice(0, 300);
    }
    figures.push(figure);
  }
  return figures;
}
