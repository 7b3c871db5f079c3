import { describe, expect, it } from 'vitest';
import { type RequestReport, requestLines, writeRequestLines } from '#shared/http/request-metrics.ts';
import { requestLogAt } from '#shared/log.ts';
import { directivesOf, expectValidEmf } from '#test/support/emf.ts';

const NOW = Date.UTC(2026, 10, 27, 9, 50, 37, 795);

/**
 * The longest line a request realistically writes: a refused sign-in that locked the address (two counters), with
 * its code, the tenant, the user, a full-length IPv6 address and a four-digit latency (no API key: a sign-in has none).
 */
const refusedLogin: RequestReport = {
  requestId: 'Vq0zxgh1IAMEVxw=',
  route: 'login',
  status: 401,
  outcome: 'unauthenticated',
  code: 'INVALID_CREDENTIALS',
  latencyMs: 1234.5,
  app: 'app_9g0dd0z2gck08fv1',
  mid: 'mid_j4782e8dh6xs725j',
  userId: 'usr_9vk1v957r0xx80cryf3r',
  ip: '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
  counters: ['FailedLogins', 'Lockouts'],
  timestamp: NOW,
};

const getMe: RequestReport = {
  requestId: 'Vq0zxgh1IAMEVxw=',
  route: 'getMe',
  status: 200,
  outcome: 'success',
  latencyMs: 12.3,
  app: 'app_9g0dd0z2gck08fv1',
  mid: 'mid_j4782e8dh6xs725j',
  userId: 'usr_9vk1v957r0xx80cryf3r',
  ip: '203.0.113.7',
  counters: [],
  timestamp: NOW,
};

/** What infra/monitoring.ts reads: Requests and Latency by service and route, Requests by outcome too. */
const PER_REQUEST = [
  'IdentityService [["service","route"],["service","route","outcome"]] Requests',
  'IdentityService [["service","route"]] Latency:Milliseconds',
];

describe('requestLines: one line per request, its summary and its metrics', () => {
  it('is one valid EMF document holding the summary fields, Requests and Latency, and no time or latencyMs', () => {
    const lines = requestLines('IdentityService', 'Identity', getMe);
    expect(lines).toHaveLength(1);
    const line = expectValidEmf(lines[0] ?? '');
    expect(directivesOf(line)).toEqual(PER_REQUEST);
    const { _aws, ...fields } = line;
    expect(fields).toEqual({
      message: 'request',
      requestId: 'Vq0zxgh1IAMEVxw=',
      service: 'Identity',
      route: 'getMe',
      status: 200,
      outcome: 'success',
      Requests: 1,
      Latency: 12.3,
      app: 'app_9g0dd0z2gck08fv1',
      mid: 'mid_j4782e8dh6xs725j',
      userId: 'usr_9vk1v957r0xx80cryf3r',
      ip: '203.0.113.7',
    });
    expect(_aws.Timestamp).toBe(NOW);
  });

  it("a refresh or a profile read answered (132 of a user's 148 requests a month) writes at most 600 bytes, IPv6 and all", () => {
    for (const route of ['refresh', 'getMe']) {
      const [text] = requestLines('IdentityService', 'Identity', {
        ...getMe,
        route,
        ip: '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
      });
      expectValidEmf(text ?? '');
      expect(Buffer.byteLength(text ?? ''), route).toBeLessThanOrEqual(600);
    }
  });

  it('the longest realistic line (a refused sign-in that locked the address) is valid EMF of at most 800 bytes', () => {
    const [text, ...more] = requestLines('IdentityService', 'Identity', refusedLogin);
    expect(more).toEqual([]);
    const line = expectValidEmf(text ?? '');
    expect(directivesOf(line)).toEqual([...PER_REQUEST, 'IdentityService [["service"]] FailedLogins,Lockouts']);
    expect(line).toMatchObject({ code: 'INVALID_CREDENTIALS', FailedLogins: 1, Lockouts: 1 });
    // 780 bytes: a refusal names its code and outcome, and its counters need a directive of their own (by service).
    expect(Buffer.byteLength(text ?? '')).toBeLessThanOrEqual(800);
  });

  it('sums a counter counted twice, and names the plant store its own namespace', () => {
    const [text] = requestLines('PlantStore', 'Plants', {
      ...getMe,
      route: 'createPlant',
      counters: ['DirectReadFallback', 'DirectReadFallback'],
    });
    const line = expectValidEmf(text ?? '');
    expect(directivesOf(line)).toEqual([
      'PlantStore [["service","route"],["service","route","outcome"]] Requests',
      'PlantStore [["service","route"]] Latency:Milliseconds',
      'PlantStore [["service"]] DirectReadFallback',
    ]);
    expect(line.DirectReadFallback).toBe(2);
  });

  it('a mail SES refused: MailsFailed by service and kind in the same line', () => {
    const [text, ...more] = requestLines('IdentityService', 'Identity', {
      ...getMe,
      route: 'forgotPassword',
      mailsFailed: ['PASSWORD_RESET_CODE'],
    });
    expect(more).toEqual([]);
    const line = expectValidEmf(text ?? '');
    expect(directivesOf(line)).toEqual([...PER_REQUEST, 'IdentityService [["service","kind"]] MailsFailed']);
    expect(line).toMatchObject({ MailsFailed: 1, kind: 'PASSWORD_RESET_CODE' });
  });

  it('mails of two kinds refused in one request: a second line for the second kind, which counts no request', () => {
    const lines = requestLines('IdentityService', 'Identity', {
      ...getMe,
      route: 'login',
      mailsFailed: ['LOGIN_CODE', 'ACCOUNT_LOCKED', 'LOGIN_CODE'],
    });
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map(expectValidEmf);
    expect(first).toMatchObject({ message: 'request', MailsFailed: 2, kind: 'LOGIN_CODE' });
    expect(second?.Requests).toBeUndefined();
    expect(second).toMatchObject({
      message: 'mails failed',
      requestId: getMe.requestId,
      route: 'login',
      MailsFailed: 1,
      kind: 'ACCOUNT_LOCKED',
    });
    expect(directivesOf(second as never)).toEqual(['IdentityService [["service","kind"]] MailsFailed']);
  });
});

function stdoutOf(action: () => void): string[] {
  const lines: string[] = [];
  const original = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  try {
    action();
  } finally {
    process.stdout.write = original;
  }
  return lines;
}

describe('writeRequestLines on Lambda (stdout)', () => {
  it('writes the line to stdout at LOG_LEVEL=info, with the service its deps name', () => {
    const lines = stdoutOf(() => writeRequestLines(requestLogAt('info', 'Identity'), 'IdentityService', getMe));
    expect(lines).toHaveLength(1);
    expect(expectValidEmf(lines[0] ?? '')).toMatchObject({ message: 'request', service: 'Identity', route: 'getMe' });
  });

  it('writes nothing at LOG_LEVEL=error (the tests, the soak run)', () => {
    expect(stdoutOf(() => writeRequestLines(requestLogAt('error', 'Identity'), 'IdentityService', getMe))).toEqual([]);
  });
});
