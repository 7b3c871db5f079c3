import type { AppError, ErrorCode } from '../errors.ts';
import type { ErrorAnswer } from './handler.ts';

/**
 * OAuth's error codes (RFC 6749 5.2, RFC 6750 3.1, RFC 7009 2.2.1) for the service's own, on the protocol
 * endpoints (route rows with `oauth: true`). A code without an OAuth name is a malformed request when it
 * is the client's fault, and the server's otherwise.
 */
const OAUTH_ERROR: Partial<Record<ErrorCode, string>> = {
  INVALID_CLIENT: 'invalid_client',
  INVALID_GRANT: 'invalid_grant',
  UNAUTHORIZED_CLIENT: 'unauthorized_client',
  UNSUPPORTED_GRANT_TYPE: 'unsupported_grant_type',
  INVALID_SCOPE: 'invalid_scope',
  UNSUPPORTED_RESPONSE_TYPE: 'unsupported_response_type',
  REQUEST_NOT_SUPPORTED: 'request_not_supported',
  REQUEST_URI_NOT_SUPPORTED: 'request_uri_not_supported',
  UNAUTHENTICATED: 'invalid_token',
  SESSION_REVOKED: 'invalid_token',
  TOO_MANY_ATTEMPTS: 'temporarily_unavailable',
  RATE_LIMITED: 'temporarily_unavailable',
  UNAVAILABLE: 'temporarily_unavailable',
  INTERNAL: 'server_error',
};

/** The OAuth error name of one of our codes. */
export function oauthErrorOf(error: AppError): string {
  return OAUTH_ERROR[error.code] ?? (error.status >= 500 ? 'server_error' : 'invalid_request');
}

/**
 * `{ error, error_description }`: in a JSON body (token, revocation, userinfo) or in the query of a redirect to
 * the client (authorize). The description keeps only the characters RFC 6749 allows in it.
 */
export function oauthErrorFields(error: AppError): Record<string, string> {
  const fields: Record<string, string> = { error: oauthErrorOf(error) };
  if (error.detail) fields.error_description = error.detail.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, ' ');
  return fields;
}

/** The JSON body every OAuth client library reads. */
export function oauthErrorAnswer(error: AppError): ErrorAnswer {
  return { contentType: 'application/json; charset=utf-8', body: oauthErrorFields(error) };
}
