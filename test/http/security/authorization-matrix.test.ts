import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantRouteList } from '#functions/plants/routes.ts';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { issueAccessToken } from '#shared/tokens/access-token.ts';
import { storedPlants } from '#test/http/plants/helpers.ts';
import { adminApi, anEmail, anInvitedUser, aRoleName, aStoredUser } from '#test/support/admin.ts';
import { aUser, latestCodeTo, mailsTo, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, bearer, post } from '#test/support/http.ts';
import { issuerOf, localhostFetch } from '#test/support/oidc.ts';
import {
  addPasskeyThroughApi,
  aStoredPasskey,
  hostedCeremony,
  passkeyReauthBody,
  passkeySignInBody,
} from '#test/support/passkeys.ts';
import { useLocalStack } from '#test/support/server.ts';
import { aPagePkce, signInProviderApi } from '#test/support/sign-in-providers.ts';
import { register } from '#test/support/soft-authenticator.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { aStoredWebhookEvent, LOOPBACK_HOOK } from '#test/support/webhooks.ts';

/**
 * THE authorization matrix: every route of the identity
 * service's route list and of the plant store's × eleven kinds of caller,
 * each cell with its expected answer, written out below as a table. A route
 * without a row (or a row without a route) fails the first test.
 *
 * Each row sends one valid request (its recipe), so a cell's answer depends
 * on the credential alone: admitted callers get the recipe's success status;
 * refused ones get the problem `code` of docs/http.md#errors (the plant store: its
 * own `{ error, message }` body). Broken tokens are all the SUPER_ADMIN's
 * (expired, its logged-out second session, tampered, `alg: none`, HS256
 * keyed with the published public key): they would be admitted if they were
 * whole. Routes open to all answer every credential as they answer anonymous
 * callers. A refused request must also change nothing an admin of either
 * tenant can read, nor store a plant.
 *
 * Authority rules beyond these columns (another tenant's ids in paths and
 * bodies) are in test/http/admin/cross-tenant-ids.test.ts.
 */

const api = useLocalStack();
const { call, aSuperAdmin, roleId, grant, aRole } = adminApi(() => api.url);

// ------------------------------------------------------------------ the table

const COLUMNS = [
  'anonymous', // tenant headers, no credential
  'otherTenant', // another tenant's SUPER_ADMIN token, with this tenant's headers
  'plainUser', // a signed-in user holding DEFAULT only
  'admin', // a signed-in ADMIN
  'superAdmin', // a signed-in SUPER_ADMIN
  'apiKey', // an admin API key of this tenant, in X-Api-Key
  'expired', // a SUPER_ADMIN token, well signed, past its exp
  'revoked', // a SUPER_ADMIN token of a logged-out session
  'tampered', // a SUPER_ADMIN token with a claim changed, its signature kept
  'algNone', // the same claims, `alg: none`, no signature
  'hs256', // the same claims, HS256 keyed with the signing key's public JWK
] as const;
type Column = (typeof COLUMNS)[number];

/** A number is the success status of the row's recipe; a string, `<status> <problem code>`. */
type Cell = number | string;

const UNAUTHENT = '401 UNAUTHENTICATED';
const REVOKED = '401 SESSION_REVOKED';
const MISMATCH = '403 TENANT_MISMATCH';
const FORBIDDEN = '403 FORBIDDEN';
/** The `$default` route: an unmatched method and path is unknown to every caller, whatever its credential. */
const NOT_FOUND = '404 NOT_FOUND';
/**
 * userinfo takes an OpenID Connect access token only (its recipe sends one): every API token a column sends
 * instead is refused, in OAuth's words (`{ error }`, RFC 6750).
 */
const BAD_TOKEN = '401 oauth:invalid_token';
/** The plant store's own error body: `{ error: 401, message }`, application/json. */
const PLANT_401 = '401 {error,message}';
const PLANT_404 = '404 {error,message}';

// biome-ignore format: a table reads best aligned
const identityMatrix: Record<string, Cell[]> = {
  //                        anonymous  otherTenant  plainUser  admin  superAdmin  apiKey     expired    revoked  tampered   algNone    hs256
  health:                  [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  getOpenapi:              [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  preflight:               [204,       204,         204,       204,   204,        204,       204,       204,     204,       204,       204],
  getJwks:                 [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  getOpenidConfiguration:  [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  discovery:               [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  lookupInvitation:        [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  signup:                  [201,       201,         201,       201,   201,        201,       201,       201,     201,       201,       201],
  signupVerify:            [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  login:                   [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  loginVerify:             [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  refresh:                 [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  forgotPassword:          [202,       202,         202,       202,   202,        202,       202,       202,     202,       202,       202],
  resetPassword:           [204,       204,         204,       204,   204,        204,       204,       204,     204,       204,       204],
  logout:                  [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  reauthenticate:          [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  getMe:                   [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  updateMe:                [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  changePassword:          [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  startEmailChange:        [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  verifyEmailChange:       [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  initTotp:                [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  verifyTotp:              [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  disableTotp:             [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listMySessions:          [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  revokeMySession:         [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  revokeAllSessions:       [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listMyActivity:          [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  getMyMerchant:           [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  updateMerchant:          [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listApiKeys:             [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  createApiKey:            [UNAUTHENT, MISMATCH,    FORBIDDEN, 201,   201,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  revokeApiKey:            [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listUsers:               [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  inviteUser:              [UNAUTHENT, MISMATCH,    FORBIDDEN, 201,   201,        201,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  resendInvitation:        [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  sendPasswordReset:       [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  getUser:                 [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  deleteUser:              [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  setUserStatus:           [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  resetUserTotp:           [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  clearMailSuppression:    [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listUserDevices:         [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listUserActivity:        [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listRoles:               [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  createRole:              [UNAUTHENT, MISMATCH,    FORBIDDEN, 201,   201,        201,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  deleteRole:              [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  assignRole:              [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  revokeRole:              [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listOidcClients:         [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  createOidcClient:        [UNAUTHENT, MISMATCH,    FORBIDDEN, 201,   201,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  getOidcClient:           [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  updateOidcClient:        [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  deleteOidcClient:        [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  rotateOidcClientSecret:  [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  // The OpenID Provider (on the tenant's issuer host): its protocol endpoints take no API credential, the client
  // authenticates itself; completing a sign-in is the signed-in user's; userinfo takes an OIDC access token only.
  getOidcConfiguration:    [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  authorize:               [302,       302,         302,       302,   302,        302,       302,       302,     302,       302,       302],
  getAuthorizationRequest: [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  completeAuthorization:   [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  cancelAuthorization:     [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  oidcToken:               [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  oidcUserinfo:            [200,       BAD_TOKEN,   BAD_TOKEN, BAD_TOKEN, BAD_TOKEN, 200,     BAD_TOKEN, BAD_TOKEN, BAD_TOKEN, BAD_TOKEN, BAD_TOKEN],
  oidcUserinfoPost:        [200,       BAD_TOKEN,   BAD_TOKEN, BAD_TOKEN, BAD_TOKEN, 200,     BAD_TOKEN, BAD_TOKEN, BAD_TOKEN, BAD_TOKEN, BAD_TOKEN],
  oidcRevoke:              [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  endSession:              [302,       302,         302,       302,   302,        302,       302,       302,     302,       302,       302],
  completeLogout:          [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  // Sign-in providers: managed by a signed-in admin only (never an API key); the sign-in is open to all (its result is
  // the credential); linked providers are the user's own, or an admin's to read.
  listSignInProviders:     [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  createSignInProvider:    [UNAUTHENT, MISMATCH,    FORBIDDEN, 201,   201,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  getSignInProvider:       [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  updateSignInProvider:    [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  deleteSignInProvider:    [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  startProviderSignIn:     [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  providerCallback:        [302,       302,         302,       302,   302,        302,       302,       302,     302,       302,       302],
  providerCallbackPost:    [302,       302,         302,       302,   302,        302,       302,       302,     302,       302,       302],
  signInWithProvider:      [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  reauthenticateWithProvider: [UNAUTHENT, MISMATCH, 204,     204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listMyIdentities:        [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  startIdentityLink:       [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  linkIdentity:            [UNAUTHENT, MISMATCH,    201,       201,   201,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  unlinkMyIdentity:        [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listUserIdentities:      [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  // Passkeys: signing in with one is open to all (its answer is the credential); the rest is the user's own, or an admin's.
  passkeySignInOptions:    [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  signInWithPasskey:       [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  passkeyReauthOptions:    [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  reauthenticateWithPasskey: [UNAUTHENT, MISMATCH,  204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listMyPasskeys:          [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  passkeyRegistrationOptions: [UNAUTHENT, MISMATCH, 200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  registerPasskey:         [UNAUTHENT, MISMATCH,    201,       201,   201,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  renameMyPasskey:         [UNAUTHENT, MISMATCH,    200,       200,   200,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  removeMyPasskey:         [UNAUTHENT, MISMATCH,    204,       204,   204,        UNAUTHENT, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listUserPasskeys:        [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        200,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  removeUserPasskey:       [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        204,       UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  getRelatedOrigins:       [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  // Webhooks: a signed-in admin only, never an API key (an endpoint receives every account's changes).
  listWebhookEndpoints:    [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  createWebhookEndpoint:   [UNAUTHENT, MISMATCH,    FORBIDDEN, 201,   201,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  getWebhookEndpoint:      [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  updateWebhookEndpoint:   [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  deleteWebhookEndpoint:   [UNAUTHENT, MISMATCH,    FORBIDDEN, 204,   204,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  rotateWebhookSecret:     [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  listWebhookAttempts:     [UNAUTHENT, MISMATCH,    FORBIDDEN, 200,   200,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  sendTestWebhook:         [UNAUTHENT, MISMATCH,    FORBIDDEN, 202,   202,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  redeliverWebhookEvent:   [UNAUTHENT, MISMATCH,    FORBIDDEN, 202,   202,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  replayWebhookEvents:     [UNAUTHENT, MISMATCH,    FORBIDDEN, 202,   202,        FORBIDDEN, UNAUTHENT, REVOKED, UNAUTHENT, UNAUTHENT, UNAUTHENT],
  notFound:                [NOT_FOUND, NOT_FOUND,   NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND],
};

/**
 * The plant store checks the JWT only (signature, iss, exp), as an API Gateway JWT authorizer would: any
 * tenant's token is admitted into its own tenant, a revoked session's token lasts until `exp`, and an API key
 * is no credential there (docs/http.md#plant-store).
 */
// biome-ignore format: a table reads best aligned
const plantMatrix: Record<string, Cell[]> = {
  //                        anonymous  otherTenant  plainUser  admin  superAdmin  apiKey     expired    revoked  tampered   algNone    hs256
  createPlant:             [PLANT_401, 200,         200,       200,   200,        PLANT_401, PLANT_401, 200,     PLANT_401, PLANT_401, PLANT_401],
  plantsPreflight:         [204,       204,         204,       204,   204,        204,       204,       204,     204,       204,       204],
  getPlantsOpenapi:        [200,       200,         200,       200,   200,        200,       200,       200,     200,       200,       200],
  plantsNotFound:          [PLANT_404, PLANT_404,   PLANT_404, PLANT_404, PLANT_404, PLANT_404, PLANT_404, PLANT_404, PLANT_404, PLANT_404, PLANT_404],
};

// ------------------------------------------------------------------ recipes

/** A signed-in account of the tenant: who it is, how it signs in again, its token. */
interface Account {
  userId: string;
  email: string;
  password: string;
  token: string;
  /** Unused backup codes, for an account made with TOTP on. */
  backupCodes: string[];
}

interface Request {
  method: string;
  /** Under the identity base URL, or the plant store's. */
  path: string;
  body?: unknown;
  /** Instead of the tenant headers (the credential is added to these). */
  headers?: Record<string, string>;
  /** A user the request acts on, whose activity a refused request must leave alone. */
  actsOn?: string;
  /** Sent to tenant A's OpenID Provider (its issuer host, the path under the API's base path), not the API's URL. */
  issuer?: boolean;
  /** A form body (OAuth's token and revocation endpoints), instead of `body`. */
  form?: Record<string, string>;
}

interface Recipe {
  service?: 'identity' | 'plants';
  /**
   * The request ends or changes its caller's session or account (logout, password, e-mail, TOTP), so each
   * admitted user column gets an account of its own for it (`totpUser`: one with TOTP on).
   */
  fresh?: 'user' | 'totpUser';
  /**
   * One valid request, made for `as`: the account of an admitted user column, else the tenant's
   * SUPER_ADMIN (whose tokens the broken-token columns carry). Refused columns share one.
   */
  request: (as: Account) => Request | Promise<Request>;
}

const ORIGIN = 'https://shop.example';
const NEW_PASSWORD = 'Philodendron-7-vine';

const get = (path: string) => (): Request => ({ method: 'GET', path });

/** The session id of an access token (its `sid` claim). */
const sidOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sid as string;

const identityRecipes: Record<string, Recipe> = {
  health: { request: get('/health') },
  getOpenapi: { request: get('/openapi.json') },
  preflight: {
    request: () => ({
      method: 'OPTIONS',
      path: '/users/me',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    }),
  },
  getJwks: { request: get('/.well-known/jwks.json') },
  getOpenidConfiguration: { request: get('/.well-known/openid-configuration') },
  discovery: {
    request: () => ({
      method: 'GET',
      path: `/auth/discovery?clientId=${encodeURIComponent(tenant.publicApiKey)}&slug=${tenant.subdomain}`,
      headers: { origin: ORIGIN },
    }),
  },
  lookupInvitation: {
    request: async () => ({
      method: 'POST',
      path: '/auth/invitations/lookup',
      body: { invitationToken: await anOpenInvitation() },
    }),
  },
  signup: {
    request: () => ({
      method: 'POST',
      path: '/auth/signup',
      body: { app: tenant.app, mid: tenant.mid, email: anEmail('signup'), firstName: 'Matrix', lastName: 'Signup' },
    }),
  },
  signupVerify: {
    request: async () => {
      const email = anEmail('signup');
      const body = { app: tenant.app, mid: tenant.mid, email, firstName: 'Matrix', lastName: 'Signup' };
      const started = await post(`${api.url}/auth/signup`, body, tenant.headers);
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const code = await latestCodeTo(api.stack.sesUrl, email);
      return {
        method: 'POST',
        path: '/auth/signup/verify',
        body: { challengeId: started.body.data.challengeId, code },
      };
    },
  },
  // Each column signs in a user of its own: of concurrent guesses at one account only 5 are evaluated at once.
  login: {
    request: async () => {
      const user = await aUser(tenant);
      return { method: 'POST', path: '/auth/login', body: { email: user.email, password: user.password } };
    },
  },
  loginVerify: {
    request: async () => {
      const user = await aStoredUser(tenant);
      const started = await post(
        `${api.url}/auth/login`,
        { email: user.email, loginMode: 'OTP_EMAIL' },
        tenant.headers,
      );
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const code = await latestCodeTo(api.stack.sesUrl, user.email);
      return { method: 'POST', path: '/auth/login/verify', body: { challengeId: started.body.data.challengeId, code } };
    },
  },
  refresh: {
    request: async () => {
      const user = await aUser(tenant);
      const { refreshToken } = await signIn(user.email, user.password);
      return { method: 'POST', path: '/auth/refresh', body: { refreshToken } };
    },
  },
  forgotPassword: {
    request: () => ({ method: 'POST', path: '/auth/forgot-password', body: { email: anEmail('forgot') } }),
  },
  resetPassword: {
    request: async () => {
      const user = await aStoredUser(tenant);
      const started = await post(`${api.url}/auth/forgot-password`, { email: user.email }, tenant.headers);
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const code = await latestCodeTo(api.stack.sesUrl, user.email);
      return {
        method: 'POST',
        path: '/auth/reset-password',
        body: { challengeId: started.body.challengeId, code, newPassword: NEW_PASSWORD },
      };
    },
  },
  logout: { fresh: 'user', request: () => ({ method: 'DELETE', path: '/auth/logout' }) },
  // A bearer route: an API key is no credential here (it has no session to freshen).
  reauthenticate: {
    request: (as) => ({ method: 'POST', path: '/auth/reauthenticate', body: { password: as.password } }),
  },
  getMe: { request: get('/users/me') },
  updateMe: { request: () => ({ method: 'PATCH', path: '/users/me', body: { firstName: 'Matrix' } }) },
  changePassword: {
    fresh: 'user',
    request: (as) => ({
      method: 'POST',
      path: '/users/me/password',
      body: { currentPassword: as.password, newPassword: NEW_PASSWORD },
    }),
  },
  startEmailChange: {
    request: () => ({ method: 'POST', path: '/users/me/email-change', body: { newEmail: anEmail('new') } }),
  },
  verifyEmailChange: {
    fresh: 'user',
    request: async (as) => {
      const newEmail = anEmail('new');
      const started = await call('POST', '/users/me/email-change', bearer(tenant, as.token), { newEmail });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const code = await latestCodeTo(api.stack.sesUrl, newEmail);
      return {
        method: 'POST',
        path: '/users/me/email-change/verify',
        body: { challengeId: started.body.challengeId, code },
      };
    },
  },
  initTotp: { request: () => ({ method: 'POST', path: '/users/me/totp/init' }) },
  verifyTotp: {
    fresh: 'user',
    request: async (as) => {
      const started = await call('POST', '/users/me/totp/init', bearer(tenant, as.token));
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const secret = new URL(started.body.qrUri).searchParams.get('secret') ?? '';
      return { method: 'POST', path: '/users/me/totp/verify', body: { code: totpCodeAt(secret, new Date()) } };
    },
  },
  disableTotp: {
    fresh: 'totpUser',
    request: (as) => ({
      method: 'POST',
      path: '/users/me/totp/disable',
      body: { code: as.backupCodes[0] ?? '000000' },
    }),
  },
  listMySessions: { request: get('/users/me/sessions') },
  revokeMySession: {
    // Another session of the caller's: the caller signs in once more.
    request: async (as) => ({
      method: 'DELETE',
      path: `/users/me/sessions/${sidOf((await signIn(as.email, as.password)).accessToken)}`,
    }),
  },
  revokeAllSessions: { fresh: 'user', request: () => ({ method: 'POST', path: '/sessions/revoke-all' }) },
  listMyActivity: { request: get('/users/me/activity') },
  getMyMerchant: { request: get('/merchants/me') },
  updateMerchant: {
    request: () => ({ method: 'PATCH', path: `/merchants/${tenant.id}`, body: { primaryColor: '#2e7d32' } }),
  },
  listApiKeys: { request: () => ({ method: 'GET', path: `/merchants/${tenant.id}/api-keys` }) },
  createApiKey: {
    request: () => ({ method: 'POST', path: `/merchants/${tenant.id}/api-keys`, body: { label: 'matrix' } }),
  },
  revokeApiKey: {
    request: async () => {
      const created = await call('POST', `/merchants/${tenant.id}/api-keys`, bearer(tenant, owner.token), {
        label: 'doomed',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return { method: 'DELETE', path: `/merchants/${tenant.id}/api-keys/${created.body.keyId}` };
    },
  },
  listUsers: { request: get('/users') },
  inviteUser: {
    request: () => ({ method: 'POST', path: '/users/invitations', body: { email: anEmail('invitee') } }),
  },
  // Each request mails an address of its own: the mail limits allow one a minute to an address.
  resendInvitation: {
    request: async () => {
      const { userId } = await anInvitedUser(tenant);
      return { method: 'POST', path: `/users/${userId}/invitation`, actsOn: userId };
    },
  },
  sendPasswordReset: {
    request: async () => {
      const { id } = await aStoredUser(tenant);
      return { method: 'POST', path: `/users/${id}/password-reset`, actsOn: id };
    },
  },
  getUser: { request: () => ({ method: 'GET', path: `/users/${target}` }) },
  deleteUser: {
    request: async () => {
      const { id } = await aStoredUser(tenant);
      return { method: 'DELETE', path: `/users/${id}`, actsOn: id };
    },
  },
  setUserStatus: {
    request: async () => {
      const { id } = await aStoredUser(tenant);
      return { method: 'PATCH', path: `/users/${id}/status`, body: { status: 'DISABLED' }, actsOn: id };
    },
  },
  resetUserTotp: { request: () => ({ method: 'DELETE', path: `/users/${target}/totp`, actsOn: target }) },
  clearMailSuppression: {
    request: () => ({ method: 'DELETE', path: `/users/${target}/mail-suppression`, actsOn: target }),
  },
  listUserDevices: { request: () => ({ method: 'GET', path: `/users/${target}/devices` }) },
  listUserActivity: { request: () => ({ method: 'GET', path: `/users/${target}/activity` }) },
  listRoles: { request: get('/roles') },
  createRole: {
    request: () => ({ method: 'POST', path: '/roles', body: { name: aRoleName('Matrix'), priority: 10 } }),
  },
  deleteRole: {
    request: async () => ({ method: 'DELETE', path: `/roles/${(await aRole(ownerCaller(), 10)).id}` }),
  },
  assignRole: {
    request: () => ({
      method: 'POST',
      path: '/roles/assign',
      body: { userId: target, roleId: merchantRole },
      actsOn: target,
    }),
  },
  revokeRole: {
    request: async () => {
      const { id } = await aStoredUser(tenant);
      await grant(ownerCaller(), id, merchantRole);
      return { method: 'POST', path: '/roles/revoke', body: { userId: id, roleId: merchantRole }, actsOn: id };
    },
  },
  listOidcClients: { request: get('/oidc/clients') },
  createOidcClient: { request: () => ({ method: 'POST', path: '/oidc/clients', body: MATRIX_CLIENT }) },
  getOidcClient: { request: async () => ({ method: 'GET', path: `/oidc/clients/${await anOidcClient()}` }) },
  updateOidcClient: {
    request: async () => ({
      method: 'PATCH',
      path: `/oidc/clients/${await anOidcClient()}`,
      body: { name: 'Changed' },
    }),
  },
  deleteOidcClient: {
    request: async () => ({ method: 'DELETE', path: `/oidc/clients/${await anOidcClient()}` }),
  },
  rotateOidcClientSecret: {
    request: async () => ({ method: 'POST', path: `/oidc/clients/${await anOidcClient()}/secret` }),
  },
  getOidcConfiguration: { request: () => ({ method: 'GET', path: '/oidc/openid-configuration', issuer: true }) },
  authorize: { request: async () => ({ method: 'GET', path: authorizePath(await matrixClient()), issuer: true }) },
  getAuthorizationRequest: {
    request: async () => ({ method: 'GET', path: `/oidc/authorization-requests/${await aPendingRequest()}` }),
  },
  completeAuthorization: {
    request: async () => ({
      method: 'POST',
      path: `/oidc/authorization-requests/${await aPendingRequest()}/complete`,
      body: {},
    }),
  },
  cancelAuthorization: {
    request: async () => ({
      method: 'POST',
      path: `/oidc/authorization-requests/${await aPendingRequest()}/cancel`,
      body: { error: 'login_required' },
    }),
  },
  oidcToken: {
    request: async () => {
      const client = await matrixClient();
      return {
        method: 'POST',
        path: '/oidc/token',
        issuer: true,
        form: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret },
      };
    },
  },
  oidcUserinfo: {
    request: async () => ({
      method: 'GET',
      path: '/oidc/userinfo',
      issuer: true,
      headers: { authorization: `Bearer ${await anOidcAccessToken()}` },
    }),
  },
  oidcUserinfoPost: {
    request: async () => ({
      method: 'POST',
      path: '/oidc/userinfo',
      issuer: true,
      headers: { authorization: `Bearer ${await anOidcAccessToken()}` },
    }),
  },
  oidcRevoke: {
    request: async () => {
      const client = await matrixClient();
      return {
        method: 'POST',
        path: '/oidc/revoke',
        issuer: true,
        form: { token: await anOidcAccessToken(), client_id: client.clientId, client_secret: client.clientSecret },
      };
    },
  },
  endSession: {
    request: async () => ({
      method: 'GET',
      path: `/oidc/end-session?client_id=${(await matrixClient()).clientId}`,
      issuer: true,
    }),
  },
  completeLogout: {
    request: async () => {
      const started = await localhostFetch(
        `${issuerOf(api.stack, tenant)}${BASE_PATH}/oidc/end-session?client_id=${(await matrixClient()).clientId}`,
      );
      const logoutId = new URL(started.headers.get('location') ?? '').searchParams.get('logout');
      return { method: 'POST', path: `/oidc/logout-requests/${logoutId}/complete`, body: {} };
    },
  },
  listSignInProviders: { request: get('/sign-in-providers') },
  createSignInProvider: {
    request: () => ({ method: 'POST', path: '/sign-in-providers', body: matrixProviderBody() }),
  },
  // Reads share one provider (a tenant has at most 10); changes each get one of their own.
  getSignInProvider: {
    request: async () => ({ method: 'GET', path: `/sign-in-providers/${await matrixProvider()}` }),
  },
  updateSignInProvider: {
    request: async () => ({
      method: 'PATCH',
      path: `/sign-in-providers/${await aSignInProvider()}`,
      body: { displayName: 'Changed' },
    }),
  },
  deleteSignInProvider: {
    request: async () => ({ method: 'DELETE', path: `/sign-in-providers/${await aSignInProvider()}` }),
  },
  startProviderSignIn: {
    request: async () => ({
      method: 'POST',
      path: `/auth/providers/${await matrixProvider()}/start`,
      body: { returnTo: `${issuerOf(api.stack, tenant)}/sign-in`, codeChallenge: aPagePkce().challenge },
    }),
  },
  providerCallback: {
    // A fresh sign-in at the provider each time: its answer, delivered to the callback as the browser would.
    request: async () => {
      const answer = await atTheProvider({});
      return { method: 'GET', path: `/auth/providers/callback${answer.url.search}`, issuer: true };
    },
  },
  providerCallbackPost: {
    request: async () => {
      const answer = await atTheProvider({ responseMode: 'form_post' });
      return {
        method: 'POST',
        path: '/auth/providers/callback',
        issuer: true,
        form: Object.fromEntries(answer.params),
      };
    },
  },
  signInWithProvider: {
    request: async () => {
      const outcome = await providerFlows.throughProvider(tenant, await matrixProvider(), upstream, { sub: 'matrix' });
      return {
        method: 'POST',
        path: '/auth/providers/sign-in',
        body: { result: outcome.result, codeVerifier: outcome.verifier },
      };
    },
  },
  listMyIdentities: { request: get('/users/me/identities') },
  reauthenticateWithProvider: {
    // The account's own provider account, linked now, then signed in at the provider again.
    request: async (as) => {
      const { sub, body } = await aLinkOf(as);
      const linked = await post(`${api.url}/users/me/identities`, body, bearer(tenant, as.token));
      expect(linked.status, linked.text).toBe(201);
      const outcome = await providerFlows.throughProvider(tenant, await matrixProvider(), upstream, { sub });
      return {
        method: 'POST',
        path: '/auth/reauthenticate/provider',
        body: { result: outcome.result, codeVerifier: outcome.verifier },
      };
    },
  },
  startIdentityLink: {
    request: async (as) => {
      await notLinked(as);
      return {
        method: 'POST',
        path: '/users/me/identities/start',
        body: {
          providerId: await matrixProvider(),
          returnTo: `${issuerOf(api.stack, tenant)}/account`,
          codeChallenge: aPagePkce().challenge,
        },
      };
    },
  },
  linkIdentity: {
    request: async (as) => ({ method: 'POST', path: '/users/me/identities', body: await aLinkResult(as) }),
  },
  unlinkMyIdentity: {
    request: async (as) => {
      const linked = await post(`${api.url}/users/me/identities`, await aLinkResult(as), bearer(tenant, as.token));
      expect(linked.status, linked.text).toBe(201);
      return { method: 'DELETE', path: `/users/me/identities/${linked.body.providerId}` };
    },
  },
  listUserIdentities: { request: () => ({ method: 'GET', path: `/users/${target}/identities` }) },
  passkeySignInOptions: { request: () => ({ method: 'POST', path: '/auth/passkeys/options', body: {} }) },
  signInWithPasskey: {
    // A user of its own for each column, with a passkey made through the API; its answer to a fresh challenge.
    request: async () => {
      const user = await aUser(tenant);
      const signedIn = await signIn(user.email, user.password);
      const { credential } = await addPasskeyThroughApi(api.url, api.stack, tenant, signedIn.accessToken);
      return {
        method: 'POST',
        path: '/auth/passkeys/sign-in',
        body: await passkeySignInBody(api.url, api.stack, tenant, credential),
      };
    },
  },
  passkeyReauthOptions: {
    request: async (as) => {
      await passkeyOf(as);
      return { method: 'POST', path: '/auth/reauthenticate/passkey/options', body: {} };
    },
  },
  reauthenticateWithPasskey: {
    request: async (as) => ({
      method: 'POST',
      path: '/auth/reauthenticate/passkey',
      body: await passkeyReauthBody(api.url, api.stack, tenant, as.token, (await passkeyOf(as)).credential),
    }),
  },
  listMyPasskeys: { request: get('/users/me/passkeys') },
  passkeyRegistrationOptions: { request: () => ({ method: 'POST', path: '/users/me/passkeys/options', body: {} }) },
  registerPasskey: {
    request: async (as) => {
      const options = await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, as.token));
      expect(options.status, options.text).toBe(200);
      const { json } = register({
        ...hostedCeremony(api.stack, tenant, options.body.options.challenge),
        userHandle: options.body.options.user.id,
      });
      return { method: 'POST', path: '/users/me/passkeys', body: { credential: json } };
    },
  },
  renameMyPasskey: {
    request: async (as) => ({
      method: 'PATCH',
      path: `/users/me/passkeys/${(await passkeyOf(as)).passkey.id}`,
      body: { name: 'Matrix' },
    }),
  },
  removeMyPasskey: {
    request: async (as) => ({
      method: 'DELETE',
      path: `/users/me/passkeys/${(await addPasskeyThroughApi(api.url, api.stack, tenant, as.token)).passkey.id}`,
    }),
  },
  listUserPasskeys: { request: () => ({ method: 'GET', path: `/users/${target}/passkeys` }) },
  removeUserPasskey: {
    request: async () => ({
      method: 'DELETE',
      path: `/users/${target}/passkeys/${(await aStoredPasskey(tenant, target)).id}`,
      actsOn: target,
    }),
  },
  getRelatedOrigins: { request: () => ({ method: 'GET', path: '/passkeys/related-origins', issuer: true }) },
  listWebhookEndpoints: { request: get('/webhook-endpoints') },
  createWebhookEndpoint: { request: () => ({ method: 'POST', path: '/webhook-endpoints', body: MATRIX_ENDPOINT }) },
  getWebhookEndpoint: {
    request: async () => ({ method: 'GET', path: `/webhook-endpoints/${await matrixEndpoint()}` }),
  },
  // The changes each get an endpoint of their own: two admins changing one at once would get 409 CONFLICT.
  updateWebhookEndpoint: {
    request: async () => ({
      method: 'PATCH',
      path: `/webhook-endpoints/${await aWebhookEndpoint()}`,
      body: { description: 'Changed' },
    }),
  },
  deleteWebhookEndpoint: {
    request: async () => ({ method: 'DELETE', path: `/webhook-endpoints/${await aWebhookEndpoint()}` }),
  },
  rotateWebhookSecret: {
    request: async () => ({ method: 'POST', path: `/webhook-endpoints/${await aWebhookEndpoint()}/secret` }),
  },
  listWebhookAttempts: {
    request: async () => ({ method: 'GET', path: `/webhook-endpoints/${await matrixEndpoint()}/attempts` }),
  },
  sendTestWebhook: {
    request: async () => ({ method: 'POST', path: `/webhook-endpoints/${await matrixEndpoint()}/test` }),
  },
  redeliverWebhookEvent: {
    request: async () => ({
      method: 'POST',
      path: `/webhook-endpoints/${await matrixEndpoint()}/redeliver`,
      body: { eventId: await matrixEvent() },
    }),
  },
  replayWebhookEvents: {
    request: async () => {
      await matrixEvent();
      return {
        method: 'POST',
        path: `/webhook-endpoints/${await matrixEndpoint()}/replay`,
        body: { since: new Date(Date.now() - 3_600_000).toISOString() },
      };
    },
  },
  // The $default route: a known path with a method it does not have (a write, so nothing may change).
  notFound: { request: () => ({ method: 'PUT', path: '/users/me', body: { firstName: 'Matrix' } }) },
};

// ------------------------------------------------------------------ sign-in providers

/** The provider the matrix signs in at: a real OpenID provider on loopback. */
let upstream: OidcUpstream;
const providerFlows = signInProviderApi(api);
let providerSubjects = 0;

beforeAll(async () => {
  upstream = await startOidcUpstream({
    accounts: [{ sub: 'matrix', email: 'matrix@demo-id.example', emailVerified: true }],
  });
});
afterAll(() => upstream?.close());

function matrixProviderBody() {
  return {
    kind: 'OIDC',
    displayName: 'Matrix ID',
    issuer: upstream.issuer,
    clientId: 'matrix',
    clientSecret: 'matrix-secret',
  };
}

/** A new provider of tenant A, added by its owner (and known to the upstream); its id. */
async function aSignInProvider(): Promise<string> {
  const res = await call('POST', '/sign-in-providers', bearer(tenant, owner.token), matrixProviderBody());
  expect(res.status, res.text).toBe(201);
  await upstream.addClient({ clientId: 'matrix', clientSecret: 'matrix-secret', redirectUris: [res.body.redirectUri] });
  return res.body.id;
}
let signInProvider: Promise<string> | undefined;
function matrixProvider(): Promise<string> {
  signInProvider ??= aSignInProvider();
  return signInProvider;
}

/** A sign-in started at the matrix provider and answered by it (as a fresh account): where its answer goes. */
async function atTheProvider(options: { responseMode?: string }) {
  const started = await providerFlows.start(tenant, await matrixProvider());
  const url = new URL(started.authorizationUrl ?? '');
  if (options.responseMode) url.searchParams.set('response_mode', options.responseMode);
  return upstream.authorize(url, { sub: 'matrix' });
}

/** A provider account of the upstream's, new each time, sent through a link `as` started: the link's body. */
async function aLinkResult(as: Account) {
  return (await aLinkOf(as)).body;
}

/** One link per provider and account: a link an earlier row made goes first. */
async function notLinked(as: Account) {
  const unlinked = await call('DELETE', `/users/me/identities/${await matrixProvider()}`, bearer(tenant, as.token));
  expect([204, 404], JSON.stringify(unlinked.body)).toContain(unlinked.status);
}

/** aLinkResult's body, and the upstream account it proves. */
async function aLinkOf(as: Account) {
  await notLinked(as);
  const sub = `matrix-link-${++providerSubjects}`;
  upstream.setAccount({ sub, email: `${sub}@demo-id.example`, emailVerified: true });
  const pkce = aPagePkce();
  const started = await post(
    `${api.url}/users/me/identities/start`,
    {
      providerId: await matrixProvider(),
      returnTo: `${issuerOf(api.stack, tenant)}/account`,
      codeChallenge: pkce.challenge,
    },
    bearer(tenant, as.token),
  );
  expect(started.status, started.text).toBe(200);
  const outcome = await providerFlows.deliver(await upstream.authorize(started.body.authorizationUrl, { sub }));
  expect(outcome.result, String(outcome.location)).toEqual(expect.any(String));
  return { sub, body: { result: outcome.result, codeVerifier: pkce.verifier } };
}

/** Each account's one passkey, made through the API the first time a recipe asks for it. */
const passkeys = new Map<string, ReturnType<typeof addPasskeyThroughApi>>();
function passkeyOf(as: Account) {
  let made = passkeys.get(as.email);
  if (!made) {
    made = addPasskeyThroughApi(api.url, api.stack, tenant, as.token);
    passkeys.set(as.email, made);
  }
  return made;
}

// ------------------------------------------------------------------ webhooks

/** An endpoint on loopback (allowed on the local stack); nothing is delivered here, no dispatcher runs. */
const MATRIX_ENDPOINT = { url: LOOPBACK_HOOK, eventTypes: ['user.created'], description: 'Matrix' };

/** A new webhook endpoint of tenant A, added by its owner; its id. */
async function aWebhookEndpoint(): Promise<string> {
  const res = await call('POST', '/webhook-endpoints', bearer(tenant, owner.token), MATRIX_ENDPOINT);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}
let webhookEndpoint: Promise<string> | undefined;
/** The endpoint the rows that change nothing of it share (a tenant has 20 endpoints at most). */
function matrixEndpoint(): Promise<string> {
  webhookEndpoint ??= aWebhookEndpoint();
  return webhookEndpoint;
}
let webhookEvent: Promise<string> | undefined;
/** A `user.created` event in tenant A's log: what redelivery sends again, and replay finds. */
function matrixEvent(): Promise<string> {
  webhookEvent ??= aStoredWebhookEvent(makeTestDeps(), tenant);
  return webhookEvent;
}

/** A confidential client: it has a secret to rotate. */
const MATRIX_CLIENT = { name: 'Matrix', type: 'confidential', redirectUris: ['https://matrix.example/cb'] };

/** A new OIDC client of tenant A, registered by its owner; its id. */
async function anOidcClient(): Promise<string> {
  const created = await call('POST', '/oidc/clients', bearer(tenant, owner.token), MATRIX_CLIENT);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.clientId;
}

/** A first-party confidential client of tenant A with every grant: no consent step, a secret for its grants. */
const MATRIX_SIGN_IN_CLIENT = {
  name: 'Matrix sign-in',
  type: 'confidential',
  redirectUris: ['https://matrix.example/cb'],
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  firstParty: true,
};
let signInClient: Promise<{ clientId: string; clientSecret: string }> | undefined;
function matrixClient() {
  signInClient ??= call('POST', '/oidc/clients', bearer(tenant, owner.token), MATRIX_SIGN_IN_CLIENT).then((res) => {
    expect(res.status, res.text).toBe(201);
    return res.body;
  });
  return signInClient;
}

const PKCE_VERIFIER = 'matrix-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';
const PKCE_CHALLENGE = createHash('sha256').update(PKCE_VERIFIER).digest('base64url');

function authorizePath(client: { clientId: string }): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: MATRIX_SIGN_IN_CLIENT.redirectUris[0] as string,
    scope: 'openid email',
    code_challenge: PKCE_CHALLENGE,
    code_challenge_method: 'S256',
    state: 'matrix',
  });
  return `/oidc/authorize?${query}`;
}

/** A new authorization request of the matrix client, waiting for its sign-in page; its id. */
let openInvitation: Promise<string> | undefined;

/** The token of an open invitation of the tenant: a lookup leaves it open, so every column looks up the same one. */
function anOpenInvitation(): Promise<string> {
  openInvitation ??= (async () => {
    const email = anEmail('invited');
    const res = await call('POST', '/users/invitations', ownerCaller().headers, { email });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const token = /invitationToken=([A-Za-z0-9_-]+)/.exec(
      (await mailsTo(api.stack.sesUrl, email)).at(-1)?.body.text ?? '',
    );
    if (!token?.[1]) throw new Error('no invitation token in the mail');
    return token[1];
  })();
  return openInvitation;
}

async function aPendingRequest(): Promise<string> {
  const res = await localhostFetch(`${issuerOf(api.stack, tenant)}${BASE_PATH}${authorizePath(await matrixClient())}`);
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') ?? '').searchParams.get('request') as string;
}

/** An OpenID Connect access token of the owner for the matrix client: the code flow, driven through the API. */
async function anOidcAccessToken(): Promise<string> {
  const client = await matrixClient();
  const done = await post(
    `${api.url}/oidc/authorization-requests/${await aPendingRequest()}/complete`,
    {},
    bearer(tenant, owner.token),
  );
  expect(done.status, done.text).toBe(200);
  const code = new URL(done.body.redirectTo).searchParams.get('code') as string;
  const res = await localhostFetch(`${issuerOf(api.stack, tenant)}${BASE_PATH}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: MATRIX_SIGN_IN_CLIENT.redirectUris[0] as string,
      code_verifier: PKCE_VERIFIER,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  const tokens = (await res.json()) as { access_token: string };
  expect(res.status, JSON.stringify(tokens)).toBe(200);
  return tokens.access_token;
}

let plantId = 0;

const plantRecipes: Record<string, Recipe> = {
  createPlant: {
    service: 'plants',
    request: () => ({ method: 'POST', path: '/plants', body: { id: ++plantId, name: 'Matrix fern' } }),
  },
  plantsPreflight: {
    service: 'plants',
    request: () => ({
      method: 'OPTIONS',
      path: '/plants',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    }),
  },
  getPlantsOpenapi: { service: 'plants', request: get('/openapi.json') },
  // The $default route: a known path with a method it does not have.
  plantsNotFound: {
    service: 'plants',
    request: () => ({ method: 'PUT', path: '/plants', body: { id: 1, name: 'No' } }),
  },
};

// ------------------------------------------------------------------ fixtures

/** Tenant A, where every row's request goes, and its SUPER_ADMIN. */
let tenant: TestTenant;
let owner: Account;
/** Tenant B and its SUPER_ADMIN, the `otherTenant` column. */
let otherTenant: TestTenant;
let otherOwner: Account;
/** The shared signed-in accounts of the user columns (superAdmin is the owner). */
let shared: Record<UserColumn, Account>;
let apiKey: string;
/** A stored user holding `merchantRole` (priority 10): what the admin rows act on. */
let target: string;
let merchantRole: string;
let roleIds: { admin: string; superAdmin: string };
let brokenTokens: Record<'expired' | 'revoked' | 'tampered' | 'algNone' | 'hs256', string>;
let freshlyCrafted: string;

type UserColumn = 'plainUser' | 'admin' | 'superAdmin';
const USER_COLUMNS: readonly Column[] = ['plainUser', 'admin', 'superAdmin'];
const isUserColumn = (column: Column): column is UserColumn => USER_COLUMNS.includes(column);

const ownerCaller = () => ({ headers: bearer(tenant, owner.token) });

/** Password login, and the TOTP step with a backup code when the account has TOTP on. */
async function signIn(email: string, password: string, backupCode?: string) {
  const res = await post(`${api.url}/auth/login`, { email, password }, tenant.headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  if (!res.body.data.challengeRequired) return res.body.data as { accessToken: string; refreshToken: string };
  const verified = await post(
    `${api.url}/auth/login/verify`,
    { challengeId: res.body.data.challengeId, code: backupCode },
    tenant.headers,
  );
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return verified.body.data as { accessToken: string; refreshToken: string };
}

/** A new user of tenant A holding the column's role (DEFAULT only for plainUser), signed in. */
async function anAccount(column: UserColumn, options: { totp?: boolean } = {}): Promise<Account> {
  const user = await aUser(tenant, { totp: options.totp === true });
  if (column !== 'plainUser') await grant(ownerCaller(), user.id, roleIds[column]);
  const [signInCode, ...backupCodes] = user.backupCodes ?? [];
  const { accessToken } = await signIn(user.email, user.password, signInCode);
  return { userId: user.id, email: user.email, password: user.password, token: accessToken, backupCodes };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  const [a, b] = await Promise.all([aSuperAdmin({ loginMode: 'PASSWORD_OR_OTP_EMAIL' }), aSuperAdmin()]);
  tenant = a.tenant;
  otherTenant = b.tenant;
  owner = {
    userId: a.userId,
    email: tenant.adminEmail,
    password: tenant.adminPassword,
    token: a.token,
    backupCodes: [],
  };
  otherOwner = {
    userId: b.userId,
    email: b.tenant.adminEmail,
    password: b.tenant.adminPassword,
    token: b.token,
    backupCodes: [],
  };
  roleIds = { admin: await roleId(a, 'ADMIN'), superAdmin: await roleId(a, 'SUPER_ADMIN') };

  const [plainUser, admin, key, stored, role, secondSession] = await Promise.all([
    anAccount('plainUser'),
    anAccount('admin'),
    call('POST', `/merchants/${tenant.id}/api-keys`, a.headers, { label: 'matrix' }),
    aStoredUser(tenant),
    aRole(a, 10),
    signIn(owner.email, owner.password),
  ]);
  shared = { plainUser, admin, superAdmin: owner };
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  apiKey = key.body.apiKey;
  target = stored.id;
  merchantRole = role.id;
  await grant(a, target, merchantRole);

  // The owner's second session, logged out: its token is unexpired and well signed.
  const logout = await call('DELETE', '/auth/logout', bearer(tenant, secondSession.accessToken));
  expect(logout.status, JSON.stringify(logout.body)).toBe(204);

  // A token of the owner's live session with one claim changed and its signature kept.
  const [header, payload, signature] = owner.token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  const tampered = `${header}.${b64url({ ...claims, jti: `${claims.jti}x` })}.${signature}`;

  // alg none: the same claims, no signature.
  const algNone = `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;

  // HS256 keyed with the public key of the signing key the token names, as the JWKS publishes it.
  const kid = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).kid as string;
  const jwks = (await (await fetch(`${api.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
  const jwk = jwks.keys.find((k) => k.kid === kid);
  expect(jwk, 'the token names a published key').toBeDefined();
  const hsHeader = b64url({ alg: 'HS256', typ: 'JWT', kid });
  const mac = createHmac('sha256', JSON.stringify(jwk)).update(`${hsHeader}.${payload}`).digest('base64url');
  const hs256 = `${hsHeader}.${payload}.${mac}`;

  // An expired token of the owner's live session, signed with the real key (the test shares the stack's
  // table and key vault); one made the same way now is admitted (the first tests), so only time differs.
  const deps = makeTestDeps();
  const signer = (at: Date) => ({
    ...deps,
    clock: { now: () => at },
    config: { ...deps.config, issuerUrl: claims.iss },
  });
  const subject = { sub: claims.sub, sid: claims.sid, app: claims.app, mid: claims.mid, roles: claims.roles };
  const expired = (await issueAccessToken(signer(new Date(Date.now() - 3_600_000)), subject)).accessToken;
  freshlyCrafted = (await issueAccessToken(signer(new Date()), subject)).accessToken;

  brokenTokens = { expired, revoked: secondSession.accessToken, tampered, algNone, hs256 };
});

// ------------------------------------------------------------------ running a row

async function send(recipe: Recipe, request: Request, credential: Record<string, string>): Promise<Answer> {
  const base = request.issuer
    ? `${issuerOf(api.stack, tenant)}${BASE_PATH}`
    : recipe.service === 'plants'
      ? api.plantsUrl
      : api.url;
  const form: Record<string, string> = request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
  const res = await localhostFetch(`${base}${request.path}`, {
    method: request.method,
    headers: { ...(request.headers ?? (request.issuer ? {} : tenant.headers)), ...form, ...credential },
    ...(request.form ? { body: new URLSearchParams(request.form).toString() } : {}),
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** An answer in the table's notation; anything else shows as itself, so that the diff says what came back. */
function cellOf(res: Answer): Cell {
  // A redirect is the success of authorize and end-session.
  if (res.status >= 200 && res.status < 300) return res.status;
  if (res.status === 302 && res.headers.get('location')) return 302;
  const type = res.headers.get('content-type');
  const oauthError =
    type?.startsWith('application/json') && typeof res.body?.error === 'string' && res.body.message === undefined;
  if (oauthError) return `${res.status} oauth:${res.body.error}`;
  if (type === 'application/problem+json' && typeof res.body?.code === 'string')
    return `${res.status} ${res.body.code}`;
  const plantError =
    type === 'application/json' &&
    JSON.stringify(Object.keys(res.body ?? {}).sort()) === '["error","message"]' &&
    res.body.error === res.status &&
    typeof res.body.message === 'string' &&
    res.body.message.length > 0;
  if (plantError) return `${res.status} {error,message}`;
  return `${res.status} ${type}: ${res.text.slice(0, 200)}`;
}

/** The credential a column sends; a user column's comes from its account. */
function credentialOf(column: Column, account: Account | undefined): Record<string, string> {
  switch (column) {
    case 'anonymous':
      return {};
    case 'otherTenant':
      return { authorization: `Bearer ${otherOwner.token}` };
    case 'apiKey':
      return { 'x-api-key': apiKey };
    case 'plainUser':
    case 'admin':
    case 'superAdmin':
      return { authorization: `Bearer ${(account ?? shared[column]).token}` };
    default:
      return { authorization: `Bearer ${brokenTokens[column]}` };
  }
}

/** What admins of both tenants can read, the acted-on user's activity included; for the plant store, the stored plants. */
async function snapshot(recipe: Recipe, request: Request) {
  if (recipe.service === 'plants') {
    const plants = await Promise.all([tenant, otherTenant].map((t) => storedPlants(api.stack, t)));
    return plants.map((items) => items.map((item) => item.pk).sort());
  }
  const reads: (readonly [Account, TestTenant, string])[] = [
    [owner, tenant, '/users'],
    [owner, tenant, '/roles'],
    [owner, tenant, '/merchants/me'],
    [owner, tenant, `/merchants/${tenant.id}/api-keys`],
    [owner, tenant, '/webhook-endpoints'],
    [owner, tenant, `/users/${owner.userId}/activity?limit=100`],
    ...(request.actsOn ? [[owner, tenant, `/users/${request.actsOn}/activity?limit=100`] as const] : []),
    [otherOwner, otherTenant, '/users'],
    [otherOwner, otherTenant, '/roles'],
    [otherOwner, otherTenant, '/merchants/me'],
    [otherOwner, otherTenant, `/merchants/${otherTenant.id}/api-keys`],
    [otherOwner, otherTenant, '/webhook-endpoints'],
  ];
  const answers = await Promise.all(reads.map(([by, t, path]) => call('GET', path, bearer(t, by.token))));
  return answers.map((res, i) => ({ read: reads[i]?.[2], status: res.status, body: res.body }));
}

const changes = (request: Request) => !['GET', 'OPTIONS'].includes(request.method);

/**
 * Runs a row: the refused columns first, all with one request made for the owner (and, for a request that
 * would change something, what admins can read before and after); then each admitted column with a request
 * made for its own caller. Columns run concurrently. Answers the row as the table writes it.
 */
async function runRow(recipe: Recipe, expected: readonly Cell[]) {
  const refused = COLUMNS.filter((_, i) => typeof expected[i] !== 'number');
  const admitted = COLUMNS.filter((_, i) => typeof expected[i] === 'number');
  const answers = new Map<Column, Answer>();
  let before: unknown;
  let after: unknown;

  if (refused.length > 0) {
    const request = await recipe.request(owner);
    const watched = changes(request);
    if (watched) before = await snapshot(recipe, request);
    await Promise.all(
      refused.map(async (column) => answers.set(column, await send(recipe, request, credentialOf(column, undefined)))),
    );
    if (watched) after = await snapshot(recipe, request);
  }

  await Promise.all(
    admitted.map(async (column) => {
      let account: Account | undefined;
      if (isUserColumn(column)) {
        account = recipe.fresh ? await anAccount(column, { totp: recipe.fresh === 'totpUser' }) : shared[column];
      }
      const request = await recipe.request(account ?? owner);
      answers.set(column, await send(recipe, request, credentialOf(column, account)));
    }),
  );

  const actual = Object.fromEntries(COLUMNS.map((column) => [column, cellOf(answers.get(column) as Answer)]));
  const wanted = Object.fromEntries(COLUMNS.map((column, i) => [column, expected[i]]));
  const surprises = COLUMNS.filter((column) => actual[column] !== wanted[column]).map(
    (column) => `${column}: ${answers.get(column)?.status} ${answers.get(column)?.text.slice(0, 300)}`,
  );
  expect(actual, surprises.join('\n')).toEqual(wanted);
  expect(after, 'a refused request changed what the admins can read').toEqual(before);
}

// ------------------------------------------------------------------ the tests

const idsOf = (routes: readonly { operationId: string }[]) => routes.map((route) => route.operationId).sort();

describe('the matrix', () => {
  it('has exactly one row and one recipe per route of both route lists', () => {
    expect(Object.keys(identityMatrix).sort(), 'identity rows ↔ identityRouteList').toEqual(idsOf(identityRouteList));
    expect(Object.keys(identityRecipes).sort(), 'identity recipes ↔ identityRouteList').toEqual(
      idsOf(identityRouteList),
    );
    expect(Object.keys(plantMatrix).sort(), 'plant rows ↔ plantRouteList').toEqual(idsOf(plantRouteList));
    expect(Object.keys(plantRecipes).sort(), 'plant recipes ↔ plantRouteList').toEqual(idsOf(plantRouteList));
    for (const cells of [...Object.values(identityMatrix), ...Object.values(plantMatrix)]) {
      expect(cells).toHaveLength(COLUMNS.length);
    }
  });

  it('gives every credential the anonymous answer on the routes open to all', () => {
    // userinfo checks a credential of its own, an OpenID Connect access token (its row says what it does with API tokens).
    const ownCredential = ['oidcUserinfo', 'oidcUserinfoPost'];
    const open = [...identityRouteList, ...plantRouteList].filter(
      (route) => route.auth === 'none' && !ownCredential.includes(route.operationId),
    );
    const rows = { ...identityMatrix, ...plantMatrix };
    const uneven = open.filter((route) => new Set(rows[route.operationId]).size !== 1).map((r) => r.operationId);
    expect(uneven).toEqual([]);
  });

  it('uses broken tokens that differ from good ones only in what breaks them: one made the same way now is admitted', async () => {
    const plant = { method: 'POST', path: '/plants', body: { id: ++plantId, name: 'Check' } };
    const [me, planted] = await Promise.all([
      call('GET', '/users/me', bearer(tenant, freshlyCrafted)),
      send({ service: 'plants', request: () => plant }, plant, { authorization: `Bearer ${freshlyCrafted}` }),
    ]);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(planted.status, planted.text).toBe(200);
  });
});

describe('the identity service', () => {
  for (const route of identityRouteList) {
    it(`${route.method} ${route.path} (${route.operationId}) answers each caller as the table says`, async () => {
      const recipe = identityRecipes[route.operationId];
      const expected = identityMatrix[route.operationId];
      if (!recipe || !expected) throw new Error(`no row for ${route.operationId}`);
      await runRow(recipe, expected);
    });
  }
});

describe('the plant store', () => {
  for (const route of plantRouteList) {
    it(`${route.method} ${route.path} (${route.operationId}) answers each caller as the table says`, async () => {
      const recipe = plantRecipes[route.operationId];
      const expected = plantMatrix[route.operationId];
      if (!recipe || !expected) throw new Error(`no row for ${route.operationId}`);
      await runRow(recipe, expected);
    });
  }
});
