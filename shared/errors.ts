/**
 * The error catalogue: every stable `code` a client may see, listed once with
 * its HTTP status (docs/http.md#errors). Tests assert on these codes.
 */
export const ERRORS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  TENANT_REQUIRED: 400,
  PASSWORD_TOO_COMMON: 400,
  /** A new passkey's answer that does not verify: its challenge expired or was used, another site's, or altered. */
  PASSKEY_NOT_VERIFIED: 400,
  /** OAuth: the code or refresh token is unknown, used, expired, another client's, or fails its PKCE check. */
  INVALID_GRANT: 400,
  /** A sign-in provider's issuer whose discovery document cannot be read, names another issuer, or is not public. */
  PROVIDER_DISCOVERY_FAILED: 400,
  /** A webhook endpoint URL that is not https, carries credentials, or names a host that is not public. */
  WEBHOOK_URL_NOT_ALLOWED: 400,
  /** OAuth: the client may not use this grant type. */
  UNAUTHORIZED_CLIENT: 400,
  /** OAuth: a grant type this provider does not implement. */
  UNSUPPORTED_GRANT_TYPE: 400,
  /** OAuth (authorize): the scopes asked for are not acceptable (no `openid`). */
  INVALID_SCOPE: 400,
  /** OAuth (authorize): a response type other than `code`. */
  UNSUPPORTED_RESPONSE_TYPE: 400,
  /** OAuth (authorize): a request object (`request`), which this provider does not take. */
  REQUEST_NOT_SUPPORTED: 400,
  /** OAuth (authorize): a request object by reference (`request_uri`), which this provider does not take. */
  REQUEST_URI_NOT_SUPPORTED: 400,
  UNAUTHENTICATED: 401,
  /** OAuth (token, revocation): the client's authentication failed or is missing (RFC 6749 5.2). */
  INVALID_CLIENT: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_CODE: 401,
  REFRESH_TOKEN_INVALID: 401,
  REFRESH_TOKEN_REUSED: 401,
  SESSION_REVOKED: 401,
  /** A sign-in provider's answer that did not verify (state, code, ID token), or a result unknown, used or expired. */
  PROVIDER_SIGN_IN_FAILED: 401,
  FORBIDDEN: 403,
  REAUTHENTICATION_REQUIRED: 403,
  /** A third-party OpenID Connect client without the user's consent to what it asks. */
  CONSENT_REQUIRED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  TENANT_MISMATCH: 403,
  TOTP_NOT_ALLOWED: 403,
  TOTP_REMOVAL_NOT_ALLOWED: 403,
  /** The tenant has passkeys off (or the deployment has no hosted pages, whose host passkeys are bound to). */
  PASSKEYS_NOT_ALLOWED: 403,
  LOGIN_MODE_NOT_ALLOWED: 403,
  /** The user stopped at the provider (it answered `access_denied`): nothing happened. */
  PROVIDER_SIGN_IN_CANCELLED: 403,
  /** The provider did not call the account's address verified: it can neither make an account nor find one. */
  PROVIDER_EMAIL_NOT_VERIFIED: 403,
  SIGNUP_NOT_ALLOWED: 403,
  ACCOUNT_DISABLED: 403,
  ACCOUNT_INACTIVE: 403,
  NOT_FOUND: 404,
  TENANT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  ALREADY_EXISTS: 409,
  TOTP_ALREADY_ENABLED: 409,
  /** The account holds as many passkeys as it may (20). */
  PASSKEY_LIMIT_REACHED: 409,
  /** The provider's account is linked to another user, or this user already has one of this provider linked. */
  PROVIDER_ALREADY_LINKED: 409,
  /** Unlinking would leave the account no way to sign in. */
  LAST_SIGN_IN_METHOD: 409,
  /** The tenant has as many sign-in providers as it may (10). */
  PROVIDER_LIMIT_REACHED: 409,
  /** The tenant has as many webhook endpoints as it may (20). */
  WEBHOOK_LIMIT_REACHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_ATTEMPTS: 429,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** One invalid field: `path` is dotted (`roles.0.name`), `body` for the body as a whole. */
export interface FieldError {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  detail?: string;
  errors?: FieldError[];
  /** Extra response headers, such as `Retry-After` on 429. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * An error we mean to show the client. Anything thrown that is not an AppError
 * is treated as our fault and answered with a bare 500 INTERNAL.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.detail ?? code, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERRORS[code];
    this.detail = options.detail;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** `throw fail('TENANT_MISMATCH')`: the one way to stop a request with a client error. */
export function fail(code: ErrorCode, options?: AppErrorOptions | string): AppError {
  return new AppError(code, typeof options === 'string' ? { detail: options } : options);
}

/**
 * `throw failField('password', 'is required')`: a client error about one field of the request, its detail
 * `password: is required` and its one `errors` entry saying the same (VALIDATION_FAILED unless `code` says otherwise).
 */
export function failField(path: string, message: string, code: ErrorCode = 'VALIDATION_FAILED'): AppError {
  return fail(code, { detail: `${path}: ${message}`, errors: [{ path, message }] });
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
