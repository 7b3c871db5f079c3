/** Routes under /merchants: the caller's tenant, its policy and its admin API keys. */
import * as v from 'valibot';
import { ADMIN_ERRORS, adminRoute, type RouteDef } from '#shared/http/route.ts';
import {
  ApiKeyIdParams,
  ApiKeyResponse,
  CreateApiKeyRequest,
  GenerateApiKeyResponse,
  MerchantIdParams,
  MerchantResponse,
  UpdateMerchantRequest,
} from '#shared/merchants/schemas.ts';

export const merchantRoutes = {
  getMyMerchant: {
    ...adminRoute({ tag: 'merchants' }),
    operationId: 'getMyMerchant',
    method: 'GET',
    path: '/merchants/me',
    entry: 'functions/merchants/get-my-merchant.ts',
    summary: "The caller's merchant: branding, login and signup policy, allowed origins",
    status: 200,
    response: MerchantResponse,
    errors: ADMIN_ERRORS,
    table: [],
  },
  updateMerchant: {
    ...adminRoute({ tag: 'merchants' }),
    operationId: 'updateMerchant',
    method: 'PATCH',
    path: '/merchants/{id}',
    entry: 'functions/merchants/update-merchant.ts',
    summary: "Change the merchant's branding, policy or allowed origins (from the next request on)",
    status: 200,
    params: MerchantIdParams,
    body: UpdateMerchantRequest,
    response: MerchantResponse,
    errors: [...ADMIN_ERRORS, 'NOT_FOUND', 'CONFLICT'],
    // One transaction: the merchant (Update) with the ORIGIN index items (Put, Delete).
    table: ['UpdateItem', 'PutItem', 'DeleteItem'],
  },
  listApiKeys: {
    ...adminRoute({ tag: 'merchants' }),
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/merchants/{id}/api-keys',
    entry: 'functions/merchants/list-api-keys.ts',
    summary: "The merchant's admin API keys (never the keys themselves)",
    status: 200,
    params: MerchantIdParams,
    response: v.array(ApiKeyResponse),
    errors: [...ADMIN_ERRORS, 'NOT_FOUND'],
    table: ['Query'],
  },
  createApiKey: {
    ...adminRoute({ tag: 'merchants' }),
    operationId: 'createApiKey',
    method: 'POST',
    path: '/merchants/{id}/api-keys',
    entry: 'functions/merchants/create-api-key.ts',
    summary: 'Make an admin API key; the whole key is shown in this answer only',
    status: 201,
    params: MerchantIdParams,
    body: CreateApiKeyRequest,
    response: GenerateApiKeyResponse,
    errors: [...ADMIN_ERRORS, 'REAUTHENTICATION_REQUIRED', 'NOT_FOUND'],
    table: ['PutItem'],
  },
  revokeApiKey: {
    ...adminRoute({ tag: 'merchants' }),
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: '/merchants/{id}/api-keys/{keyId}',
    entry: 'functions/merchants/revoke-api-key.ts',
    summary: 'Revoke an admin API key at once (a key may revoke itself)',
    status: 204,
    params: ApiKeyIdParams,
    errors: [...ADMIN_ERRORS, 'NOT_FOUND'],
    table: ['DeleteItem'],
  },
} as const satisfies Record<string, RouteDef>;

export const merchantSchemas = {
  MerchantResponse,
  UpdateMerchantRequest,
  ApiKeyResponse,
  CreateApiKeyRequest,
  GenerateApiKeyResponse,
};
