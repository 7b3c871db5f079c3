import type { Deps } from '../deps.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import type { Merchant } from '../tenancy/types.ts';
import { issuerOf } from './issuer.ts';
import { SUPPORTED_SCOPES } from './scopes.ts';

/**
 * The provider's metadata (OpenID Connect Discovery 1.0 section 3, RFC 8414 section 2): every member a
 * relying party needs, and nothing claimed that is not implemented. Served at `<issuer>/api/v1/oidc/openid-configuration`
 * and, through the edge, at `<issuer>/.well-known/openid-configuration` and `/.well-known/oauth-authorization-server`.
 */
export function openidConfiguration(deps: Pick<Deps, 'config'>, tenant: Merchant) {
  const issuer = issuerOf(deps.config, tenant);
  const clientAuth = ['client_secret_basic', 'client_secret_post', 'none'];
  return {
    issuer: issuer.url,
    authorization_endpoint: issuer.endpoint('/oidc/authorize'),
    token_endpoint: issuer.endpoint('/oidc/token'),
    userinfo_endpoint: issuer.endpoint('/oidc/userinfo'),
    jwks_uri: issuer.endpoint('/.well-known/jwks.json'),
    revocation_endpoint: issuer.endpoint('/oidc/revoke'),
    end_session_endpoint: issuer.endpoint('/oidc/end-session'),
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256', 'RS256'],
    token_endpoint_auth_methods_supported: clientAuth,
    revocation_endpoint_auth_methods_supported: clientAuth,
    code_challenge_methods_supported: ['S256'],
    prompt_values_supported: ['none', 'login', 'consent'],
    ui_locales_supported: [...LANGUAGES],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'amr',
      'sid',
      'azp',
      'email',
      'email_verified',
      'name',
      'given_name',
      'family_name',
      'phone_number',
      'roles',
    ],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    authorization_response_iss_parameter_supported: true,
  };
}
