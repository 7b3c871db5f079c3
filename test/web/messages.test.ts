import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_CODES, SERVICE_ERROR_CODES } from '../../client/src/index.ts';
import { PROBLEM_SENTENCES, problemSentence, waitFor } from '../../web/src/messages.ts';

const EVERY_CODE = [...SERVICE_ERROR_CODES, ...Object.values(CLIENT_ERROR_CODES)];

describe('every problem code has a sentence', () => {
  it.each(EVERY_CODE)('%s', (code) => {
    const sentence = PROBLEM_SENTENCES[code as keyof typeof PROBLEM_SENTENCES];
    expect(sentence, `no sentence for ${code}`).toBeTypeOf('string');
    expect(sentence).not.toContain(code);
    expect(sentence).toMatch(/^[A-Z].*[.!?]$/);
    expect(problemSentence(new ApiError({ status: 400, code }))).toBe(sentence);
  });

  it('holds no sentence for a code the SDK does not know', () => {
    expect(Object.keys(PROBLEM_SENTENCES).sort()).toEqual([...EVERY_CODE].sort());
  });

  it('says something human for an unknown code or a non-ApiError, never the code', () => {
    expect(problemSentence(new ApiError({ status: 418, code: 'TEAPOT' }))).toBe(PROBLEM_SENTENCES.INTERNAL);
    expect(problemSentence(new Error('boom'))).toBe(PROBLEM_SENTENCES.INTERNAL);
  });

  it('lets a form sharpen a sentence', () => {
    const error = new ApiError({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(problemSentence(error, { INVALID_CREDENTIALS: 'Not you?' })).toBe('Not you?');
  });

  it("lets a form's sentence depend on the wait, or leave the usual one", () => {
    const paused = (seconds: number | undefined) =>
      seconds !== undefined && seconds >= 3600 ? `Paused for ${waitFor(seconds)}.` : undefined;
    const long = new ApiError({ status: 503, code: 'UNAVAILABLE', retryAfter: 14 * 3600 });
    expect(problemSentence(long, { UNAVAILABLE: paused })).toBe('Paused for 14 hours.');
    const short = new ApiError({ status: 503, code: 'UNAVAILABLE', retryAfter: 5 });
    expect(problemSentence(short, { UNAVAILABLE: paused })).toBe('The service is busy. Try again in 5 seconds.');
    expect(problemSentence(new ApiError({ status: 503, code: 'UNAVAILABLE' }), { UNAVAILABLE: paused })).toBe(
      PROBLEM_SENTENCES.UNAVAILABLE,
    );
  });
});

describe('problemSentence with Retry-After says the wait', () => {
  it('in minutes for a lockout (840 s → 14 minutes)', () => {
    const error = new ApiError({ status: 429, code: 'TOO_MANY_ATTEMPTS', retryAfter: 840 });
    expect(problemSentence(error)).toBe('Too many attempts. For your safety, this is locked: try again in 14 minutes.');
  });

  it('in seconds for a short wait, and rounds up', () => {
    expect(problemSentence(new ApiError({ status: 429, code: 'RATE_LIMITED', retryAfter: 30 }))).toBe(
      'Too many requests from here. Try again in 30 seconds.',
    );
    expect(problemSentence(new ApiError({ status: 503, code: 'UNAVAILABLE', retryAfter: 5 }))).toBe(
      'The service is busy. Try again in 5 seconds.',
    );
    expect(waitFor(0.2)).toBe('1 second');
    expect(waitFor(89)).toBe('89 seconds');
    expect(waitFor(90)).toBe('2 minutes');
    expect(waitFor(900)).toBe('15 minutes');
    expect(waitFor(5399)).toBe('90 minutes');
    expect(waitFor(14 * 3600)).toBe('14 hours');
  });

  it('without Retry-After, the plain sentence', () => {
    expect(problemSentence(new ApiError({ status: 429, code: 'TOO_MANY_ATTEMPTS' }))).toBe(
      PROBLEM_SENTENCES.TOO_MANY_ATTEMPTS,
    );
  });
});
