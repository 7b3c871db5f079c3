// The hosted pages' budgets: the JavaScript a page loads, gzipped, and the sign-in page's time from
// navigation to a usable form in Chromium on the local stack. Measured here, never in a timed test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build, type Manifest } from 'vite';

/** Gzipped JavaScript a page may load before it is usable. */
export const WEB_BUDGETS = { signInJsGzipBytes: 60 * 1024, consoleJsGzipBytes: 200 * 1024, signInReadyMs: 1000 };

const WEB_CONFIG = resolve(import.meta.dirname, '../web/vite.config.ts');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const LOADS = 10;
/** The languages the pages are written in (web/src/i18n/). */
const LANGUAGES = ['en', 'de'];

export interface WebFigures {
  signIn: { files: string[]; jsGzipBytes: number };
  console: { files: string[]; jsGzipBytes: number };
  account: { files: string[]; jsGzipBytes: number };
  signInReadyMs: { median: number; p90: number; runs: number[] };
  budgets: typeof WEB_BUDGETS;
}

/** A chunk and every chunk it imports statically, transitively: what loads with it. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const next of manifest[key]?.imports ?? []) closure(manifest, next, seen);
  return seen;
}

/** The JavaScript each page loads: the entry's closure, plus a lazy page's own closure for that page, and its texts. */
export async function webBundleFigures(): Promise<
  Pick<WebFigures, 'signIn' | 'console' | 'account'> & {
    signInPage: { requests: number; gzipBytes: number; htmlGzipBytes: number };
  }
> {
  const outDir = mkdtempSync(join(tmpdir(), 'web-bench-'));
  try {
    await build({ configFile: WEB_CONFIG, logLevel: 'warn', build: { outDir, manifest: true, emptyOutDir: true } });
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry) as string;
    const lazy = (source: string) => Object.keys(manifest).find((key) => key.endsWith(source)) as string;
    const measure = (keys: Set<string>) => {
      const files = [...keys].map((key) => manifest[key]?.file as string).filter((f) => f.endsWith('.js'));
      const jsGzipBytes = files.reduce(
        (sum, f) => sum + gzipSync(readFileSync(join(outDir, f)), { level: 9 }).length,
        0,
      );
      return { files, jsGzipBytes };
    };
    const base = closure(manifest, entry);
    // Each page fetches its texts beside its code, in the reader's language only: counted in the language whose
    // texts weigh most, so that the figure holds for every reader.
    const withTexts = (page: Set<string>, parts: string[]) =>
      LANGUAGES.map((language) => {
        const texts = parts.map((part) => closure(manifest, lazy(`src/i18n/${language}/${part}.ts`), new Set(base)));
        return measure(new Set([...page, ...texts.flatMap((chunks) => [...chunks])]));
      }).reduce((heaviest, next) => (next.jsGzipBytes > heaviest.jsGzipBytes ? next : heaviest));
    const signIn = withTexts(base, ['boot']);
    // What a browser fetches for the sign-in page: the HTML, its JavaScript and its style sheets (CloudFront's work).
    const css = [...base].flatMap((key) => manifest[key]?.css ?? []);
    const gzipOf = (file: string) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;
    const signInPage = {
      requests: 1 + signIn.files.length + css.length,
      gzipBytes: gzipOf('index.html') + signIn.jsGzipBytes + css.reduce((sum, f) => sum + gzipOf(f), 0),
      htmlGzipBytes: gzipOf('index.html'),
    };
    return {
      signInPage,
      signIn,
      account: withTexts(closure(manifest, lazy('src/account/page.tsx'), new Set(base)), ['boot', 'account']),
      console: withTexts(closure(manifest, lazy('src/console/console.tsx'), new Set(base)), ['boot', 'console']),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * The sign-in page of `origin`, opened in a fresh browser context (cold cache) `LOADS` times: from the start
 * of navigation until the sign-in form's button is visible and enabled (the page discovered its tenant,
 * branded itself, and can be used).
 */
export async function signInReadyMs(origin: string): Promise<WebFigures['signInReadyMs']> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const runs: number[] = [];
  try {
    for (let i = 0; i < LOADS + 1; i++) {
      const context = await browser.newContext({ locale: 'en-US' });
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${origin}/sign-in`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ state: 'visible' });
      const ms = performance.now() - started;
      // The first load warms Chromium's own process start; it is not a user's page load.
      if (i > 0) runs.push(Math.round(ms));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const sorted = [...runs].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)] as number,
    p90: sorted[Math.ceil(sorted.length * 0.9) - 1] as number,
    runs,
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (value: number, budget: number) => (value <= budget ? 'within' : '**over**');

/** The RESULTS.md section. */
export function renderWeb(w: WebFigures): string[] {
  return [
    '## Hosted pages',
    '',
    'The JavaScript each page loads (its chunk and every chunk it imports, from the Vite manifest of a ' +
      'production build, with the texts it fetches in the language whose texts weigh most), gzipped at level 9; and the sign-in page opened in a fresh Chromium context (cold ' +
      `cache) on the local stack, from navigation until its form can be used, median of ${w.signInReadyMs.runs.length}.`,
    '',
    '| figure | measured | budget | |',
    '|---|---|---|---|',
    `| sign-in page JavaScript (gzip) | ${kb(w.signIn.jsGzipBytes)} | ${kb(w.budgets.signInJsGzipBytes)} | ${verdict(w.signIn.jsGzipBytes, w.budgets.signInJsGzipBytes)} |`,
    `| account page JavaScript (gzip) | ${kb(w.account.jsGzipBytes)} | ${kb(w.budgets.consoleJsGzipBytes)} | ${verdict(w.account.jsGzipBytes, w.budgets.consoleJsGzipBytes)} |`,
    `| console JavaScript (gzip) | ${kb(w.console.jsGzipBytes)} | ${kb(w.budgets.consoleJsGzipBytes)} | ${verdict(w.console.jsGzipBytes, w.budgets.consoleJsGzipBytes)} |`,
    `| sign-in page ready (median / p90) | ${w.signInReadyMs.median} / ${w.signInReadyMs.p90} ms | ${w.budgets.signInReadyMs} ms | ${verdict(w.signInReadyMs.median, w.budgets.signInReadyMs)} |`,
    '',
  ];
}
