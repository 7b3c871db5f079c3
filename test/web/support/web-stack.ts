import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { LocalStack } from '#local/stack.ts';
import { latestCodeTo, mailsTo } from '#test/support/auth.ts';
import { useLocalStack } from '#test/support/server.ts';
import { REFRESH_COOKIE } from '../../../client/src/client.ts';

/**
 * The journeys' world: `npm start`'s stack (the local edge serving web/dist
 * and `/api/*` on one origin, DynamoDB Local, the SES emulator) and Debian's
 * Chromium driven by playwright-core. Each journey opens fresh browser
 * contexts (no cookie, no storage) on a tenant's own host,
 * `http://<subdomain>.localhost:<port>`, which Chromium resolves to loopback.
 */
/**
 * Debian's Chromium headless shell (package chromium-headless-shell): the same Blink and V8 as its `chromium`, without
 * the full browser's UI layers, as playwright runs headless Chromium by default. The journeys took about a third less
 * time in it (README, Tests); the client SDK's browser test keeps the full `chromium`.
 */
export const CHROMIUM = '/usr/bin/chromium-headless-shell';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where the journeys leave their screenshots (not committed): look at them. */
export const SCREENSHOTS = resolve(import.meta.dirname, '../../../.screenshots');

export interface WebStack {
  /** The tenant's hosted origin, `http://<subdomain>.localhost:<port>`. */
  origin(tenant: { subdomain: string }): string;
  /**
   * A fresh browser context (its own cookies) with one page open at `path` of the tenant's pages. The browser's
   * language is `locale` (its `navigator.languages` and `Accept-Language`): American English unless a journey asks.
   */
  open(tenant: { subdomain: string }, path?: string, options?: BrowserLanguage): Promise<Page>;
  /**
   * A fresh browser context already signed in as `user`, with one page open at `path`: the journeys whose subject is
   * not signing in start here. The user signs in through the API (POST /auth/login, a password and no second step)
   * and the context gets the refresh token in the SDK's `svc_rt` cookie of the tenant's origin, as the sign-in page
   * leaves it; the page then restores the session as after a reload. The sign-in journeys use the form.
   */
  openSignedIn(
    tenant: { subdomain: string; headers: Record<string, string> },
    user: { email: string; password: string },
    path: string,
    options?: BrowserLanguage,
  ): Promise<Page>;
  /** Another page in the same context (a second tab of one browser). */
  tab(page: Page, path: string): Promise<Page>;
  browser(): Browser;
  /** The local stack behind the pages (its deps, for what a test delivers to a function directly). */
  localStack(): LocalStack;
  sesUrl(): string;
  /** The 6-digit code of the latest mail to an address. */
  latestCode(to: string): Promise<string>;
  mailsTo(to: string): ReturnType<typeof mailsTo>;
}

/** The language a journey's browser is set to, as a BCP 47 tag (`de-DE`). */
export interface BrowserLanguage {
  locale?: string;
}

let workerBrowser: Promise<Browser> | undefined;

/**
 * Run in every page of the journeys before its own scripts: once the page's DOM has settled after a change, an id
 * held by two elements is reported as a console error, which fails the journey. Two fields with one id send their
 * label (and a screen reader) to the wrong one; axe's own duplicate-id rules are retired, so it does not tell.
 */
const DUPLICATE_ID_WATCH = `(() => {
  const reported = new Set();
  let pending = false;
  const check = () => {
    pending = false;
    const seen = new Set();
    for (const element of document.querySelectorAll('[id]')) {
      if (seen.has(element.id) && !reported.has(element.id)) {
        reported.add(element.id);
        console.error('Duplicate id: ' + element.id + ' on ' + location.pathname);
      }
      seen.add(element.id);
    }
  };
  new MutationObserver(() => {
    if (!pending) {
      pending = true;
      setTimeout(check, 0);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['id'] });
})();`;

/**
 * The worker's Chromium: the web project's files share a module graph per worker (vitest.config.ts), and so one
 * browser, started by the first file (each launch cost some 0.7 s of CPU). Journeys never share a browser context.
 * Playwright stops the browser when the worker exits; a browser that crashed is started anew.
 */
async function launchedBrowser(): Promise<Browser> {
  const running = await workerBrowser;
  if (running?.isConnected()) return running;
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium-headless-shell (.ci/run does)`);
  workerBrowser = chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return workerBrowser;
}

export function useWebStack(options: Parameters<typeof useLocalStack>[0] = {}): WebStack {
  const api = useLocalStack(options);
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const origin = (tenant: { subdomain: string }) =>
    api.stack.hostedPagesOrigin.replace('{subdomain}', tenant.subdomain);

  beforeAll(async () => {
    browser = await launchedBrowser();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  });

  // A page that breaks its own Content-Security-Policy, shows an id twice, or throws, fails the journey it happened in.
  const pageProblems: string[] = [];
  afterEach(() => {
    expect(pageProblems.splice(0), 'CSP violations, duplicate ids and uncaught errors in the pages').toEqual([]);
  });
  const newContext = async ({ locale = 'en-US' }: BrowserLanguage = {}) => {
    if (!browser) throw new Error('Chromium is not started yet');
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale });
    contexts.push(context);
    await context.addInitScript(DUPLICATE_ID_WATCH);
    return context;
  };
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to|Duplicate id/i.test(message.text())) {
        pageProblems.push(`${page.url()}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => pageProblems.push(`${page.url()}: ${error.message}`));
    return page;
  };

  return {
    origin,
    async open(tenant, path = '/sign-in', options = {}) {
      const context = await newContext(options);
      const page = watch(await context.newPage());
      await page.goto(`${origin(tenant)}${path}`);
      return page;
    },
    async openSignedIn(tenant, user, path, options = {}) {
      if (!browser) throw new Error('Chromium is not started yet');
      const res = await fetch(`${api.url}/auth/login`, {
        method: 'POST',
        headers: tenant.headers,
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      const answer = (await res.json()) as { data?: { refreshToken?: string } };
      const refreshToken = answer.data?.refreshToken;
      if (res.status !== 200 || !refreshToken)
        throw new Error(`sign-in over the API: ${res.status} ${JSON.stringify(answer)}`);
      const context = await newContext(options);
      // Host-only, as the SDK writes it: the tenant's own host, no other subdomain.
      await context.addCookies([
        {
          name: REFRESH_COOKIE,
          value: encodeURIComponent(refreshToken),
          url: `${origin(tenant)}/`,
          sameSite: 'Lax',
          expires: Math.floor(Date.now() / 1000) + 7 * 24 * 3600,
        },
      ]);
      const page = watch(await context.newPage());
      await page.goto(`${origin(tenant)}${path}`);
      await page.waitForURL((current) => current.pathname === path);
      return page;
    },
    async tab(page, path) {
      const other = watch(await page.context().newPage());
      await other.goto(new URL(path, page.url()).href);
      return other;
    },
    browser() {
      if (!browser) throw new Error('Chromium is not started yet');
      return browser;
    },
    localStack: () => api.stack,
    sesUrl: () => api.stack.sesUrl,
    latestCode: (to) => latestCodeTo(api.stack.sesUrl, to),
    mailsTo: (to) => mailsTo(api.stack.sesUrl, to),
  };
}

/** axe-core's browser build, evaluated in the page under test. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  // Only the violations are read: passing and inapplicable nodes are not listed back.
  resultTypes: ['violations'],
};

/**
 * axe-core over the page as it is now: no serious or critical violation
 * (WCAG 2.1 A and AA rules), listed by rule and element when there is one.
 * axe is evaluated in the page once per document (a navigation drops it) and runs there: the journeys' pages have
 * no frames. (@axe-core/playwright's AxeBuilder evaluated it twice per check and finished each run in a new blank
 * page, about 0.8 s a check on this machine.)
 */
export async function expectAccessible(page: Page): Promise<void> {
  await expectAxeClean(page);
  await expectWithinScreen(page);
  // Every page state a journey checks is checked on a phone as well, then the journey goes on at its own width.
  const size = page.viewportSize();
  if (!size || size.width <= PHONE.width) return;
  await page.setViewportSize(PHONE);
  try {
    await expectAxeClean(page);
    await expectWithinScreen(page);
  } finally {
    await page.setViewportSize(size);
  }
}

/** A phone's screen, as the journeys check every page on it. */
export const PHONE = { width: 375, height: 812 } as const;

async function expectAxeClean(page: Page): Promise<void> {
  if (!(await page.evaluate('"axe" in window'))) await page.evaluate(AXE_SOURCE);
  const results: AxeResults = await page.evaluate(`axe.run(document, ${JSON.stringify(AXE_OPTIONS)})`);
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  const width = page.viewportSize()?.width;
  expect(serious, `axe on ${page.url()} at ${width} px`).toEqual([]);
}

/** The page's width and the screen's, and the outermost elements that reach past its edge (to say what to fix). */
const WIDTH_CHECK = `(() => {
  const past = [...document.body.querySelectorAll('*')].filter(
    (element) => element.getBoundingClientRect().right > window.innerWidth + 0.5,
  );
  const outermost = past.filter((element) => !past.includes(element.parentElement));
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    widest: outermost.slice(0, 5).map(
      (e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ' (' + Math.round(e.getBoundingClientRect().right) + ' px)',
    ),
  };
})()`;

/** Nothing makes the page wider than the screen: a wide table scrolls inside its own region instead. */
async function expectWithinScreen(page: Page): Promise<void> {
  const { scrollWidth, innerWidth, widest } = (await page.evaluate(WIDTH_CHECK)) as {
    scrollWidth: number;
    innerWidth: number;
    widest: string[];
  };
  expect(scrollWidth, `width of ${page.url()} at ${innerWidth} px: ${widest.join(', ')}`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/**
 * The page on a phone (375 px) and with a dark colour scheme asked for: `<name>-375`, `<name>-375-dark` and, back at
 * its own width, `<name>-dark`; then light again. `onPhone` (an accessibility check) runs at 375 px, light and dark.
 */
export async function screenshotsOnPhoneAndDark(page: Page, name: string, onPhone?: (page: Page) => Promise<void>) {
  const desktop = page.viewportSize() ?? { width: 1200, height: 900 };
  await page.setViewportSize(PHONE);
  await onPhone?.(page);
  await screenshot(page, `${name}-375`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await onPhone?.(page);
  await screenshot(page, `${name}-375-dark`);
  await page.setViewportSize(desktop);
  await screenshot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * A screenshot of the page in .screenshots/<name>.png, to look at: the whole page, or the screen while a modal dialog
 * is open (a whole-page capture leaves the dialog out, the backdrop half drawn).
 */
export async function screenshot(page: Page, name: string): Promise<Buffer> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const modal = await page.evaluate("document.querySelector('dialog:modal') !== null");
  return page.screenshot({ path: resolve(SCREENSHOTS, `${name}.png`), fullPage: !modal });
}
