/**
 * @identity/client: the identity service's client for browsers and Node 20+.
 * See README.md for a login example and the whole surface.
 */
export {
  type AdminApi,
  type AdminMerchantApi,
  type AdminOidcClientsApi,
  type AdminRolesApi,
  type AdminSignInProvidersApi,
  type AdminUsersApi,
  type AdminWebhooksApi,
  type FetchInit,
  type FetchLike,
  type FetchResponse,
  type IdentitiesApi,
  IdentityClient,
  type IdentityClientOptions,
  type MeApi,
  type OidcApi,
  type PasskeysApi,
  REFRESH_COOKIE,
  REFRESH_TOKEN_LIFETIME_MS,
} from './client.js';
export {
  type CookieOptions,
  type CookieStore,
  defaultCookieStore,
  documentCookieStore,
  memoryCookieStore,
} from './cookies.js';
export { ApiError, CLIENT_ERROR_CODES, type FieldError, SERVICE_ERROR_CODES, type ServiceErrorCode } from './errors.js';
export {
  type ChangePasswordForm,
  type FormResult,
  formSchemas,
  type MerchantColoursForm,
  type ProfileForm,
  validateForm,
} from './form-schemas.js';
export { pageUsers, USERS_PAGE_SIZE, type UserPage } from './pager.js';
export type { PasskeySupport } from './passkeys.js';
export { authorityOf, hasRoles, mayActOn, mayGrant } from './roles.js';
export type * from './types.js';
export { WEBHOOK_EVENT_TYPES } from './webhooks.js';
