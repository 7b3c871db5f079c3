import type { RecordedAnswer } from './answer-check.ts';

/**
 * Records the answers `fetch` gets from the services under test, to be
 * checked against their OpenAPI documents (test/support/check-answers.ts,
 * a setup file of the http and client projects). A test file's local stack
 * names its base URLs with `watchAnswers`; nothing else is recorded.
 */

export type Service = 'identity' | 'plants';

export interface ServiceAnswer extends RecordedAnswer {
  service: Service;
}

interface RecorderState {
  watched: { service: Service; origin: string; basePath: string }[];
  /** Bodies are read from a clone as they arrive: the test may never read its copy. */
  pending: Promise<ServiceAnswer | undefined>[];
  installed: boolean;
}

// On globalThis: the setup file and the test file's helpers must share one recorder.
const KEY = Symbol.for('identity-service.answer-recorder');
const state: RecorderState = ((globalThis as Record<symbol, unknown>)[KEY] as RecorderState | undefined) ?? {
  watched: [],
  pending: [],
  installed: false,
};
(globalThis as Record<symbol, unknown>)[KEY] = state;

/** Records the answers of `service` at `baseUrl` (its paths are relative to it, as in its document). */
export function watchAnswers(service: Service, baseUrl: string): void {
  const url = new URL(baseUrl);
  state.watched.push({ service, origin: url.origin, basePath: url.pathname.replace(/\/$/, '') });
}

/**
 * Records an answer of a tenant's hosted origin (`<subdomain>.localhost:<port>`, an OpenID Provider's
 * issuer), which Node's fetch cannot reach (test/support/oidc.ts sends it over node:http): under the API's
 * base path on the port of a watched identity stack, it is that service's answer.
 */
export function recordHostedAnswer(url: URL, method: string, response: Response): void {
  const target = state.watched.find(
    (w) => w.service === 'identity' && new URL(w.origin).port === url.port && url.pathname.startsWith(`${w.basePath}/`),
  );
  if (!target) return;
  const copy = response.clone();
  state.pending.push(
    copy.text().then(
      (body) => ({
        service: target.service,
        method: method.toUpperCase(),
        path: url.pathname.slice(target.basePath.length),
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body,
      }),
      () => undefined,
    ),
  );
}

/** Wraps `globalThis.fetch` once; answers from watched base URLs are recorded. */
export function installAnswerRecorder(): void {
  if (state.installed) return;
  state.installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async function recordingFetch(input: string | URL | Request, init?: RequestInit) {
    const response = await original(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    // The longest base wins: the identity's /api/v1 over anything at the root of the same origin.
    const target = state.watched
      .filter(
        (w) => w.origin === url.origin && (url.pathname === w.basePath || url.pathname.startsWith(`${w.basePath}/`)),
      )
      .sort((a, b) => b.basePath.length - a.basePath.length)[0];
    if (target) {
      const copy = response.clone();
      state.pending.push(
        copy.text().then(
          (body) => ({
            service: target.service,
            method,
            path: url.pathname.slice(target.basePath.length) || '/',
            status: response.status,
            headers: Object.fromEntries(response.headers),
            body,
          }),
          // A body cut short (the stack stopped mid-answer) has nothing to check.
          () => undefined,
        ),
      );
    }
    return response;
  } as typeof fetch;
}

/** The answers recorded since the last call, bodies read. */
export async function takeAnswers(): Promise<ServiceAnswer[]> {
  const pending = state.pending.splice(0);
  return (await Promise.all(pending)).filter((answer) => answer !== undefined);
}
