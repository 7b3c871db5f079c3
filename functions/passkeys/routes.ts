/**
 * Passkeys (shared/passkeys/): signing in with one, proving it is you again with one, the signed-in user's own
 * list, an admin's view of a user's, and the relying party's related origins. Their functions alone carry the
 * WebAuthn library.
 */
import * as v from 'valibot';
import { TokensEnvelope } from '#shared/auth/schemas.ts';
import {
  ADMIN_ERRORS,
  adminRoute,
  BEARER_ERRORS,
  bearerRoute,
  type RouteDef,
  SIGNS_TOKENS,
} from '#shared/http/route.ts';
import {
  PasskeyAnswerRequest,
  PasskeyCreationOptionsResponse,
  PasskeyIdParams,
  PasskeyRequestOptionsResponse,
  PasskeyResponse,
  PasskeySignInOptionsRequest,
  RegisterPasskeyRequest,
  RelatedOriginsResponse,
  RenamePasskeyRequest,
  UserPasskeyParams,
} from '#shared/passkeys/schemas.ts';

const IdParams = v.object({ id: v.string() });

/** The answers every passkey route may give when the tenant has passkeys off. */
const OFF = 'PASSKEYS_NOT_ALLOWED' as const;

export const passkeyRoutes = {
  passkeySignInOptions: {
    operationId: 'passkeySignInOptions',
    method: 'POST',
    path: '/auth/passkeys/options',
    entry: 'functions/passkeys/passkey-sign-in-options.ts',
    summary:
      'A challenge to sign in with a passkey (the button, or the browser autofill): discoverable credentials, with an optional e-mail the passkey must belong to',
    tag: 'passkeys',
    tenant: 'headers',
    auth: 'none',
    status: 200,
    body: PasskeySignInOptionsRequest,
    response: PasskeyRequestOptionsResponse,
    errors: [OFF, 'RATE_LIMITED'],
    // The per-IP count (UpdateItem) and the challenge (PutItem).
    table: ['UpdateItem', 'PutItem'],
  },
  signInWithPasskey: {
    operationId: 'signInWithPasskey',
    method: 'POST',
    path: '/auth/passkeys/sign-in',
    entry: 'functions/passkeys/sign-in-with-passkey.ts',
    summary: "Sign in with a passkey's answer to the challenge: tokens (a passkey is two factors, so no TOTP step)",
    tag: 'passkeys',
    tenant: 'headers',
    auth: 'none',
    status: 200,
    body: PasskeyAnswerRequest,
    response: TokensEnvelope,
    errors: [OFF, 'INVALID_CREDENTIALS', 'ACCOUNT_DISABLED', 'ACCOUNT_INACTIVE', 'RATE_LIMITED'],
    // The challenge taken (DeleteItem), the profile and passkey in one read (BatchGetItem), the session's
    // transaction (PutItem, UpdateItem: session, profile, passkey counter, activity), a mismatched counter (PutItem).
    table: ['BatchGetItem', 'UpdateItem', 'PutItem', 'DeleteItem'],
    kms: SIGNS_TOKENS,
  },
  passkeyReauthOptions: {
    ...bearerRoute({ tag: 'passkeys' }),
    operationId: 'passkeyReauthOptions',
    method: 'POST',
    path: '/auth/reauthenticate/passkey/options',
    entry: 'functions/passkeys/passkey-reauth-options.ts',
    summary: "A challenge for proving it is you again with one of this account's passkeys",
    status: 200,
    response: PasskeyRequestOptionsResponse,
    errors: [...BEARER_ERRORS, OFF, 'NOT_FOUND', 'RATE_LIMITED'],
    table: ['Query', 'UpdateItem', 'PutItem'],
  },
  reauthenticateWithPasskey: {
    ...bearerRoute({ tag: 'passkeys' }),
    operationId: 'reauthenticateWithPasskey',
    method: 'POST',
    path: '/auth/reauthenticate/passkey',
    entry: 'functions/passkeys/reauthenticate-with-passkey.ts',
    summary: 'Prove it is you again with a passkey: the session counts as freshly authenticated for 10 minutes',
    status: 204,
    body: PasskeyAnswerRequest,
    errors: [...BEARER_ERRORS, OFF, 'INVALID_CREDENTIALS', 'RATE_LIMITED'],
    table: ['BatchGetItem', 'UpdateItem', 'PutItem', 'DeleteItem'],
  },
  listMyPasskeys: {
    ...bearerRoute({ tag: 'passkeys' }),
    operationId: 'listMyPasskeys',
    method: 'GET',
    path: '/users/me/passkeys',
    entry: 'functions/passkeys/list-my-passkeys.ts',
    summary: "The signed-in user's passkeys, oldest first",
    status: 200,
    response: v.array(PasskeyResponse),
    errors: BEARER_ERRORS,
    table: ['Query'],
  },
  passkeyRegistrationOptions: {
    ...bearerRoute({ tag: 'passkeys' }),
    operationId: 'passkeyRegistrationOptions',
    method: 'POST',
    path: '/users/me/passkeys/options',
    entry: 'functions/passkeys/passkey-registration-options.ts',
    summary: 'Start adding a passkey: the options for navigator.credentials.create(), bound to this session',
    status: 200,
    response: PasskeyCreationOptionsResponse,
    errors: [...BEARER_ERRORS, OFF, 'REAUTHENTICATION_REQUIRED', 'PASSKEY_LIMIT_REACHED'],
    table: ['Query', 'PutItem'],
  },
  registerPasskey: {
    ...bearerRoute({ tag: 'passkeys' }),
    operationId: 'registerPasskey',
    method: 'POST',
    path: '/users/me/passkeys',
    entry: 'functions/passkeys/register-passkey.ts',
    summary: "Add a passkey: the browser's new credential, verified against this session's challenge",
    status: 201,
    body: RegisterPasskeyRequest,
    response: PasskeyResponse,
    errors: [
      ...BEARER_ERRORS,
      OFF,
      'REAUTHENTICATION_REQUIRED',
      'PASSKEY_NOT_VERIFIED',
      'ALREADY_EXISTS',
      'PASSKEY_LIMIT_REACHED',
    ],
    // The challenge taken (DeleteItem); the passkey, its claim, the profile's count and the activity in one
    // transaction (PutItem, UpdateItem).
    table: ['DeleteItem', 'PutItem', 'UpdateItem'],
  },
  renameMyPasskey: {
    ...bearerRoute({ tag: 'passkeys' }),
    operationId: 'renameMyPasskey',
    method: 'PATCH',
    path: '/users/me/passkeys/{passkeyId}',
    entry: 'functions/passkeys/rename-my-passkey.ts',
    summary: 'Rename a passkey',
    status: 200,
    params: PasskeyIdParams,
    body: RenamePasskeyRequest,
    response: PasskeyResponse,
    errors: [...BEARER_ERRORS, 'REAUTHENTICATION_REQUIRED', 'NOT_FOUND'],
    table: ['UpdateItem'],
  },
  removeMyPasskey: {
    ...bearerRoute({ tag: 'passkeys' }),
    operationId: 'removeMyPasskey',
    method: 'DELETE',
    path: '/users/me/passkeys/{passkeyId}',
    entry: 'functions/passkeys/remove-my-passkey.ts',
    summary: 'Remove a passkey: it no longer signs in',
    status: 204,
    params: PasskeyIdParams,
    errors: [...BEARER_ERRORS, 'REAUTHENTICATION_REQUIRED', 'NOT_FOUND'],
    table: ['DeleteItem', 'UpdateItem', 'PutItem'],
  },
  listUserPasskeys: {
    ...adminRoute({ tag: 'passkeys' }),
    operationId: 'listUserPasskeys',
    method: 'GET',
    path: '/users/{id}/passkeys',
    entry: 'functions/passkeys/list-user-passkeys.ts',
    summary: "A user's passkeys",
    status: 200,
    params: IdParams,
    response: v.array(PasskeyResponse),
    errors: [...ADMIN_ERRORS, 'NOT_FOUND'],
    table: ['GetItem', 'Query'],
  },
  removeUserPasskey: {
    ...adminRoute({ tag: 'passkeys' }),
    operationId: 'removeUserPasskey',
    method: 'DELETE',
    path: '/users/{id}/passkeys/{passkeyId}',
    entry: 'functions/passkeys/remove-user-passkey.ts',
    summary: "Remove a user's passkey (a lost device)",
    status: 204,
    params: UserPasskeyParams,
    errors: [...ADMIN_ERRORS, 'REAUTHENTICATION_REQUIRED', 'NOT_FOUND'],
    table: ['GetItem', 'DeleteItem', 'UpdateItem', 'PutItem'],
  },
  getRelatedOrigins: {
    operationId: 'getRelatedOrigins',
    method: 'GET',
    path: '/passkeys/related-origins',
    entry: 'functions/passkeys/get-related-origins.ts',
    summary:
      "The origins that may use the tenant's passkeys (WebAuthn Related Origin Requests), at <hosted origin>/.well-known/webauthn",
    tag: 'passkeys',
    tenant: 'issuer',
    auth: 'none',
    status: 200,
    response: RelatedOriginsResponse,
    errors: ['TENANT_NOT_FOUND', 'NOT_FOUND'],
    table: [],
  },
} as const satisfies Record<string, RouteDef>;

export const passkeySchemas = { PasskeyResponse, PasskeyCreationOptionsResponse, PasskeyRequestOptionsResponse };
