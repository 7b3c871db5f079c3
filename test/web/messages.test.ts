import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_CODES, SERVICE_ERROR_CODES } from '../../client/src/index.ts';
import english from '../../web/src/i18n/en/common.ts';
import { switchLanguage } from '../../web/src/i18n/index.ts';
import { fieldSentences, formProblem, problemSentence, waitFor, when } from '../../web/src/messages.ts';

/** The English sentence of each code, as the catalogue has it. */
const PROBLEM_SENTENCES = Object.fromEntries(
  Object.entries(english).flatMap(([key, text]) => (key.startsWith('problem.') ? [[key.slice(8), text]] : [])),
) as Record<string, string>;

beforeAll(() => switchLanguage('en'));

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

describe('fieldSentences says field problems as sentences', () => {
  const failure = (...errors: { path: string; message: string }[]) => formProblem(errors);

  it('without labels, each message as a sentence of its own', () => {
    expect(fieldSentences(failure({ path: 'newPassword', message: 'needs a digit' }))).toEqual({
      newPassword: 'Needs a digit.',
    });
    expect(fieldSentences(new Error('not an answer of the service'))).toEqual({});
  });

  it('with labels, said of the field; paths the form does not name are left to its alert', () => {
    const labels = { email: 'E-mail address', password: 'Password', code: 'Code from the e-mail' };
    expect(
      fieldSentences(
        failure(
          { path: 'password', message: 'is required' },
          { path: 'code', message: 'is required' },
          { path: 'email', message: 'must be an e-mail address' },
          { path: 'loginMode', message: 'must be PASSWORD or OTP_EMAIL' },
        ),
        labels,
      ),
    ).toEqual({
      password: 'Enter your password.',
      code: 'Enter the code from the e-mail.',
      email: 'Enter an e-mail address, like name@example.com.',
    });
    expect(fieldSentences(failure({ path: 'password', message: 'needs a digit' }), labels)).toEqual({
      password: 'Password needs a digit.',
    });
    const tooCommon = new ApiError({
      status: 400,
      code: 'PASSWORD_TOO_COMMON',
      errors: [{ path: 'password', message: 'is too common' }],
    });
    expect(fieldSentences(tooCommon, labels)).toEqual({ password: PROBLEM_SENTENCES.PASSWORD_TOO_COMMON });
  });

  it('with a function of the path, several paths at one field are joined, and a non-predicate follows a colon', () => {
    const labels = (path: string) => {
      const [field = '', index] = path.split('.');
      return { field, label: index === undefined ? 'The redirect URIs' : `Line ${Number(index) + 1}` };
    };
    expect(
      fieldSentences(
        failure(
          { path: 'redirectUris.0', message: 'must not have a fragment' },
          { path: 'redirectUris.2', message: 'must use https' },
        ),
        labels,
      ),
    ).toEqual({ redirectUris: 'Line 1 must not have a fragment. Line 3 must use https.' });
    expect(fieldSentences(failure({ path: 'redirectUris', message: 'at least one redirect URI' }), labels)).toEqual({
      redirectUris: 'The redirect URIs: at least one redirect URI.',
    });
  });
});

describe('in German', () => {
  beforeAll(() => switchLanguage('de'));
  afterAll(() => switchLanguage('en'));

  it('dates in the language in use, and an instant that is none as it came', async () => {
    expect(when('2026-03-14T09:30:00Z')).toMatch(/\b14\.03\.2026\b/);
    await switchLanguage('en');
    expect(when('2026-03-14T09:30:00Z')).toMatch(/\bMar\b/);
    expect(when('soon')).toBe('soon');
    await switchLanguage('de');
  });

  it('says the wait, the code and the field in German', () => {
    expect(waitFor(90)).toBe('2 Minuten');
    expect(waitFor(1)).toBe('1 Sekunde');
    expect(problemSentence(new ApiError({ status: 429, code: 'RATE_LIMITED', retryAfter: 3600 * 2 }))).toBe(
      'Zu viele Anfragen von hier. Versuchen Sie es in 2 Stunden wieder.',
    );
    expect(problemSentence(new ApiError({ status: 418, code: 'TEAPOT' }))).toBe(
      'Bei uns ist etwas schiefgegangen. Versuchen Sie es gleich noch einmal.',
    );
    const labels = { password: 'Passwort', code: 'Code aus der E-Mail' };
    expect(
      fieldSentences(
        formProblem([
          { path: 'password', message: 'needs a digit' },
          { path: 'code', message: 'is required' },
        ]),
        labels,
      ),
    ).toEqual({ password: 'Passwort: braucht eine Ziffer.', code: 'Bitte Code aus der E-Mail eingeben.' });
  });
});
