import * as v from 'valibot';

/**
 * The OpenID Connect protocol's requests and answers (README.md). The token and revocation endpoints take
 * form bodies whose unknown parameters are ignored (RFC 6749 3.2), so their schemas are loose `object`s of
 * optional strings: what is required depends on the grant, and is said in OAuth's words by the endpoint.
 */

const Param = v.optional(v.pipe(v.string(), v.maxLength(4096, 'is too long')));

export const TokenRequest = v.object({
  grant_type: Param,
  code: Param,
  redirect_uri: Param,
  code_verifier: Param,
  client_id: Param,
  client_secret: Param,
  refresh_token: Param,
  scope: Param,
});
export type TokenRequest = v.InferOutput<typeof TokenRequest>;

/** RFC 6749 5.1, with OIDC Core 3.1.3.3's `id_token`. */
export const TokenResponse = v.object({
  access_token: v.string(),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(v.number(), v.integer()),
  scope: v.string(),
  refresh_token: v.optional(v.string()),
  id_token: v.optional(v.string()),
});

export const RevocationRequest = v.object({
  token: Param,
  token_type_hint: Param,
  client_id: Param,
  client_secret: Param,
});
export type RevocationRequest = v.InferOutput<typeof RevocationRequest>;

/** OIDC Core 5.3.2: `sub` always, the rest by the access token's scopes. */
export const UserinfoResponse = v.object({
  sub: v.string(),
  email: v.optional(v.string()),
  email_verified: v.optional(v.boolean()),
  name: v.optional(v.string()),
  given_name: v.optional(v.string()),
  family_name: v.optional(v.string()),
  phone_number: v.optional(v.string()),
  /** With the scope `roles`: the user's effective role names. */
  roles: v.optional(v.array(v.string())),
});

export const OpenidConfigurationDocument = v.object({
  issuer: v.string(),
  authorization_endpoint: v.string(),
  token_endpoint: v.string(),
  userinfo_endpoint: v.string(),
  jwks_uri: v.string(),
  revocation_endpoint: v.string(),
  end_session_endpoint: v.string(),
  scopes_supported: v.array(v.string()),
  response_types_supported: v.array(v.string()),
  response_modes_supported: v.array(v.string()),
  grant_types_supported: v.array(v.string()),
  subject_types_supported: v.array(v.string()),
  id_token_signing_alg_values_supported: v.array(v.string()),
  token_endpoint_auth_methods_supported: v.array(v.string()),
  revocation_endpoint_auth_methods_supported: v.array(v.string()),
  code_challenge_methods_supported: v.array(v.string()),
  prompt_values_supported: v.array(v.string()),
  claims_supported: v.array(v.string()),
  claims_parameter_supported: v.boolean(),
  request_parameter_supported: v.boolean(),
  request_uri_parameter_supported: v.boolean(),
  authorization_response_iss_parameter_supported: v.boolean(),
});

/** Any string: an id that names no pending request is 404, never a validation error. */
export const AuthorizationRequestIdParams = v.object({ requestId: v.string() });
export const LogoutIdParams = v.object({ logoutId: v.string() });

export const AuthorizationRequestResponse = v.object({
  requestId: v.string(),
  client: v.object({ clientId: v.string(), name: v.string(), firstParty: v.boolean() }),
  scopes: v.array(v.string()),
  prompt: v.nullable(v.picklist(['none', 'login', 'consent'])),
  maxAge: v.nullable(v.pipe(v.number(), v.integer())),
  loginHint: v.nullable(v.string()),
  expiresAt: v.string(),
});

export const CompleteAuthorizationRequest = v.strictObject({
  consent: v.optional(v.picklist(['GRANTED', 'DENIED'], 'must be GRANTED or DENIED')),
});

/** The errors the sign-in page may send back to a client for the user (OIDC Core 3.1.2.6, RFC 6749 4.1.2.1). */
export const CANCEL_ERRORS = ['login_required', 'consent_required', 'interaction_required', 'access_denied'] as const;
export type CancelError = (typeof CANCEL_ERRORS)[number];

export const CancelAuthorizationRequest = v.strictObject({
  error: v.picklist(CANCEL_ERRORS, `must be one of ${CANCEL_ERRORS.join(', ')}`),
});

/** Where the page sends the browser next: the client's redirect URI with the code (or an error), state and iss. */
export const RedirectResponse = v.object({ redirectTo: v.string() });
export const LogoutRedirectResponse = v.object({ redirectTo: v.nullable(v.string()) });
