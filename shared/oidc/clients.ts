import { hashToken, newOpaqueToken } from '../auth/codes.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { type FieldError, fail } from '../errors.ts';
import { newId } from '../random.ts';
import { requireRecentAuthentication } from '../sessions/recent-authentication.ts';
import type { TenantRef } from '../store/keys.ts';
import { type OidcClientChanges, oidcClientRepo, type StoredOidcClient } from '../store/oidc-client-repo.ts';
import { nextUpdatedAt } from '../store/versions.ts';
import { signingKeys } from '../tokens/signing-keys.ts';
import {
  type ClientType,
  type CreateOidcClientRequest,
  DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS,
  DEFAULT_GRANT_TYPES,
  DEFAULT_REFRESH_TOKEN_LIFETIME_SECONDS,
  type GrantType,
  type OidcClientResponse,
  type OidcClientWithSecretResponse,
  redirectUriKind,
  type UpdateOidcClientRequest,
} from './schemas.ts';

/**
 * OpenID Connect clients of the caller's tenant (their secrets are checked at the
 * token endpoint: ./client-auth.ts). Any admin (a user
 * of ADMIN or SUPER_ADMIN, or an API key) may list, read, change and delete
 * them; only a user who signed in within 10 minutes registers one, rotates
 * its secret or changes where it redirects. An API key may not: a client
 * secret is a lasting credential, and a redirect URI is where authorization
 * codes will be sent, so a leaked key must neither plant credentials that
 * outlive its revocation nor point a client's sign-ins at its holder (the
 * reasoning of API key creation, shared/merchants/api-keys.ts).
 */

const CLIENT_ID = /^cli_[0-9a-hjkmnp-tv-z]{20}$/;
/** `cs_` and 32 CSPRNG bytes in base64url (43 characters, 256 bits). */
const SECRET_PREFIX = 'cs_';
/** How often a change lost to a concurrent one is tried again on a fresh read before 409 CONFLICT. */
const UPDATE_ATTEMPTS = 3;

/** Whether a path parameter can name a client at all (`#` and the like never reach a key builder). */
export function isOidcClientId(value: string): boolean {
  return CLIENT_ID.test(value);
}

/** A fresh secret and the only form of it that is stored. */
function newClientSecret(): { secret: string; secretHash: string } {
  const secret = `${SECRET_PREFIX}${newOpaqueToken(32)}`;
  return { secret, secretHash: hashToken(secret) };
}

interface ClientShape {
  type: ClientType;
  grantTypes: readonly GrantType[];
  redirectUris: readonly string[];
  postLogoutRedirectUris: readonly string[];
}

/**
 * The rules between fields, each problem naming its field: `client_credentials`
 * for confidential clients only, `refresh_token` only with
 * `authorization_code`, a native app's private-use scheme for public clients
 * only (a confidential client is a server, reached over https).
 */
export function clientShapeProblems(client: ClientShape): FieldError[] {
  const problems: FieldError[] = [];
  if (client.type === 'public' && client.grantTypes.includes('client_credentials')) {
    problems.push({ path: 'grantTypes', message: 'client_credentials is for confidential clients only' });
  }
  if (client.grantTypes.includes('refresh_token') && !client.grantTypes.includes('authorization_code')) {
    problems.push({ path: 'grantTypes', message: 'refresh_token requires authorization_code' });
  }
  if (client.type === 'confidential') {
    for (const field of ['redirectUris', 'postLogoutRedirectUris'] as const) {
      client[field].forEach((uri, i) => {
        if (redirectUriKind(uri) === 'private-use') {
          problems.push({ path: `${field}.${i}`, message: 'a native app scheme is for public clients only' });
        }
      });
    }
  }
  return problems;
}

function requireShape(client: ClientShape): void {
  const errors = clientShapeProblems(client);
  if (errors.length > 0) {
    throw fail('VALIDATION_FAILED', { detail: errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors });
  }
}

/** OidcClientResponse: the fields named one by one, so the secret's hash never leaks. */
function toResponse(client: StoredOidcClient): OidcClientResponse {
  return {
    clientId: client.clientId,
    name: client.name,
    type: client.type,
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    grantTypes: client.grantTypes,
    firstParty: client.firstParty,
    accessTokenLifetimeSeconds: client.accessTokenLifetimeSeconds,
    refreshTokenLifetimeSeconds: client.refreshTokenLifetimeSeconds,
    idTokenSigningAlg: client.idTokenSigningAlg,
    createdAt: client.createdAt,
    updatedAt: client.updatedAt,
    secretCreatedAt: client.secretCreatedAt,
    createdBy: client.createdBy,
  };
}

/**
 * Registering a client, rotating its secret, changing its redirect URIs or its first-party flag (no consent asked):
 * a user, recently signed in.
 */
function requireRecentUser(deps: Deps, principal: Principal): string {
  if (principal.kind !== 'user') {
    throw fail(
      'FORBIDDEN',
      'API keys cannot register clients, rotate their secrets, or change their redirect URIs or first-party flag',
    );
  }
  requireRecentAuthentication(deps, principal);
  return principal.userId;
}

async function found(deps: Deps, tenant: TenantRef, clientId: string): Promise<StoredOidcClient> {
  const client = isOidcClientId(clientId) ? await oidcClientRepo(deps.store).get(tenant, clientId) : null;
  if (!client) throw fail('NOT_FOUND');
  return client;
}

/** POST /oidc/clients: a confidential client's secret is in this answer only. */
export async function createOidcClient(
  deps: Deps,
  tenant: TenantRef,
  principal: Principal,
  body: CreateOidcClientRequest,
): Promise<OidcClientWithSecretResponse> {
  const createdBy = requireRecentUser(deps, principal);
  const client = {
    type: body.type,
    grantTypes: body.grantTypes ?? DEFAULT_GRANT_TYPES,
    redirectUris: body.redirectUris,
    postLogoutRedirectUris: body.postLogoutRedirectUris ?? [],
  };
  requireShape(client);
  const now = deps.clock.now().toISOString();
  const secret = body.type === 'confidential' ? newClientSecret() : null;
  const stored: StoredOidcClient = {
    clientId: newId(deps.random, 'cli'),
    name: body.name,
    ...client,
    grantTypes: [...client.grantTypes],
    firstParty: body.firstParty ?? false,
    accessTokenLifetimeSeconds: body.accessTokenLifetimeSeconds ?? DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS,
    refreshTokenLifetimeSeconds: body.refreshTokenLifetimeSeconds ?? DEFAULT_REFRESH_TOKEN_LIFETIME_SECONDS,
    idTokenSigningAlg: body.idTokenSigningAlg ?? 'ES256',
    createdAt: now,
    updatedAt: now,
    secretHash: secret?.secretHash ?? null,
    secretCreatedAt: secret ? now : null,
    createdBy,
  };
  // Its signing key published before its first token: a resource server that fetched the JWK Set early has it.
  if (stored.idTokenSigningAlg === 'RS256') await signingKeys(deps).active('RS256');
  await oidcClientRepo(deps.store).create(tenant, stored);
  return { ...toResponse(stored), clientSecret: secret?.secret ?? null };
}

/** GET /oidc/clients: never a secret or its hash. */
export async function listOidcClients(deps: Deps, tenant: TenantRef): Promise<OidcClientResponse[]> {
  return (await oidcClientRepo(deps.store).list(tenant)).map(toResponse);
}

/** GET /oidc/clients/{clientId}: another tenant's id, or none, is 404. */
export async function getOidcClient(deps: Deps, tenant: TenantRef, clientId: string): Promise<OidcClientResponse> {
  return toResponse(await found(deps, tenant, clientId));
}

/** PATCH /oidc/clients/{clientId}: the fields given, judged with the rest of the client as stored. */
export async function updateOidcClient(
  deps: Deps,
  tenant: TenantRef,
  principal: Principal,
  clientId: string,
  body: UpdateOidcClientRequest,
): Promise<OidcClientResponse> {
  const changes: OidcClientChanges = Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined),
  ) as OidcClientChanges;
  // Where codes and logouts are sent, and whether users are asked for consent, are guarded like the secret itself.
  if (
    changes.redirectUris !== undefined ||
    changes.postLogoutRedirectUris !== undefined ||
    changes.firstParty !== undefined
  ) {
    requireRecentUser(deps, principal);
  }
  const repo = oidcClientRepo(deps.store);
  if (changes.idTokenSigningAlg === 'RS256') await signingKeys(deps).active('RS256');
  let seen = await found(deps, tenant, clientId);
  for (let attempt = 1; ; attempt++) {
    const next = { ...seen, ...changes };
    requireShape(next);
    if (Object.keys(changes).length === 0) return toResponse(seen);
    const updatedAt = nextUpdatedAt(deps.clock.now(), seen.updatedAt);
    const written = await repo.update(tenant, clientId, changes, seen.updatedAt, updatedAt);
    if (written === 'UPDATED') return toResponse({ ...next, updatedAt });
    if (written === 'NOT_FOUND' || attempt >= UPDATE_ATTEMPTS) {
      throw written === 'NOT_FOUND' ? fail('NOT_FOUND') : fail('CONFLICT', 'the client is being changed; try again');
    }
    seen = await found(deps, tenant, clientId);
  }
}

/** DELETE /oidc/clients/{clientId}: gone at once; unknown → 404. */
export async function deleteOidcClient(deps: Deps, tenant: TenantRef, clientId: string): Promise<void> {
  if (!isOidcClientId(clientId) || !(await oidcClientRepo(deps.store).delete(tenant, clientId))) {
    throw fail('NOT_FOUND');
  }
}

/**
 * POST /oidc/clients/{clientId}/secret: a new secret, shown in this answer
 * only; the old one's hash is replaced, so it stops matching at once. A public
 * client has no secret to rotate: 409 CONFLICT (the request is well formed;
 * the client's type, which never changes, forbids it).
 */
export async function rotateOidcClientSecret(
  deps: Deps,
  tenant: TenantRef,
  principal: Principal,
  clientId: string,
): Promise<OidcClientWithSecretResponse> {
  requireRecentUser(deps, principal);
  const repo = oidcClientRepo(deps.store);
  for (let attempt = 1; ; attempt++) {
    const seen = await found(deps, tenant, clientId);
    if (seen.type !== 'confidential') throw fail('CONFLICT', 'a public client has no secret to rotate');
    const { secret, secretHash } = newClientSecret();
    const at = nextUpdatedAt(deps.clock.now(), seen.updatedAt);
    const written = await repo.replaceSecret(tenant, clientId, secretHash, seen.updatedAt, at);
    if (written === 'UPDATED') {
      return { ...toResponse({ ...seen, secretCreatedAt: at, updatedAt: at }), clientSecret: secret };
    }
    if (written === 'NOT_FOUND') throw fail('NOT_FOUND');
    if (attempt >= UPDATE_ATTEMPTS) throw fail('CONFLICT', 'the client is being changed; try again');
  }
}
