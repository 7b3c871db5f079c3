import * as v from 'valibot';

/** E-mail addresses are trimmed and compared case-insensitively (CONTRACT.md, Details): stored lower-cased. */
export const Email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(256, 'must be at most 256 characters'),
  v.email('must be an e-mail address'),
);
