import * as v from 'valibot';
import type { FieldError } from './errors.js';

/**
 * The client-side form rules of the product brief, as valibot schemas that
 * accept and refuse exactly what the service's request schemas do
 * (test/client/form-schemas.test.ts holds them side by side on a table of
 * inputs, so the two cannot drift). They are copies, not imports: the client
 * package is published on its own and must not reach into the server's code.
 */

const Name = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'needs at least 1 character'),
  v.maxLength(256, 'must be at most 256 characters'),
);

/**
 * A phone number: E.164 (`+442079460000`) or a national format with spaces, dashes and parentheses
 * (`+44 (0)20 7946 0000`, `(202) 555-0143`): 5 to 15 digits, a `+` only in front, one separator at most between
 * two digits or groups, parentheses around digits only; no letters or other signs. Trimmed.
 */
const phone = v.pipe(
  v.string('must be a string'),
  v.maxLength(64, 'must be at most 64 characters'),
  v.trim(),
  v.regex(
    /^(?=(?:[^0-9]*[0-9]){5,15}[^0-9]*$)\+?(?:[0-9]|\([0-9]{1,6}\))(?:[ -]?(?:[0-9]|\([0-9]{1,6}\)))*$/u,
    'must be 5 to 15 digits, with spaces, dashes or parentheses if you like, and + only in front',
  ),
);

/** Profile: first and last name 1+ characters, a phone number (null clears it). Every field optional, as in PATCH. */
const profile = v.strictObject({
  firstName: v.optional(Name),
  lastName: v.optional(Name),
  phone: v.optional(v.nullable(phone)),
});

/**
 * A new password: 8–128 characters (Unicode code points, as NIST 800-63B
 * counts them) with a letter and a digit of any script. Whether it is one of
 * the common passwords only the service can tell (400 PASSWORD_TOO_COMMON).
 */
const newPassword = v.pipe(
  v.string('must be a string'),
  v.minCodePoints(8, 'needs at least 8 characters'),
  v.maxCodePoints(128, 'needs at most 128 characters'),
  v.regex(/\p{L}/u, 'needs a letter'),
  v.regex(/\p{Nd}/u, 'needs a digit'),
);

const changePassword = v.strictObject({
  currentPassword: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'is required'),
    v.maxLength(128, 'must be at most 128 characters'),
  ),
  newPassword,
  /** A TOTP or backup code; required by the service when TOTP is on. */
  totpCode: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.minLength(1, 'is required'),
      v.maxLength(32, 'must be at most 32 characters'),
    ),
  ),
});

/** A code from an authenticator app (or an e-mail): exactly 6 digits. */
const totpCode = v.pipe(v.string('must be a string'), v.trim(), v.regex(/^\d{6}$/, 'must be 6 digits'));

const HexColour = v.pipe(v.string('must be a string'), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour'));

/** The merchant's brand colours, light and dark: `#rrggbb`, or null to clear (the dark pair then follows the light). */
const merchantColours = v.strictObject({
  primaryColor: v.optional(v.nullable(HexColour)),
  secondaryColor: v.optional(v.nullable(HexColour)),
  darkPrimaryColor: v.optional(v.nullable(HexColour)),
  darkSecondaryColor: v.optional(v.nullable(HexColour)),
});

/**
 * A merchant role: a name of 1–64 letters, digits, _ or -, starting with a letter; a whole priority from 2 to
 * 1000 (0 and 1 are SUPER_ADMIN and ADMIN; a lower number is more authority); an optional description.
 */
const role = v.strictObject({
  name: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be 1-64 letters, digits, _ or -, starting with a letter'),
  ),
  priority: v.pipe(
    v.number('must be a number'),
    v.integer('must be an integer'),
    v.minValue(2, 'must be 2 or more (0 and 1 are SUPER_ADMIN and ADMIN)'),
    v.maxValue(1000, 'must be at most 1000'),
  ),
  description: v.optional(
    v.nullable(v.pipe(v.string('must be a string'), v.maxLength(256, 'must be at most 256 characters'))),
  ),
});

/**
 * The WHATWG URL parser, which browsers and Node 18+ both have; the package is typed for neither, so only what
 * the redirect URI rule reads is declared here.
 */
interface ParsedUrl {
  href: string;
  protocol: string;
  hostname: string;
  username: string;
  password: string;
}
declare const URL: new (input: string) => ParsedUrl;

/** Hosts a plain-http redirect may name: the machine itself (loopback redirects of native apps). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A native app's private-use scheme: reverse domain notation, hence at least one dot. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/;

/**
 * Why `value` cannot be a redirect URI, or undefined: redirect URIs are compared exactly, so they are absolute,
 * written as browsers serialize them, with no fragment, wildcard or user information; https, loopback http, or a
 * native app's private-use scheme.
 */
function redirectUriProblem(value: string): string | undefined {
  if (value.includes('#')) return 'must not have a fragment';
  if (value.includes('*')) return 'must be an exact URL, without wildcards';
  if (/\s/.test(value)) return 'must not contain spaces';
  let url: ParsedUrl;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry user information';
  if (url.href !== value) return `must be written in its standard form: ${url.href}`;
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname === '' ? 'must name a host' : undefined;
  if (scheme === 'http') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? undefined
      : 'must use https (http only for localhost, 127.0.0.1 or [::1])';
  }
  if (PRIVATE_USE_SCHEME.test(scheme)) return undefined;
  return 'must use https, loopback http, or a native app scheme with a dot (com.example.app:/callback)';
}

const RedirectUri = v.pipe(
  v.string('must be a string'),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.check(
    (value) => redirectUriProblem(value) === undefined,
    (issue) => redirectUriProblem(String(issue.input)) ?? 'is not a redirect URI',
  ),
);

const unique = (values: string[]) => new Set(values).size === values.length;

/** A sign-in client's addresses: 1–10 redirect URIs and up to 10 sign-out ones, each once. */
const oidcClientRedirects = v.object({
  redirectUris: v.pipe(
    v.array(RedirectUri, 'must be an array of URLs'),
    v.minLength(1, 'at least one redirect URI'),
    v.maxLength(10, 'at most 10 redirect URIs'),
    v.check(unique, 'must not repeat a URI'),
  ),
  postLogoutRedirectUris: v.optional(
    v.pipe(
      v.array(RedirectUri, 'must be an array of URLs'),
      v.maxLength(10, 'at most 10 post-logout redirect URIs'),
      v.check(unique, 'must not repeat a URI'),
    ),
  ),
});

/** An e-mail address as the service takes it: trimmed, compared lower-cased, at most 256 characters. */
const email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(256, 'must be at most 256 characters'),
  v.email('must be an e-mail address'),
);

export const formSchemas = {
  email,
  profile,
  phone,
  changePassword,
  newPassword,
  totpCode,
  merchantColours,
  role,
  oidcClientRedirects,
} as const;

export type ProfileForm = v.InferOutput<typeof profile>;
export type ChangePasswordForm = v.InferOutput<typeof changePassword>;
export type MerchantColoursForm = v.InferOutput<typeof merchantColours>;

export type FormResult<T> = { success: true; output: T } | { success: false; errors: FieldError[] };

/**
 * Checks form input against one of `formSchemas` (or any valibot schema),
 * answering field errors in the shape of the service's 400 `errors[]`, so a
 * form shows local and remote errors the same way. Works without importing
 * valibot yourself (the bundle carries it).
 */
export function validateForm<S extends v.GenericSchema>(schema: S, input: unknown): FormResult<v.InferOutput<S>> {
  const result = v.safeParse(schema, input);
  if (result.success) return { success: true, output: result.output };
  return {
    success: false,
    errors: result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })),
  };
}
