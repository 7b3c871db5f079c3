import { describe, expect, it } from 'vitest';
import { documentCookieStore, memoryCookieStore } from '../../client/src/index.ts';

const options = (expires: Date) => ({ expires, path: '/', sameSite: 'Lax' as const });

describe('documentCookieStore', () => {
  it('writes the value as given, with expires, path and SameSite, and no HttpOnly or Secure off https', () => {
    const doc = { cookie: '' };
    documentCookieStore(doc).set('svc_rt', 'a%2Bb', options(new Date('2026-11-28T12:00:00.000Z')));
    expect(doc.cookie).toBe('svc_rt=a%2Bb; expires=Sat, 28 Nov 2026 12:00:00 GMT; path=/; SameSite=Lax');
  });

  it('marks the refresh cookie Secure on an https page, so it never travels over plain http', () => {
    const location = (globalThis as { location?: unknown }).location;
    (globalThis as { location?: unknown }).location = { protocol: 'https:' };
    try {
      const doc = { cookie: '' };
      const store = documentCookieStore(doc);
      store.set('svc_rt', 'a%2Bb', options(new Date('2026-11-28T12:00:00.000Z')));
      expect(doc.cookie).toBe('svc_rt=a%2Bb; expires=Sat, 28 Nov 2026 12:00:00 GMT; path=/; SameSite=Lax; Secure');
      store.remove('svc_rt');
      expect(doc.cookie).toMatch(/; Secure$/);
    } finally {
      (globalThis as { location?: unknown }).location = location;
    }
    const forced = { cookie: '' };
    documentCookieStore(forced, { secure: true }).set('svc_rt', 'x', options(new Date('2026-11-28T12:00:00.000Z')));
    expect(forced.cookie).toMatch(/; Secure$/);
  });

  it('removing writes an empty value with an expiry in the past', () => {
    const doc = { cookie: '' };
    documentCookieStore(doc).remove('svc_rt');
    const expires = /expires=([^;]+)/.exec(doc.cookie)?.[1] ?? '';
    expect(doc.cookie).toMatch(/^svc_rt=; /);
    expect(doc.cookie).toContain('path=/');
    expect(Date.parse(expires)).toBeLessThan(Date.now());
  });

  it('reads one cookie out of document.cookie, still encoded', () => {
    const doc = { cookie: 'theme=dark; svc_rt=rt1.a%2Bb; svc_rt_other=x' };
    const store = documentCookieStore(doc);
    expect(store.get('svc_rt')).toBe('rt1.a%2Bb');
    expect(store.get('theme')).toBe('dark');
    expect(store.get('missing')).toBeUndefined();
    expect(documentCookieStore({ cookie: '' }).get('svc_rt')).toBeUndefined();
  });
});

describe('memoryCookieStore', () => {
  it('keeps a value until its expiry', () => {
    let now = new Date('2026-11-21T12:00:00.000Z');
    const store = memoryCookieStore(() => now);
    store.set('svc_rt', 'rt-1', options(new Date('2026-11-28T12:00:00.000Z')));
    expect(store.get('svc_rt')).toBe('rt-1');
    now = new Date('2026-11-28T12:00:00.000Z');
    expect(store.get('svc_rt')).toBeUndefined();
  });

  it('an expiry in the past clears, as in a browser; remove clears', () => {
    const store = memoryCookieStore();
    store.set('svc_rt', 'rt-1', options(new Date(Date.now() + 60_000)));
    store.set('svc_rt', '', options(new Date(0)));
    expect(store.get('svc_rt')).toBeUndefined();
    store.set('svc_rt', 'rt-2', options(new Date(Date.now() + 60_000)));
    store.remove('svc_rt');
    expect(store.get('svc_rt')).toBeUndefined();
  });
});
