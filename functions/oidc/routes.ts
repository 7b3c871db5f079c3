/**
 * Routes under /oidc/clients: the OpenID Connect clients of the caller's
 * tenant. Admin routes; registering a client, rotating its secret and
 * changing its redirect URIs or first-party flag take a user who signed in
 * within 10 minutes (API keys get 403 FORBIDDEN, as for API key creation).
 */
import * as v from 'valibot';
import { ADMIN_ERRORS, adminRoute, type RouteDef, SIGNS_TOKENS } from '#shared/http/route.ts';
import {
  CreateOidcClientRequest,
  OidcClientIdParams,
  OidcClientResponse,
  OidcClientWithSecretResponse,
  UpdateOidcClientRequest,
} from '#shared/oidc/schemas.ts';

export const oidcRoutes = {
  listOidcClients: {
    ...adminRoute({ tag: 'oidc' }),
    operationId: 'listOidcClients',
    method: 'GET',
    path: '/oidc/clients',
    entry: 'functions/oidc/list-oidc-clients.ts',
    summary: "The tenant's OpenID Connect clients, oldest first (never a secret)",
    status: 200,
    response: v.array(OidcClientResponse),
    errors: ADMIN_ERRORS,
    table: ['Query'],
  },
  createOidcClient: {
    ...adminRoute({ tag: 'oidc' }),
    operationId: 'createOidcClient',
    method: 'POST',
    path: '/oidc/clients',
    entry: 'functions/oidc/create-oidc-client.ts',
    summary: "Register an OpenID Connect client; a confidential client's secret is shown in this answer only",
    status: 201,
    body: CreateOidcClientRequest,
    response: OidcClientWithSecretResponse,
    errors: [...ADMIN_ERRORS, 'REAUTHENTICATION_REQUIRED'],
    table: ['PutItem'],
    // An RS256 client: the RS256 signing key is made (published) now, before its first token.
    kms: SIGNS_TOKENS,
  },
  getOidcClient: {
    ...adminRoute({ tag: 'oidc' }),
    operationId: 'getOidcClient',
    method: 'GET',
    path: '/oidc/clients/{clientId}',
    entry: 'functions/oidc/get-oidc-client.ts',
    summary: 'One OpenID Connect client of the tenant (never its secret)',
    status: 200,
    params: OidcClientIdParams,
    response: OidcClientResponse,
    errors: [...ADMIN_ERRORS, 'NOT_FOUND'],
    table: ['GetItem'],
  },
  updateOidcClient: {
    ...adminRoute({ tag: 'oidc' }),
    operationId: 'updateOidcClient',
    method: 'PATCH',
    path: '/oidc/clients/{clientId}',
    entry: 'functions/oidc/update-oidc-client.ts',
    summary:
      'Change an OpenID Connect client (any field but its id and type, under the same rules; its redirect URIs only by a user signed in within 10 minutes)',
    status: 200,
    params: OidcClientIdParams,
    body: UpdateOidcClientRequest,
    response: OidcClientResponse,
    errors: [...ADMIN_ERRORS, 'REAUTHENTICATION_REQUIRED', 'NOT_FOUND', 'CONFLICT'],
    // Read, then a conditional UpdateItem on `updatedAt` (re-read when the condition fails).
    table: ['GetItem', 'UpdateItem'],
    // A change to RS256: the RS256 signing key is made (published) now, before the client's next token.
    kms: SIGNS_TOKENS,
  },
  deleteOidcClient: {
    ...adminRoute({ tag: 'oidc' }),
    operationId: 'deleteOidcClient',
    method: 'DELETE',
    path: '/oidc/clients/{clientId}',
    entry: 'functions/oidc/delete-oidc-client.ts',
    summary: 'Delete an OpenID Connect client at once',
    status: 204,
    params: OidcClientIdParams,
    errors: [...ADMIN_ERRORS, 'NOT_FOUND'],
    table: ['DeleteItem'],
  },
  rotateOidcClientSecret: {
    ...adminRoute({ tag: 'oidc' }),
    operationId: 'rotateOidcClientSecret',
    method: 'POST',
    path: '/oidc/clients/{clientId}/secret',
    entry: 'functions/oidc/rotate-oidc-client-secret.ts',
    summary:
      'A new secret for a confidential client, shown in this answer only; the old one stops working (a public client: 409 CONFLICT)',
    status: 200,
    params: OidcClientIdParams,
    response: OidcClientWithSecretResponse,
    errors: [...ADMIN_ERRORS, 'REAUTHENTICATION_REQUIRED', 'NOT_FOUND', 'CONFLICT'],
    table: ['GetItem', 'UpdateItem'],
  },
} as const satisfies Record<string, RouteDef>;

export const oidcSchemas = {
  OidcClientResponse,
  OidcClientWithSecretResponse,
  CreateOidcClientRequest,
  UpdateOidcClientRequest,
};
