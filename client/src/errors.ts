/** One field of a 400 VALIDATION_FAILED answer. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * Codes the client makes itself, when there is no problem+json answer to
 * take a code from. Every other code is the service's (docs/http.md#errors).
 */
export const CLIENT_ERROR_CODES = {
  /** The request never got an answer (offline, DNS, CORS refusal, connection reset); `status` is 0. */
  NETWORK_ERROR: 'NETWORK_ERROR',
  /** An answer that is not the JSON the contract promises (an HTML error page from a proxy, say). */
  INVALID_RESPONSE: 'INVALID_RESPONSE',
  /** A refresh was needed, but no refresh token is stored; `status` is 401, no request was sent. */
  NO_REFRESH_TOKEN: 'NO_REFRESH_TOKEN',
  /** This browser (or Node) has no WebAuthn: no passkey can be made or used here; `status` is 0. */
  PASSKEYS_UNSUPPORTED: 'PASSKEYS_UNSUPPORTED',
  /** The person closed the passkey prompt, it timed out, or another ceremony replaced it: nothing to report. */
  PASSKEY_CANCELLED: 'PASSKEY_CANCELLED',
  /** Adding a passkey: the authenticator already holds one of this account. */
  PASSKEY_ALREADY_ON_DEVICE: 'PASSKEY_ALREADY_ON_DEVICE',
  /** The platform refused the ceremony for another reason; `detail` says its words. */
  PASSKEY_FAILED: 'PASSKEY_FAILED',
} as const;

/**
 * The service's problem codes (shared/errors.ts), for comparing
 * `ApiError.code` without typos. REAUTHENTICATION_REQUIRED (403) answers
 * e-mail change, TOTP init/verify/disable and API key creation when the
 * session's password or e-mail code is more than 10 minutes old: call
 * `reauthenticate()`, then the same call again. It is a 403 so that no
 * refresh is tried: a refresh never renews it. CONSENT_REQUIRED (403) answers
 * `oidc.completeAuthorization` when a third-party client needs the user's
 * consent: ask, then complete with `{ consent: 'GRANTED' }` or `'DENIED'`.
 */
export const SERVICE_ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'TENANT_REQUIRED',
  'PASSWORD_TOO_COMMON',
  'PASSKEY_NOT_VERIFIED',
  'PROVIDER_DISCOVERY_FAILED',
  'WEBHOOK_URL_NOT_ALLOWED',
  'INVALID_GRANT',
  'UNAUTHORIZED_CLIENT',
  'UNSUPPORTED_GRANT_TYPE',
  'INVALID_SCOPE',
  'UNSUPPORTED_RESPONSE_TYPE',
  'REQUEST_NOT_SUPPORTED',
  'REQUEST_URI_NOT_SUPPORTED',
  'UNAUTHENTICATED',
  'INVALID_CLIENT',
  'INVALID_CREDENTIALS',
  'INVALID_CODE',
  'REFRESH_TOKEN_INVALID',
  'REFRESH_TOKEN_REUSED',
  'SESSION_REVOKED',
  'PROVIDER_SIGN_IN_FAILED',
  'FORBIDDEN',
  'REAUTHENTICATION_REQUIRED',
  'CONSENT_REQUIRED',
  'ORIGIN_NOT_ALLOWED',
  'TENANT_MISMATCH',
  'TOTP_NOT_ALLOWED',
  'TOTP_REMOVAL_NOT_ALLOWED',
  'PROVIDER_SIGN_IN_CANCELLED',
  'PROVIDER_EMAIL_NOT_VERIFIED',
  'PASSKEYS_NOT_ALLOWED',
  'LOGIN_MODE_NOT_ALLOWED',
  'SIGNUP_NOT_ALLOWED',
  'ACCOUNT_DISABLED',
  'ACCOUNT_INACTIVE',
  'NOT_FOUND',
  'TENANT_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'ALREADY_EXISTS',
  'TOTP_ALREADY_ENABLED',
  'PASSKEY_LIMIT_REACHED',
  'PROVIDER_ALREADY_LINKED',
  'LAST_SIGN_IN_METHOD',
  'PROVIDER_LIMIT_REACHED',
  'WEBHOOK_LIMIT_REACHED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'TOO_MANY_ATTEMPTS',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;

export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

/**
 * Every failure of a client call: the service's RFC 9457 problem details
 * (`status`, `code`, `detail`, `errors`), or one of CLIENT_ERROR_CODES.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  /** Seconds to wait, from the answer's `Retry-After` (429 lockouts and rate limits, 503): "try again in 14 minutes". */
  readonly retryAfter: number | undefined;

  constructor(init: {
    status: number;
    code: string;
    detail?: string | undefined;
    errors?: FieldError[];
    retryAfter?: number | undefined;
  }) {
    super(init.detail ? `${init.code}: ${init.detail}` : `${init.code} (HTTP ${init.status})`);
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.retryAfter = init.retryAfter;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) =>
    isRecord(item) && typeof item.path === 'string' && typeof item.message === 'string'
      ? [{ path: item.path, message: item.message }]
      : [],
  );
}

/** The ApiError of an error answer: its problem+json when it has one, INVALID_RESPONSE otherwise. */
export function errorFromAnswer(status: number, body: unknown, retryAfter?: number): ApiError {
  if (isRecord(body) && typeof body.code === 'string') {
    return new ApiError({
      status,
      code: body.code,
      detail: typeof body.detail === 'string' ? body.detail : undefined,
      errors: fieldErrors(body.errors),
      retryAfter,
    });
  }
  return new ApiError({
    status,
    code: CLIENT_ERROR_CODES.INVALID_RESPONSE,
    detail: `HTTP ${status} without problem details`,
  });
}
