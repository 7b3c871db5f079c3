import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundledRoutes, bundleRoute, recordBundleSizes, recordedBundleSizes } from '#infra/bundle-sizes.ts';
import { REPO_ROOT } from '#infra/http-api.ts';
import { median } from './load.ts';

export interface BundleFigures {
  operationId: string;
  bytes: number;
  /** Its size as recorded when it was measured (infra/bundle-sizes.json); undefined for a route with no record. */
  recordedBytes: number | undefined;
  /** It carries the AWS SDK (`bundleSdk`: a route a user waits on at sign-in). */
  sdkBundled: boolean;
  gzipBytes: number;
  coldInitMs: number | null;
  coldInitError?: string;
  /** The AWS SDK packages the bundle imports (external: the runtime's). */
  sdkPackages: string[];
  /** Cold import of those SDK packages alone, in a fresh process (median): the floor under coldInitMs. */
  sdkInitMs: number | null;
  /** What fills the bundle: bytes by package (or our folder), largest first. */
  contents: { source: string; bytes: number }[];
}

/** Groups a metafile input path by npm package, or by our top folder (shared/auth, functions/users…). */
function sourceOf(path: string): string {
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? path);
  }
  const parts = path.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : path;
}

/** Median ms of `samples` fresh node processes each importing `specifiers` (from the repo, as the bundles do). */
function coldImportMs(specifiers: string[], env: Record<string, string>, samples: number, from: string): number {
  const script = `const t = performance.now(); ${specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(' ')} process.stdout.write(String(performance.now() - t));`;
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: from,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    times.push(Number(output));
  }
  return Math.round(median(times) * 10) / 10;
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
  const sdkFloors = new Map<string, number>();
  const recorded = recordedBundleSizes();
  for (const route of bundledRoutes) {
    const file = join(out, `${route.operationId}.mjs`);
    const result = await bundleRoute(route, file);
    const output = Object.values(result.metafile.outputs)[0];
    const bySource = new Map<string, number>();
    for (const [path, input] of Object.entries(output?.inputs ?? {})) {
      bySource.set(sourceOf(path), (bySource.get(sourceOf(path)) ?? 0) + input.bytesInOutput);
    }
    const sdkPackages = [
      ...new Set(
        (output?.imports ?? [])
          // Static imports only: a dynamic import (the KMS client) loads on first use, not at init.
          .filter((i) => i.external && i.kind !== 'dynamic-import' && i.path.startsWith('@aws-sdk/'))
          .map((i) => i.path.split('/').slice(0, 2).join('/')),
      ),
    ].sort();
    const contents = result.outputFiles[0]?.contents ?? new Uint8Array();
    writeFileSync(file, contents);
    const figure: BundleFigures = {
      operationId: route.operationId,
      bytes: contents.length,
      recordedBytes: recorded[route.operationId],
      sdkBundled: route.bundleSdk === true,
      gzipBytes: gzipSync(contents).length,
      coldInitMs: null,
      sdkPackages,
      sdkInitMs: null,
      contents: [...bySource]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([source, bytes]) => ({ source, bytes })),
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
      const key = sdkPackages.join(' ');
      if (!sdkFloors.has(key))
        sdkFloors.set(key, sdkPackages.length ? coldImportMs(sdkPackages, env, samples, out) : 0);
      figure.sdkInitMs = sdkFloors.get(key) ?? null;
    } catch (error) {
      figure.coldInitError = String((error as { stderr?: string }).stderr ?? error).slice(0, 300);
    }
    figures.push(figure);
  }
  return figures;
}

// `npm run bundles`: measure every bundle and write the record.
if (process.argv[1] === fileURLToPath(import.meta.url)) await recordBundleSizes();
