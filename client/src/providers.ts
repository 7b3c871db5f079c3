/**
 * The browser's side of signing in with a provider (Google, Apple, Microsoft, GitHub, any OpenID provider): the page's
 * own PKCE pair, which binds what the provider proved to the tab that started, kept in that tab's sessionStorage; the
 * parameters the service's callback brings back; and the address bar cleaned of them.
 */
import { ApiError, CLIENT_ERROR_CODES } from './errors.js';

/** What the client uses of `sessionStorage` (a test may stand in its own). */
interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  readonly length: number;
  key(index: number): string | null;
}

/** The parts of a browser's globals this file uses; the client's types name no platform. */
interface BrowserGlobals {
  crypto?: {
    getRandomValues<T extends Uint8Array>(array: T): T;
    subtle?: { digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer> };
  };
  sessionStorage?: StorageLike;
  location?: { href: string; assign(url: string): void };
  history?: { state: unknown; replaceState(data: unknown, unused: string, url?: string): void };
}

const browser = () => globalThis as unknown as BrowserGlobals;

/** The WHATWG URL, which browsers and Node both have (the client's types name no platform). */
interface UrlLike {
  search: string;
  readonly searchParams: {
    get(name: string): string | null;
    set(name: string, value: string): void;
    delete(name: string): void;
  };
  toString(): string;
}
const { URL } = globalThis as unknown as { URL: new (url: string, base?: string) => UrlLike };

/** The query parameters the callback adds to `returnTo` (and the client's own flow marker). */
export const RESULT_PARAM = 'provider_result';
export const ERROR_PARAM = 'provider_error';
/** Names the flow a result belongs to, so that the right verifier is found (two flows started in one tab). */
export const FLOW_PARAM = 'provider_flow';

const VERIFIER_PREFIX = 'identity-client:pkce:';
const PENDING_LINK_KEY = 'identity-client:provider-link';
const PENDING_REAUTH_KEY = 'identity-client:provider-reauth';
/** A flow and its result live 10 minutes each at the service: a verifier older than both is of no use. */
const VERIFIER_LIFETIME_MS = 30 * 60 * 1000;

/** The codes the callback may bring back; any other is taken as a failure. */
const CALLBACK_ERRORS: Record<string, number> = {
  PROVIDER_SIGN_IN_FAILED: 401,
  PROVIDER_SIGN_IN_CANCELLED: 403,
};

function base64url(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const triple = (a << 16) | (b << 8) | c;
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let j = 0; j < chars; j++) out += alphabet[(triple >> (18 - 6 * j)) & 63];
  }
  return out;
}

function cryptoOf() {
  const crypto = browser().crypto;
  if (!crypto?.subtle) throw new Error('signing in with a provider needs Web Crypto (crypto.subtle): a secure context');
  return crypto as Required<NonNullable<BrowserGlobals['crypto']>>;
}

/** A PKCE pair (RFC 7636): a verifier of 32 random bytes (43 characters) and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const crypto = cryptoOf();
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const ascii = Uint8Array.from(verifier, (char) => char.charCodeAt(0));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', ascii)));
  return { verifier, challenge };
}

function storage(): StorageLike {
  const found = browser().sessionStorage;
  if (!found) throw new Error('signing in with a provider needs sessionStorage: a browser page');
  return found;
}

/** The browser's location, to come back to and to leave from. */
export function browserLocation(): NonNullable<BrowserGlobals['location']> {
  const location = browser().location;
  if (!location) throw new Error('signing in with a provider needs a browser page (location)');
  return location;
}

/** What a kept verifier's flow is for: a sign-in or a link (the default), or proving it is you again. */
export interface FlowPurpose {
  /** The provider a re-authentication went to: its result is for `POST /auth/reauthenticate/provider` only. */
  reauthenticate?: string;
}

interface KeptVerifier extends FlowPurpose {
  verifier?: unknown;
  at?: unknown;
}

function keptAt(store: StorageLike, key: string): KeptVerifier | null {
  try {
    const kept = JSON.parse(store.getItem(key) ?? 'null') as unknown;
    return typeof kept === 'object' && kept !== null ? (kept as KeptVerifier) : null;
  } catch {
    return null;
  }
}

const isReauthentication = (kept: KeptVerifier | null) => typeof kept?.reauthenticate === 'string';

/**
 * Keeps the verifier in this tab, under its challenge (with what its flow is for), and answers `returnTo` with the
 * flow's marker. Verifiers left by flows that never came back are dropped once they are too old to be of use.
 */
export function keepVerifier(
  pair: { verifier: string; challenge: string },
  returnTo: string,
  purpose: FlowPurpose = {},
): string {
  const store = storage();
  const now = Date.now();
  for (let i = store.length - 1; i >= 0; i--) {
    const key = store.key(i);
    if (!key?.startsWith(VERIFIER_PREFIX)) continue;
    const at = Number(keptAt(store, key)?.at);
    if (!(now - at < VERIFIER_LIFETIME_MS)) store.removeItem(key);
  }
  store.setItem(
    `${VERIFIER_PREFIX}${pair.challenge}`,
    JSON.stringify({ verifier: pair.verifier, at: now, ...purpose }),
  );
  const url = new URL(returnTo);
  for (const name of [RESULT_PARAM, ERROR_PARAM, FLOW_PARAM]) url.searchParams.delete(name);
  url.searchParams.set(FLOW_PARAM, pair.challenge);
  return url.toString();
}

/** Forgets a flow's verifier (its start was refused: it never reaches the provider). */
export function dropVerifier(challenge: string): void {
  browser().sessionStorage?.removeItem(`${VERIFIER_PREFIX}${challenge}`);
}

/**
 * The verifier of a flow, taken (a result is used once): by its marker, else the newest sign-in or link this tab
 * keeps (a re-authentication's result always comes back with its marker).
 */
function takeVerifier(flow: string | null): string | undefined {
  const store = storage();
  let key = flow ? `${VERIFIER_PREFIX}${flow}` : undefined;
  if (!key) {
    let newest = -1;
    for (let i = 0; i < store.length; i++) {
      const candidate = store.key(i);
      if (!candidate?.startsWith(VERIFIER_PREFIX)) continue;
      const kept = keptAt(store, candidate);
      if (isReauthentication(kept)) continue;
      const at = Number(kept?.at);
      if (at > newest) {
        newest = at;
        key = candidate;
      }
    }
  }
  if (!key) return undefined;
  const kept = keptAt(store, key);
  store.removeItem(key);
  return typeof kept?.verifier === 'string' ? kept.verifier : undefined;
}

/** The flow a return names (its marker), as this tab keeps it; null when it names none this tab knows. */
function flowOf(parsed: UrlLike): KeptVerifier | null {
  const flow = parsed.searchParams.get(FLOW_PARAM);
  const store = browser().sessionStorage;
  return flow && store ? keptAt(store, `${VERIFIER_PREFIX}${flow}`) : null;
}

/**
 * Whether `url` is the way back from a re-authentication this tab started (`reauthenticateWithProvider`), and to
 * which provider it went; null for any other address. Reads nothing from the address bar and takes nothing.
 */
export function reauthenticationReturn(url: string): { providerId: string } | null {
  const parsed = new URL(url, browser().location?.href);
  if (parsed.searchParams.get(RESULT_PARAM) === null && parsed.searchParams.get(ERROR_PARAM) === null) return null;
  const providerId = flowOf(parsed)?.reauthenticate;
  return typeof providerId === 'string' ? { providerId } : null;
}

/** What the callback brought back to a page: a result with its verifier, or the failure's ApiError. */
export type ProviderReturn = { result: string; codeVerifier: string } | { error: ApiError };

/**
 * Reads `provider_result` / `provider_error` (and the flow marker) from `url`; null when it has neither, or when it
 * is the way back from a flow of the other kind (a re-authentication's result is not a sign-in's, nor the reverse).
 * The address bar loses them at once, whatever follows: a reload must not present a used result again.
 */
export function readProviderReturn(url: string, kind: 'sign-in' | 'reauthenticate' = 'sign-in'): ProviderReturn | null {
  const parsed = new URL(url, browser().location?.href);
  const result = parsed.searchParams.get(RESULT_PARAM);
  const error = parsed.searchParams.get(ERROR_PARAM);
  const flow = parsed.searchParams.get(FLOW_PARAM);
  if (result === null && error === null) return null;
  if ((kind === 'reauthenticate') !== isReauthentication(flowOf(parsed))) return null;
  cleanAddressBar();
  if (error !== null) {
    if (flow) takeVerifier(flow);
    const code = Object.hasOwn(CALLBACK_ERRORS, error) ? error : 'PROVIDER_SIGN_IN_FAILED';
    return {
      error: new ApiError({
        status: CALLBACK_ERRORS[code] ?? 401,
        code,
        detail: 'the provider sign-in did not finish',
      }),
    };
  }
  const codeVerifier = takeVerifier(flow);
  if (!result || !codeVerifier) {
    return {
      error: new ApiError({
        status: 401,
        code: 'PROVIDER_SIGN_IN_FAILED',
        detail: 'this tab keeps no verifier for that sign-in (it was started in another tab, or already used)',
      }),
    };
  }
  return { result, codeVerifier };
}

/** The provider's parameters out of the address bar (history.replaceState), the rest of the address kept. */
function cleanAddressBar(): void {
  const { location, history } = browser();
  if (!location || !history) return;
  const current = new URL(location.href);
  const before = current.search;
  for (const name of [RESULT_PARAM, ERROR_PARAM, FLOW_PARAM]) current.searchParams.delete(name);
  if (current.search !== before) history.replaceState(history.state, '', current.toString());
}

/** A result that must be linked once the user has signed in another way (`linkRequired`), kept in this tab. */
export interface PendingLink {
  result: string;
  codeVerifier: string;
  expiresAt: string;
}

/** How long the service keeps a provider's result: 10 minutes from the callback (at most that from now). */
export function resultLapse(): string {
  return new Date(Date.now() + 10 * 60 * 1000).toISOString();
}

export function keepPendingLink(link: PendingLink): void {
  storage().setItem(PENDING_LINK_KEY, JSON.stringify(link));
}

/** The pending link, while it lasts (an expired one is dropped). */
export function pendingLink(): PendingLink | null {
  const store = browser().sessionStorage;
  const kept = store?.getItem(PENDING_LINK_KEY);
  if (!store || !kept) return null;
  try {
    const link = JSON.parse(kept) as Partial<PendingLink>;
    if (
      typeof link.result === 'string' &&
      typeof link.codeVerifier === 'string' &&
      typeof link.expiresAt === 'string' &&
      Date.parse(link.expiresAt) > Date.now()
    ) {
      return link as PendingLink;
    }
  } catch {
    // Not ours, or damaged: dropped below.
  }
  store.removeItem(PENDING_LINK_KEY);
  return null;
}

export function dropPendingLink(): void {
  browser().sessionStorage?.removeItem(PENDING_LINK_KEY);
}

/** A re-authentication's result the service has not taken yet (the TOTP code was missing, say), kept in this tab. */
export interface PendingReauthentication extends PendingLink {
  providerId: string;
}

export function keepPendingReauthentication(pending: PendingReauthentication): void {
  storage().setItem(PENDING_REAUTH_KEY, JSON.stringify(pending));
}

/** The kept re-authentication, while it lasts (an expired one is dropped). */
export function pendingReauthentication(): PendingReauthentication | null {
  const store = browser().sessionStorage;
  const kept = store?.getItem(PENDING_REAUTH_KEY);
  if (!store || !kept) return null;
  try {
    const pending = JSON.parse(kept) as Partial<PendingReauthentication>;
    if (
      typeof pending.result === 'string' &&
      typeof pending.codeVerifier === 'string' &&
      typeof pending.providerId === 'string' &&
      typeof pending.expiresAt === 'string' &&
      Date.parse(pending.expiresAt) > Date.now()
    ) {
      return pending as PendingReauthentication;
    }
  } catch {
    // Not ours, or damaged: dropped below.
  }
  store.removeItem(PENDING_REAUTH_KEY);
  return null;
}

export function dropPendingReauthentication(): void {
  browser().sessionStorage?.removeItem(PENDING_REAUTH_KEY);
}

/**
 * Whether a refused re-authentication may be tried again with the same result: the service refused it before taking
 * it (the TOTP code missing, malformed or wrong: the service takes the result only with a right code; no answer, too
 * many requests, a failure of its own).
 */
export function reauthenticationMayRetry(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    ((error.code === 'VALIDATION_FAILED' && error.errors.some((e) => e.path === 'totpCode')) ||
      error.code === 'INVALID_CODE' ||
      error.code === CLIENT_ERROR_CODES.NETWORK_ERROR ||
      (error.status === 429 && error.code !== 'TOO_MANY_ATTEMPTS') ||
      error.status >= 500)
  );
}

/** Whether a failed link may be tried again with the same result (the service has not taken it). */
export function linkMayRetry(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === 'REAUTHENTICATION_REQUIRED' ||
      error.code === CLIENT_ERROR_CODES.NETWORK_ERROR ||
      error.status === 429 ||
      error.status >= 500)
  );
}
