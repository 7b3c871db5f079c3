import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { describeDevice } from '#shared/sessions/device.ts';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15';
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CURL = 'curl/8.5.0';

describe('describeDevice', () => {
  it.each([
    ['Chrome on Windows', CHROME_WINDOWS, 'Chrome 131', 'Windows 10'],
    ['Safari on an iPhone', SAFARI_IPHONE, 'Mobile Safari 17', 'iOS 17.6'],
    ['Firefox on Linux', FIREFOX_LINUX, 'Firefox 133', 'Linux'],
    ['Safari on a Mac', SAFARI_MAC, 'Safari 17', 'macOS 14.6'],
    ['Chrome on a Mac (frozen OS version)', CHROME_MAC, 'Chrome 131', 'macOS 10.15'],
  ])('names %s', (_, userAgent, browser, os) => {
    expect(describeDevice(userAgent)).toMatchObject({ browser, os });
  });

  it('gives nulls for curl, an empty agent and garbage, and still a fingerprint', () => {
    for (const userAgent of [CURL, '', '   ', '\u0000%%%<script>', 'x'.repeat(100_000)]) {
      const device = describeDevice(userAgent);
      expect(device.browser, userAgent.slice(0, 20)).toBeNull();
      expect(device.os, userAgent.slice(0, 20)).toBeNull();
      expect(device.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('survives a missing header passed through untyped code', () => {
    expect(describeDevice(undefined as unknown as string)).toMatchObject({ browser: null, os: null });
  });

  it('gives the same fingerprint for the same agent, and a different one for another', () => {
    expect(describeDevice(CHROME_WINDOWS).fingerprint).toBe(describeDevice(CHROME_WINDOWS).fingerprint);
    expect(describeDevice(` ${CHROME_WINDOWS} `).fingerprint).toBe(describeDevice(CHROME_WINDOWS).fingerprint);
    const fingerprints = new Set(
      [CHROME_WINDOWS, SAFARI_IPHONE, FIREFOX_LINUX, SAFARI_MAC, CHROME_MAC, CURL, ''].map(
        (ua) => describeDevice(ua).fingerprint,
      ),
    );
    expect(fingerprints.size).toBe(7);
  });

  it('counts a new major browser version as a new device', () => {
    const next = CHROME_WINDOWS.replace('Chrome/131', 'Chrome/132');
    expect(describeDevice(next).browser).toBe('Chrome 132');
    expect(describeDevice(next).fingerprint).not.toBe(describeDevice(CHROME_WINDOWS).fingerprint);
  });
});

describe('the User-Agent parser dependency', () => {
  it('is ua-parser-js 1.x under MIT (2.x is AGPL-3.0 and must not be installed)', () => {
    const manifest = createRequire(import.meta.url)('ua-parser-js/package.json') as {
      version: string;
      license: string;
    };
    expect(manifest.version).toMatch(/^1\./);
    expect(manifest.license).toBe('MIT');
  });
});
