import { describe, expect, it } from 'vitest';
import { clientIp, EDGE_SECRET_HEADER, VIEWER_IP_HEADER } from '#shared/http/client-ip.ts';
import type { HttpEvent } from '#shared/http/request-state.ts';

const SECRET = 'edge-secret-0123456789abcdef';

function event(headers: Record<string, string>): HttpEvent {
  return { headers, requestContext: { http: { sourceIp: '130.176.0.1' } } } as unknown as HttpEvent;
}

describe('the client address behind the hosted pages’ CloudFront', () => {
  it('is the viewer’s address when the request carries the edge secret', () => {
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: '203.0.113.7' }), SECRET)).toBe(
      '203.0.113.7',
    );
  });

  it('is API Gateway’s sourceIp for a direct caller naming any address (spoofing the rate limit’s key)', () => {
    expect(clientIp(event({ [VIEWER_IP_HEADER]: '203.0.113.7' }), SECRET)).toBe('130.176.0.1');
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: 'guess', [VIEWER_IP_HEADER]: '203.0.113.7' }), SECRET)).toBe(
      '130.176.0.1',
    );
  });

  it('is sourceIp when no edge is deployed, or the named address is not an address', () => {
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: '203.0.113.7' }), undefined)).toBe(
      '130.176.0.1',
    );
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: 'x; drop' }), SECRET)).toBe(
      '130.176.0.1',
    );
  });
});
