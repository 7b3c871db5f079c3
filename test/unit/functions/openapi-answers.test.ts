import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { plantsOpenApi } from '#functions/plants/openapi.ts';
import { REPO_ROOT } from '#local/stack.ts';
import { answerChecker, type RecordedAnswer } from '#test/support/answer-check.ts';
import { installAnswerRecorder, takeAnswers, watchAnswers } from '#test/support/answer-recorder.ts';

/**
 * The check the http and client projects run on every answer
 * (test/support/check-answers.ts): it must report what differs from the
 * document, or it would pass everything silently.
 */

const identity = answerChecker(JSON.parse(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8')), 'Problem');
const plants = answerChecker(plantsOpenApi('http://localhost'));

const problemJson = { 'content-type': 'application/problem+json' };
const json = { 'content-type': 'application/json; charset=utf-8' };
const problem = (status: number, code: string) => JSON.stringify({ type: 'about:blank', title: 'Error', status, code });

function answer(overrides: Partial<RecordedAnswer>): RecordedAnswer {
  return { method: 'GET', path: '/health', status: 200, headers: json, body: '{"status":"ok"}', ...overrides };
}

describe('answerChecker', () => {
  it('passes answers as documented: a body, a 204, a problem in a 4XX range, a 429 with Retry-After', () => {
    expect(identity.check(answer({}))).toEqual([]);
    expect(
      identity.check(answer({ method: 'DELETE', path: '/auth/logout', status: 204, headers: {}, body: '' })),
    ).toEqual([]);
    const forbidden = { method: 'GET', path: '/users/usr_1', status: 403, headers: problemJson };
    expect(identity.check(answer({ ...forbidden, body: problem(403, 'FORBIDDEN') }))).toEqual([]);
    const locked = { method: 'POST', path: '/auth/login', status: 429, body: problem(429, 'TOO_MANY_ATTEMPTS') };
    expect(identity.check(answer({ ...locked, headers: { ...problemJson, 'retry-after': '900' } }))).toEqual([]);
  });

  it('reports a body that breaks its schema, naming the field and the error', () => {
    const problems = identity.check(answer({ body: '{"status":"fine","extra":1}' }));
    expect(problems).toEqual([expect.stringMatching(/^body\/status must be equal to constant/)]);
    const wrongType = identity.check(
      answer({ method: 'GET', path: '/users/me', body: JSON.stringify({ id: 1, email: 'a@b.test' }) }),
    );
    expect(wrongType).toContainEqual('body/id must be string');
    expect(wrongType).toContainEqual(expect.stringMatching(/^body must have required property 'emailStatus'/));
  });

  it('reports a 429 or 503 without Retry-After, or with one that is not seconds', () => {
    const throttled = { method: 'GET', path: '/users/me', status: 503, body: problem(503, 'UNAVAILABLE') };
    expect(identity.check(answer({ ...throttled, headers: problemJson }))).toEqual(['header Retry-After is missing']);
    expect(identity.check(answer({ ...throttled, headers: { ...problemJson, 'retry-after': 'soon' } }))).toEqual([
      expect.stringMatching(/^header Retry-After: "soon" is not/),
    ]);
  });

  it('reports a problem sent as plain JSON, and a body where the document has none', () => {
    const asJson = answer({ method: 'GET', path: '/users/me', status: 401, body: problem(401, 'UNAUTHENTICATED') });
    expect(identity.check(asJson)).toEqual([expect.stringMatching(/^content-type application\/json.*problem\+json/)]);
    expect(identity.check(answer({ method: 'DELETE', path: '/auth/logout', status: 204, body: '{}' }))).toEqual([
      'a body where the document has none',
    ]);
  });

  it('picks the literal path over a template (/users/me, not /users/{id})', () => {
    expect(identity.templateOf(answer({ path: '/users/me' }))).toBe('/users/me');
    expect(identity.templateOf(answer({ path: '/users/usr_1' }))).toBe('/users/{id}');
  });

  it('checks answers to unlisted paths only when they are problem+json, against the Problem schema', () => {
    const preflight = answer({ method: 'OPTIONS', path: '/users/me', status: 204, headers: {}, body: '' });
    expect(identity.check(preflight)).toEqual([]);
    const gateway = answer({ path: '/nowhere', status: 404, body: '{"message":"Not Found"}' });
    expect(identity.check(gateway)).toEqual([]);
    const bad = answer({ path: '/nowhere', status: 404, headers: problemJson, body: '{"code":"NOT_FOUND"}' });
    expect(identity.check(bad)).toContainEqual(expect.stringMatching(/required property 'status'/));
  });

  it("checks the plant store's answers against its own error body", () => {
    const denied = { method: 'POST', path: '/plants', status: 401, headers: json };
    expect(plants.check(answer({ ...denied, body: '{"error":401,"message":"no"}' }))).toEqual([]);
    expect(plants.check(answer({ ...denied, body: problem(401, 'UNAUTHENTICATED') }))).not.toEqual([]);
  });
});

describe('the answer recorder', () => {
  const original = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = original;
  });

  it('records answers from watched base URLs only, relative to the base, with the body the test also reads', async () => {
    globalThis.fetch = (async (input: string | URL | Request) =>
      new Response(new URL(String(input)).pathname.endsWith('/health') ? '{"status":"ok"}' : 'other', {
        status: 200,
        headers: json,
      })) as typeof fetch;
    installAnswerRecorder();
    watchAnswers('identity', 'http://127.0.0.1:4100/api/v1');
    const res = await fetch('http://127.0.0.1:4100/api/v1/health?x=1');
    await fetch('http://127.0.0.1:4101/store');
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(await takeAnswers()).toEqual([
      {
        service: 'identity',
        method: 'GET',
        path: '/health',
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"status":"ok"}',
      },
    ]);
  });
});
