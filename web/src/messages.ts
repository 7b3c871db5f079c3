import { currentLanguage, hasText, type PluralKey, type TextKey, t, tn } from './i18n/index.ts';
import { ApiError, type CLIENT_ERROR_CODES, type FieldError, type ServiceErrorCode } from './sdk.ts';

type Code = ServiceErrorCode | keyof typeof CLIENT_ERROR_CODES;

/** Whether a code has a sentence of its own (every code the SDK names does: test/web/messages.test.ts). */
export function hasSentence(code: string): code is Code {
  return hasText(`problem.${code}`);
}

/** The sentence for a problem code; an unknown code gets INTERNAL's, never the code itself. */
export function codeSentence(code: string): string {
  return t(hasSentence(code) ? (`problem.${code}` as TextKey) : 'problem.INTERNAL');
}

/** The codes that come with `Retry-After`, said with the time left. */
const WAIT_CODES = new Set(['TOO_MANY_ATTEMPTS', 'RATE_LIMITED', 'UNAVAILABLE']);

/** "14 hours", "14 minutes", "30 seconds": a wait the way a person says it. */
export function waitFor(seconds: number): string {
  if (seconds >= 90 * 60) return tn('hours', Math.ceil(seconds / 3600));
  if (seconds >= 90) return tn('minutes', Math.ceil(seconds / 60));
  return tn('seconds', Math.max(1, Math.ceil(seconds)));
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
  if (!(error instanceof ApiError)) return codeSentence('INTERNAL');
  const given = overrides[error.code];
  const override = typeof given === 'function' ? given(error.retryAfter) : given;
  if (typeof given === 'function' && override !== undefined) return override;
  const sentence = override ?? codeSentence(error.code);
  if (error.retryAfter !== undefined && WAIT_CODES.has(error.code)) {
    return t(`wait.${error.code}` as TextKey, { wait: waitFor(error.retryAfter) });
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
    const said = tooCommon && named ? codeSentence('PASSWORD_TOO_COMMON') : sentenceOf(named?.label, message);
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
 * The service's and the SDK's field messages the pages say in their own words, in the language in use; a message
 * not listed is said as the service gave it.
 */
const PREDICATES: [RegExp, TextKey][] = [
  [/^needs a letter$/, 'predicate.needsLetter'],
  [/^needs a digit$/, 'predicate.needsDigit'],
  [/^must be a #rrggbb colour$/, 'predicate.colour'],
  [/^must be an https URL$/, 'predicate.httpsUrl'],
  [/^must be an http or https URL$/, 'predicate.httpUrl'],
  [/^must not repeat a URI$/, 'predicate.repeatedUri'],
  [/^must be 5 to 15 digits, with spaces/, 'predicate.phone'],
  [/^must not be empty$/, 'predicate.notEmpty'],
  [/^is too long$/, 'predicate.tooLong'],
];

/** The same, with a number in them, said in its plural form. */
const COUNTED_PREDICATES: [RegExp, PluralKey][] = [
  [/^must be at most (\d+) characters?$/, 'predicate.atMostCharacters'],
  [/^needs at least (\d+) characters?$/, 'predicate.needsAtLeastCharacters'],
  [/^needs at most (\d+) characters?$/, 'predicate.needsAtMostCharacters'],
  [/^must be (\d+) digits?$/, 'predicate.digits'],
];

function predicateOf(message: string): string {
  for (const [pattern, key] of PREDICATES) if (pattern.test(message)) return t(key);
  for (const [pattern, key] of COUNTED_PREDICATES) {
    const count = pattern.exec(message)?.[1];
    if (count !== undefined) return tn(key, Number(count));
  }
  return message;
}

/**
 * A field's problem as a sentence: alone, "needs a digit" → "Needs a digit."; of a label, "is required" under
 * "Password" → "Enter your password.", "needs a digit" → "Password needs a digit.", and a message that is not a
 * predicate after a colon ("at least one redirect URI" → "The redirect URIs: at least one redirect URI.").
 */
function sentenceOf(label: string | undefined, message: string): string {
  const trimmed = message.trim();
  if (/e-mail address$/.test(trimmed)) return t('field.email');
  const predicate = predicateOf(trimmed);
  let text: string;
  if (label === undefined) text = predicate.charAt(0).toUpperCase() + predicate.slice(1);
  else if (trimmed === 'is required') {
    return t(/^code\b/i.test(label) ? 'field.requiredCode' : 'field.required', { noun: nounOf(label) });
  } else text = t(/^(must|is|are|needs) /.test(trimmed) ? 'field.predicate' : 'field.note', { label, predicate });
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A label inside a sentence: English lowers its first letter ("your password"); German keeps a noun's capital. */
function nounOf(label: string): string {
  return currentLanguage() === 'en' ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

/** The reader's locale in the language in use: their browser's when it is that language ("en-GB"), else the language. */
export function readerLocale(): string {
  const language = currentLanguage();
  const browser = (globalThis as { navigator?: { languages: readonly string[] } }).navigator?.languages ?? [];
  return browser.find((tag) => tag.toLowerCase().split('-')[0] === language) ?? language;
}

/** One formatter per locale: a list of a thousand users formats a thousand dates. */
const DATE_TIMES = new Map<string, Intl.DateTimeFormat>();

/** "25 Nov 2026, 18:20": an ISO instant in the reader's locale and time zone (the text itself when it is none). */
export function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const locale = readerLocale();
  let format = DATE_TIMES.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    DATE_TIMES.set(locale, format);
  }
  return format.format(date);
}
