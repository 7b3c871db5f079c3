/**
 * Where the refresh token is kept: `document.cookie` in browsers, memory in
 * Node, or any store an app plugs in (a file, a keychain, a test fake).
 */
export interface CookieOptions {
  expires: Date;
  path: string;
  sameSite: 'Lax' | 'Strict' | 'None';
}

export interface CookieStore {
  /** The stored value as it was handed to `set` (still URL-encoded), or undefined. */
  get(name: string): string | undefined;
  set(name: string, value: string, options: CookieOptions): void;
  remove(name: string): void;
}

/** A cookie date in the past: writing it makes a browser drop the cookie. */
const EPOCH = 'Thu, 01 Jan 1970 00:00:00 GMT';

interface CookieDocument {
  cookie: string;
}

/** True on a page served over https (where a `Secure` cookie can be written and read back). */
function onHttpsPage(): boolean {
  return (globalThis as { location?: { protocol?: string } }).location?.protocol === 'https:';
}

/**
 * A store over `document.cookie`. The cookie is written without `HttpOnly`
 * (a script cannot set that); with `Secure` on https pages, so the 7-day
 * refresh token never travels over plain http, and
 * without it on plain-http development origins, where a browser would refuse
 * it. `SameSite=Lax` keeps it off cross-site subrequests. The refresh token is
 * sent to the service in a request body, never by the browser as a Cookie
 * header. Being script-readable, it is as safe as the app is from XSS.
 */
export function documentCookieStore(doc: CookieDocument, options: { secure?: boolean } = {}): CookieStore {
  const secure = (options.secure ?? onHttpsPage()) ? '; Secure' : '';
  return {
    get(name) {
      for (const part of doc.cookie.split(';')) {
        const at = part.indexOf('=');
        if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
      }
      return undefined;
    },
    set(name, value, options) {
      doc.cookie = `${name}=${value}; expires=${options.expires.toUTCString()}; path=${options.path}; SameSite=${options.sameSite}${secure}`;
    },
    remove(name) {
      doc.cookie = `${name}=; expires=${EPOCH}; path=/; SameSite=Lax${secure}`;
    },
  };
}

/** A store in memory, honouring expiry: the default outside browsers. */
export function memoryCookieStore(now: () => Date = () => new Date()): CookieStore {
  const cookies = new Map<string, { value: string; expires: Date }>();
  return {
    get(name) {
      const cookie = cookies.get(name);
      if (!cookie) return undefined;
      if (cookie.expires.getTime() <= now().getTime()) {
        cookies.delete(name);
        return undefined;
      }
      return cookie.value;
    },
    set(name, value, options) {
      if (options.expires.getTime() <= now().getTime()) cookies.delete(name);
      else cookies.set(name, { value, expires: options.expires });
    },
    remove(name) {
      cookies.delete(name);
    },
  };
}

/** `document.cookie` where there is a document, memory elsewhere. */
export function defaultCookieStore(): CookieStore {
  const doc = (globalThis as { document?: Partial<CookieDocument> }).document;
  return doc && typeof doc.cookie === 'string' ? documentCookieStore(doc as CookieDocument) : memoryCookieStore();
}
