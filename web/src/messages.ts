import { ApiError, type CLIENT_ERROR_CODES, type FieldError, type ServiceErrorCode } from './sdk.ts';

type Code = ServiceErrorCode | keyof typeof CLIENT_ERROR_CODES;

/**
 * Every problem code the service or the SDK can give, as a sentence for the
 * person at the screen (test/web/messages.test.ts holds this list to the SDK's).
 * What a code means on a given form can be sharpened by the form (`overrides`).
 */
export const PROBLEM_SENTENCES: Record<Code, string> = {
  VALIDATION_FAILED: 'Some of what you entered is not valid. Check the highlighted fields.',
  MALFORMED_JSON: 'The request could not be read. Reload the page and try again.',
  TENANT_REQUIRED: 'This page does not know which service it belongs to. Open it from your service’s link.',
  PASSWORD_TOO_COMMON: 'That password is too common or too easy to guess. Choose a longer, less predictable one.',
  UNAUTHENTICATED: 'You are signed out. Sign in again to go on.',
  // OAuth's token and revocation endpoints answer these to client apps; a page shows them only if an app passes one on.
  INVALID_CLIENT: 'The app could not prove who it is to this service. Its owner needs to check its settings.',
  INVALID_GRANT: 'That sign-in has expired or was already used. Go back to the app and sign in again.',
  UNAUTHORIZED_CLIENT: 'The app is not allowed to sign in this way. Its owner needs to check its settings.',
  UNSUPPORTED_GRANT_TYPE: 'The app asked for a kind of sign-in this service does not offer.',
  INVALID_SCOPE: 'The app asked for access this service does not give. Its owner needs to check its settings.',
  UNSUPPORTED_RESPONSE_TYPE: 'The app asked for a kind of sign-in this service does not offer.',
  REQUEST_NOT_SUPPORTED: 'The app sent its request in a form this service does not accept.',
  REQUEST_URI_NOT_SUPPORTED: 'The app sent its request in a form this service does not accept.',
  INVALID_CREDENTIALS: 'The e-mail address or password is not right.',
  INVALID_CODE: 'That code is not right, or it has expired. Check it or ask for a new one.',
  REFRESH_TOKEN_INVALID: 'Your session has ended. Sign in again.',
  REFRESH_TOKEN_REUSED: 'Your session was ended for your safety because it was used from two places. Sign in again.',
  SESSION_REVOKED: 'This session was signed out. Sign in again.',
  FORBIDDEN: 'You do not have permission to do that.',
  REAUTHENTICATION_REQUIRED: 'For your safety, confirm it is you before making this change.',
  CONSENT_REQUIRED: 'This app needs your permission to use your account. Allow it, or deny it.',
  ORIGIN_NOT_ALLOWED: 'This site is not allowed to use this service.',
  TENANT_MISMATCH: 'You are signed in to a different service. Sign out and sign in here.',
  TOTP_NOT_ALLOWED: 'Authenticator apps are not enabled for this service.',
  TOTP_REMOVAL_NOT_ALLOWED: 'This service requires you to keep your authenticator app.',
  LOGIN_MODE_NOT_ALLOWED: 'This way of signing in is not offered here.',
  SIGNUP_NOT_ALLOWED: 'Sign-up is by invitation only. Ask an administrator for an invitation.',
  ACCOUNT_DISABLED: 'This account is disabled. Contact an administrator.',
  ACCOUNT_INACTIVE: 'This account is not active yet. Finish signing up with the code we e-mailed you.',
  NOT_FOUND: 'That could not be found. It may have been deleted.',
  TENANT_NOT_FOUND: 'There is no service at this address.',
  METHOD_NOT_ALLOWED: 'That action is not available.',
  CONFLICT: 'Something changed in the meantime. Reload and try again.',
  ALREADY_EXISTS: 'That already exists.',
  TOTP_ALREADY_ENABLED: 'An authenticator app is already set up for this account.',
  PAYLOAD_TOO_LARGE: 'What you entered is too long.',
  UNSUPPORTED_MEDIA_TYPE: 'The request could not be read. Reload the page and try again.',
  TOO_MANY_ATTEMPTS: 'Too many attempts. For your safety, wait before trying again.',
  RATE_LIMITED: 'Too many requests from here. Wait a moment and try again.',
  INTERNAL: 'Something went wrong on our side. Try again in a moment.',
  UNAVAILABLE: 'The service is busy or unavailable. Try again in a moment.',
  NETWORK_ERROR: 'We could not reach the service. Check your connection and try again.',
  INVALID_RESPONSE: 'The service gave an answer we did not understand. Try again in a moment.',
  NO_REFRESH_TOKEN: 'You are signed out. Sign in again to go on.',
};

/** The codes that come with `Retry-After`, said with the time left. */
const WAIT_SENTENCES: Partial<Record<string, (wait: string) => string>> = {
  TOO_MANY_ATTEMPTS: (wait) => `Too many attempts. For your safety, this is locked: try again in ${wait}.`,
  RATE_LIMITED: (wait) => `Too many requests from here. Try again in ${wait}.`,
  UNAVAILABLE: (wait) => `The service is busy. Try again in ${wait}.`,
};

/** "14 hours", "14 minutes", "30 seconds": a wait the way a person says it. */
export function waitFor(seconds: number): string {
  if (seconds >= 90 * 60) return `${Math.ceil(seconds / 3600)} hours`;
  if (seconds >= 90) {
    const minutes = Math.ceil(seconds / 60);
    return `${minutes} minutes`;
  }
  const whole = Math.max(1, Math.ceil(seconds));
  return whole === 1 ? '1 second' : `${whole} seconds`;
}

/**
 * A form's own sentence for a code: plain, or made from the wait the service asked for (Retry-After, in seconds;
 * `undefined` when it gave none). A function that answers undefined leaves the code's usual sentence.
 */
export type SentenceOverrides = Partial<
  Record<string, string | ((retryAfterSeconds: number | undefined) => string | undefined)>
>;

/** The sentence for a failure: its code's, with the time left when the service says how long to wait. */
export function problemSentence(error: unknown, overrides: SentenceOverrides = {}): string {
  if (!(error instanceof ApiError)) return PROBLEM_SENTENCES.INTERNAL;
  const given = overrides[error.code];
  const override = typeof given === 'function' ? given(error.retryAfter) : given;
  if (typeof given === 'function' && override !== undefined) return override;
  const sentence = override ?? PROBLEM_SENTENCES[error.code as Code] ?? PROBLEM_SENTENCES.INTERNAL;
  if (error.retryAfter !== undefined && error.code in WAIT_SENTENCES) {
    return (WAIT_SENTENCES[error.code] as (wait: string) => string)(waitFor(error.retryAfter));
  }
  return sentence;
}

/** Field messages of a 400, by field path (`email`, `newPassword`…). */
export function fieldProblems(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(error.errors.map((e) => [e.path, e.message]));
}

/** A form's own check failing, as the service's 400 would, so that local and remote problems show the same way. */
export function formProblem(errors: FieldError[]): ApiError {
  return new ApiError({ status: 400, code: 'VALIDATION_FAILED', errors });
}

/**
 * How a form names its fields in its sentences: by path, or, for fields that are lists (`redirectUris.1`), a
 * function of the path answering the field the sentence shows at and what it speaks of. A path the form does not
 * name is left to its alert.
 */
export type FieldLabels = Record<string, string> | ((path: string) => { field: string; label: string } | undefined);

/**
 * The field problems of a failure (a 400's `errors[]`, the form's own `formProblem`, PASSWORD_TOO_COMMON) as
 * sentences by field. Without labels each message is made a sentence of its own ("needs a digit" → "Needs a
 * digit."); with them it is said of the field's label ("Password needs a digit.", "is required" → "Enter your
 * password."). Of two problems at one path the last is said; problems of several paths at one field are joined.
 */
export function fieldSentences(error: unknown, labels?: FieldLabels): Record<string, string> {
  const byPath = fieldProblems(error);
  const tooCommon = error instanceof ApiError && error.code === 'PASSWORD_TOO_COMMON';
  const found: Record<string, string[]> = {};
  for (const [path, message] of Object.entries(byPath)) {
    const named = labelOf(labels, path);
    if (labels && !named) continue;
    const field = named?.field ?? path;
    const said = tooCommon && named ? PROBLEM_SENTENCES.PASSWORD_TOO_COMMON : sentenceOf(named?.label, message);
    found[field] = [...(found[field] ?? []), said];
  }
  return Object.fromEntries(Object.entries(found).map(([field, said]) => [field, said.join(' ')]));
}

function labelOf(labels: FieldLabels | undefined, path: string) {
  if (typeof labels === 'function') return labels(path);
  const label = labels?.[path];
  return label ? { field: path, label } : undefined;
}

/**
 * A field's problem as a sentence: alone, "needs a digit" → "Needs a digit."; of a label, "is required" under
 * "Password" → "Enter your password.", "needs a digit" → "Password needs a digit.", and a message that is not a
 * predicate after a colon ("at least one redirect URI" → "The redirect URIs: at least one redirect URI.").
 */
function sentenceOf(label: string | undefined, message: string): string {
  const trimmed = message.trim();
  let text: string;
  if (label === undefined) text = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  else if (trimmed === 'is required') {
    const noun = label.charAt(0).toLowerCase() + label.slice(1);
    return `Enter ${/^code\b/.test(noun) ? 'the' : 'your'} ${noun}.`;
  } else if (/e-mail address$/.test(trimmed)) return 'Enter an e-mail address, like name@example.com.';
  else text = /^(must|is|are|needs) /.test(trimmed) ? `${label} ${trimmed}` : `${label}: ${trimmed}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "25 Nov 2026, 18:20": an ISO instant in the reader's locale and time zone (the text itself when it is none). */
export function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}
