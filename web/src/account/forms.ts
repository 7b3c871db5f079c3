import { fieldProblems } from '../messages.ts';
import { ApiError, type FieldError } from '../sdk.ts';

/**
 * A form's own check failing, as the service's 400 would: one ApiError
 * VALIDATION_FAILED with its field errors, so `<Problem>` and the fields show
 * local and remote problems the same way.
 */
export function localValidationError(errors: FieldError[]): ApiError {
  return new ApiError({ status: 400, code: 'VALIDATION_FAILED', detail: 'checked in the page', errors });
}

/** Field problems as sentences: "needs a digit" → "Needs a digit." */
export function fieldSentences(error: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(fieldProblems(error)).map(([path, message]) => [path, sentence(message)]));
}

function sentence(message: string): string {
  const trimmed = message.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "25 Nov 2026, 18:20", in the reader's locale and time zone. */
export function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}
