import { describe, expect, it } from 'vitest';
import { EDGE_SECRET_HEADER, type EdgeSecretConfig, edgeTrust } from '#shared/http/client-ip.ts';
import type { HttpEvent } from '#shared/http/request-state.ts';
import { VIEWER_HOST_HEADER, viewerOrigin } from '#shared/http/viewer-origin.ts';

const SECRET = 'edge-secret-0123456789abcdef';
const AWS: EdgeSecretConfig = { edgeSecret: SECRET, edgeSecretArn: undefined, edgeOnly: false };
const LOCAL: EdgeSecretConfig = { edgeSecret: undefined, edgeSecretArn: undefined, edgeOnly: false };

/** The origin as a function sees it: the request's edge trust first (handler.ts), then the viewer's origin. */
const originOf = async (e: HttpEvent, config: EdgeSecretConfig) => viewerOrigin(e, await edgeTrust(e, config));

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
  it('is https:// and the viewer host CloudFront names beside the edge secret, lower-cased', async () => {
    expect(await originOf(fromEdge('shop.id.example.com'), AWS)).toBe('https://shop.id.example.com');
    expect(await originOf(fromEdge('Shop.ID.Example.com'), AWS)).toBe('https://shop.id.example.com');
  });

  it('keeps a port, but not https’s default one', async () => {
    expect(await originOf(fromEdge('shop.id.example.com:8443'), AWS)).toBe('https://shop.id.example.com:8443');
    expect(await originOf(fromEdge('shop.id.example.com:443'), AWS)).toBe('https://shop.id.example.com');
  });

  it('ignores a viewer host from a direct caller of the API (no edge secret, or a wrong one)', async () => {
    const spoofed = { host: 'abc123.execute-api.eu-west-1.amazonaws.com', [VIEWER_HOST_HEADER]: 'victim.example.com' };
    expect(await originOf(event(spoofed), AWS)).toBeUndefined();
    expect(await originOf(event({ ...spoofed, [EDGE_SECRET_HEADER]: 'guess' }), AWS)).toBeUndefined();
    expect(await originOf(event({ ...spoofed, [EDGE_SECRET_HEADER]: '' }), AWS)).toBeUndefined();
    expect(await originOf(event({ ...spoofed, [EDGE_SECRET_HEADER]: `${SECRET}x` }), AWS)).toBeUndefined();
  });

  it('never falls back to the Host header (API Gateway’s own, or whatever a direct caller sent)', async () => {
    expect(await originOf(event({ host: 'shop.id.example.com', [EDGE_SECRET_HEADER]: SECRET }), AWS)).toBeUndefined();
    expect(await originOf(event({ host: 'shop.id.example.com' }), AWS)).toBeUndefined();
  });

  it('ignores x-forwarded-proto: the viewer always reached CloudFront over https', async () => {
    expect(await originOf(fromEdge('shop.id.example.com', { 'x-forwarded-proto': 'http' }), AWS)).toBe(
      'https://shop.id.example.com',
    );
  });

  it.each(HOSTILE_HOSTS)('refuses the malformed viewer host %j', async (host) => {
    expect(await originOf(fromEdge(host), AWS)).toBeUndefined();
  });

  it('takes a host name of 253 characters, and no longer', async () => {
    const longest = `${Array.from({ length: 63 }, () => 'abc').join('.')}.a`; // 251 + 2
    expect(longest).toHaveLength(253);
    expect(await originOf(fromEdge(longest), AWS)).toBe(`https://${longest}`);
    expect(await originOf(fromEdge(`${longest}b`), AWS)).toBeUndefined();
  });
});

describe('the viewer’s origin on the local stack (no edge secret)', () => {
  it('is the Host header the browser sent (the local edge passes it through), over http', async () => {
    expect(await originOf(event({ host: 'shop.localhost:3000' }), LOCAL)).toBe('http://shop.localhost:3000');
    expect(await originOf(event({ Host: 'SHOP.localhost:3000' }), LOCAL)).toBe('http://shop.localhost:3000');
  });

  it('takes the scheme from x-forwarded-proto when it is http or https', async () => {
    const host = { host: 'shop.localhost:3000' };
    expect(await originOf(event({ ...host, 'x-forwarded-proto': 'https' }), LOCAL)).toBe('https://shop.localhost:3000');
    expect(await originOf(event({ ...host, 'x-forwarded-proto': 'HTTPS' }), LOCAL)).toBe('https://shop.localhost:3000');
    expect(await originOf(event({ ...host, 'x-forwarded-proto': 'http' }), LOCAL)).toBe('http://shop.localhost:3000');
    for (const proto of ['ftp', 'https, http', 'javascript', '']) {
      expect(await originOf(event({ ...host, 'x-forwarded-proto': proto }), LOCAL), proto).toBe(
        'http://shop.localhost:3000',
      );
    }
  });

  it('leaves out the scheme’s default port', async () => {
    expect(await originOf(event({ host: 'shop.localhost:80' }), LOCAL)).toBe('http://shop.localhost');
    expect(await originOf(event({ host: 'shop.localhost:443', 'x-forwarded-proto': 'https' }), LOCAL)).toBe(
      'https://shop.localhost',
    );
    expect(await originOf(event({ host: 'shop.localhost:443' }), LOCAL)).toBe('http://shop.localhost:443');
  });

  it('ignores the viewer host header (only CloudFront sets it, and there is none locally)', async () => {
    expect(
      await originOf(event({ host: 'shop.localhost:3000', [VIEWER_HOST_HEADER]: 'victim.example.com' }), LOCAL),
    ).toBe('http://shop.localhost:3000');
    expect(await originOf(event({ [VIEWER_HOST_HEADER]: 'victim.example.com' }), LOCAL)).toBeUndefined();
  });

  it.each(HOSTILE_HOSTS)('refuses the malformed Host %j', async (host) => {
    expect(await originOf(event({ host }), LOCAL)).toBeUndefined();
  });

  it('is undefined, and does not throw, without headers or with odd values', async () => {
    expect(await originOf(event(undefined), LOCAL)).toBeUndefined();
    expect(await originOf(event({}), LOCAL)).toBeUndefined();
    expect(await originOf(event({ host: 42 }), LOCAL)).toBeUndefined();
    expect(await originOf(event({ host: ['a.localhost'] }), LOCAL)).toBeUndefined();
    expect(await originOf(event({ host: 'shop.localhost', 'x-forwarded-proto': 7 }), LOCAL)).toBe(
      'http://shop.localhost',
    );
    expect(await originOf(event(undefined), AWS)).toBeUndefined();
    expect(await originOf(event({ [VIEWER_HOST_HEADER]: 1, [EDGE_SECRET_HEADER]: SECRET }), AWS)).toBeUndefined();
    expect(await originOf(event({ [VIEWER_HOST_HEADER]: 'a.example', [EDGE_SECRET_HEADER]: 7 }), AWS)).toBeUndefined();
  });
});

describe('edgeTrust', () => {
  it('is from-edge only for the configured edge secret', async () => {
    expect(await edgeTrust(event({ [EDGE_SECRET_HEADER]: SECRET }), AWS)).toBe('from-edge');
    expect(await edgeTrust(event({ [EDGE_SECRET_HEADER]: 'guess' }), AWS)).toBe('not-from-edge');
    expect(await edgeTrust(event({}), AWS)).toBe('not-from-edge');
    expect(await edgeTrust(event({ [EDGE_SECRET_HEADER]: SECRET }), LOCAL)).toBe('no-edge');
    expect(await edgeTrust(event({ [EDGE_SECRET_HEADER]: '' }), AWS)).toBe('not-from-edge');
  });
});
