import { describe, expect, it } from 'vitest';
import { EDGE_SECRET_HEADER, fromOurEdge } from '#shared/http/client-ip.ts';
import type { HttpEvent } from '#shared/http/request-state.ts';
import { VIEWER_HOST_HEADER, viewerOrigin } from '#shared/http/viewer-origin.ts';

const SECRET = 'edge-secret-0123456789abcdef';
const AWS = { edgeSecret: SECRET };
const LOCAL = { edgeSecret: undefined };

function event(headers: Record<string, unknown> | undefined): HttpEvent {
  return { headers, requestContext: { http: { sourceIp: '130.176.0.1' } } } as unknown as HttpEvent;
}

/** What CloudFront sends API Gateway: the edge secret, the viewer's host, and API Gateway's own Host. */
const fromEdge = (viewerHost: string, extra: Record<string, string> = {}) =>
  event({
    host: 'abc123.execute-api.eu-west-1.amazonaws.com',
    [EDGE_SECRET_HEADER]: SECRET,
    [VIEWER_HOST_HEADER]: viewerHost,
    ...extra,
  });

const HOSTILE_HOSTS = [
  '',
  ' ',
  'shop.id.example.com ',
  'shop .id.example.com',
  'shop.id.example.com/path',
  'shop.id.example.com?x=1',
  'shop.id.example.com#x',
  'user@shop.id.example.com',
  'user:pw@shop.id.example.com',
  'https://shop.id.example.com',
  'shop.id.example.com,evil.example',
  'shop.id.example.com:',
  'shop.id.example.com:0',
  'shop.id.example.com:65536',
  'shop.id.example.com:443:443',
  'shop.id.example.com:abc',
  'shop.id.example.com.',
  '.id.example.com',
  'shop..example.com',
  '-shop.id.example.com',
  'shop-.id.example.com',
  'shop_1.id.example.com',
  '[::1]:3000',
  'shop.id.example.com\r\nx-injected: 1',
  'ünïcode.example.com',
  `${'a'.repeat(64)}.example.com`,
  `${Array.from({ length: 64 }, () => 'abc').join('.')}`, // 255 characters
];

describe('the viewer’s origin behind the hosted pages’ CloudFront (an edge secret is configured)', () => {
  it('is https:// and the viewer host CloudFront names beside the edge secret, lower-cased', () => {
    expect(viewerOrigin(fromEdge('shop.id.example.com'), AWS)).toBe('https://shop.id.example.com');
    expect(viewerOrigin(fromEdge('Shop.ID.Example.com'), AWS)).toBe('https://shop.id.example.com');
  });

  it('keeps a port, but not https’s default one', () => {
    expect(viewerOrigin(fromEdge('shop.id.example.com:8443'), AWS)).toBe('https://shop.id.example.com:8443');
    expect(viewerOrigin(fromEdge('shop.id.example.com:443'), AWS)).toBe('https://shop.id.example.com');
  });

  it('ignores a viewer host from a direct caller of the API (no edge secret, or a wrong one)', () => {
    const spoofed = { host: 'abc123.execute-api.eu-west-1.amazonaws.com', [VIEWER_HOST_HEADER]: 'victim.example.com' };
    expect(viewerOrigin(event(spoofed), AWS)).toBeUndefined();
    expect(viewerOrigin(event({ ...spoofed, [EDGE_SECRET_HEADER]: 'guess' }), AWS)).toBeUndefined();
    expect(viewerOrigin(event({ ...spoofed, [EDGE_SECRET_HEADER]: '' }), AWS)).toBeUndefined();
    expect(viewerOrigin(event({ ...spoofed, [EDGE_SECRET_HEADER]: `${SECRET}x` }), AWS)).toBeUndefined();
  });

  it('never falls back to the Host header (API Gateway’s own, or whatever a direct caller sent)', () => {
    expect(viewerOrigin(event({ host: 'shop.id.example.com', [EDGE_SECRET_HEADER]: SECRET }), AWS)).toBeUndefined();
    expect(viewerOrigin(event({ host: 'shop.id.example.com' }), AWS)).toBeUndefined();
  });

  it('ignores x-forwarded-proto: the viewer always reached CloudFront over https', () => {
    expect(viewerOrigin(fromEdge('shop.id.example.com', { 'x-forwarded-proto': 'http' }), AWS)).toBe(
      'https://shop.id.example.com',
    );
  });

  it.each(HOSTILE_HOSTS)('refuses the malformed viewer host %j', (host) => {
    expect(viewerOrigin(fromEdge(host), AWS)).toBeUndefined();
  });

  it('takes a host name of 253 characters, and no longer', () => {
    const longest = `${Array.from({ length: 63 }, () => 'abc').join('.')}.a`; // 251 + 2
    expect(longest).toHaveLength(253);
    expect(viewerOrigin(fromEdge(longest), AWS)).toBe(`https://${longest}`);
    expect(viewerOrigin(fromEdge(`${longest}b`), AWS)).toBeUndefined();
  });
});

describe('the viewer’s origin on the local stack (no edge secret)', () => {
  it('is the Host header the browser sent (the local edge passes it through), over http', () => {
    expect(viewerOrigin(event({ host: 'shop.localhost:3000' }), LOCAL)).toBe('http://shop.localhost:3000');
    expect(viewerOrigin(event({ Host: 'SHOP.localhost:3000' }), LOCAL)).toBe('http://shop.localhost:3000');
  });

  it('takes the scheme from x-forwarded-proto when it is http or https', () => {
    const host = { host: 'shop.localhost:3000' };
    expect(viewerOrigin(event({ ...host, 'x-forwarded-proto': 'https' }), LOCAL)).toBe('https://shop.localhost:3000');
    expect(viewerOrigin(event({ ...host, 'x-forwarded-proto': 'HTTPS' }), LOCAL)).toBe('https://shop.localhost:3000');
    expect(viewerOrigin(event({ ...host, 'x-forwarded-proto': 'http' }), LOCAL)).toBe('http://shop.localhost:3000');
    for (const proto of ['ftp', 'https, http', 'javascript', '']) {
      expect(viewerOrigin(event({ ...host, 'x-forwarded-proto': proto }), LOCAL), proto).toBe(
        'http://shop.localhost:3000',
      );
    }
  });

  it('leaves out the scheme’s default port', () => {
    expect(viewerOrigin(event({ host: 'shop.localhost:80' }), LOCAL)).toBe('http://shop.localhost');
    expect(viewerOrigin(event({ host: 'shop.localhost:443', 'x-forwarded-proto': 'https' }), LOCAL)).toBe(
      'https://shop.localhost',
    );
    expect(viewerOrigin(event({ host: 'shop.localhost:443' }), LOCAL)).toBe('http://shop.localhost:443');
  });

  it('ignores the viewer host header (only CloudFront sets it, and there is none locally)', () => {
    expect(
      viewerOrigin(event({ host: 'shop.localhost:3000', [VIEWER_HOST_HEADER]: 'victim.example.com' }), LOCAL),
    ).toBe('http://shop.localhost:3000');
    expect(viewerOrigin(event({ [VIEWER_HOST_HEADER]: 'victim.example.com' }), LOCAL)).toBeUndefined();
  });

  it.each(HOSTILE_HOSTS)('refuses the malformed Host %j', (host) => {
    expect(viewerOrigin(event({ host }), LOCAL)).toBeUndefined();
  });

  it('is undefined, and does not throw, without headers or with odd values', () => {
    expect(viewerOrigin(event(undefined), LOCAL)).toBeUndefined();
    expect(viewerOrigin(event({}), LOCAL)).toBeUndefined();
    expect(viewerOrigin(event({ host: 42 }), LOCAL)).toBeUndefined();
    expect(viewerOrigin(event({ host: ['a.localhost'] }), LOCAL)).toBeUndefined();
    expect(viewerOrigin(event({ host: 'shop.localhost', 'x-forwarded-proto': 7 }), LOCAL)).toBe(
      'http://shop.localhost',
    );
    expect(viewerOrigin(event(undefined), AWS)).toBeUndefined();
    expect(viewerOrigin(event({ [VIEWER_HOST_HEADER]: 1, [EDGE_SECRET_HEADER]: SECRET }), AWS)).toBeUndefined();
    expect(viewerOrigin(event({ [VIEWER_HOST_HEADER]: 'a.example', [EDGE_SECRET_HEADER]: 7 }), AWS)).toBeUndefined();
  });
});

describe('fromOurEdge', () => {
  it('is true only for the configured edge secret', () => {
    expect(fromOurEdge(event({ [EDGE_SECRET_HEADER]: SECRET }), SECRET)).toBe(true);
    expect(fromOurEdge(event({ [EDGE_SECRET_HEADER]: 'guess' }), SECRET)).toBe(false);
    expect(fromOurEdge(event({}), SECRET)).toBe(false);
    expect(fromOurEdge(event({ [EDGE_SECRET_HEADER]: SECRET }), undefined)).toBe(false);
    expect(fromOurEdge(event({ [EDGE_SECRET_HEADER]: '' }), '')).toBe(false);
  });
});
