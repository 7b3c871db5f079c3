import type { Principal } from '../auth/principal.ts';
import type { Config, Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import { BASE_PATH } from '../http/route.ts';
import { newId } from '../random.ts';
import { requireRecentAuthentication } from '../sessions/recent-authentication.ts';
import type { TenantRef } from '../store/keys.ts';
import { merchantRepo } from '../store/merchant-repo.ts';
import { type StoredSignInProvider, signInProviderRepo } from '../store/sign-in-provider-repo.ts';
import { type TransactItem, transact } from '../store/transact.ts';
import { hostedOrigin } from '../tenancy/hosted-pages.ts';
import type { Merchant } from '../tenancy/types.ts';
import { issuerFor, KINDS } from './kinds.ts';
import {
  type CreateSignInProviderRequest,
  MAX_PROVIDERS_PER_TENANT,
  type SignInProviderButton,
  type SignInProviderResponse,
  type UpdateSignInProviderRequest,
} from './schemas.ts';
import { discoverEndpoints } from './upstream.ts';

/** The callback every provider of a tenant sends its users back to: on the tenant's hosted origin (its issuer). */
export const CALLBACK_PATH = '/auth/providers/callback';

export function callbackUrl(config: Pick<Config, 'hostedPagesOrigin'>, tenant: Pick<Merchant, 'subdomain'>): string {
  const origin = hostedOrigin(config, tenant.subdomain);
  if (!origin) throw fail('FORBIDDEN', 'sign-in providers need the hosted pages (HOSTED_PAGES_ORIGIN)');
  return `${origin}${BASE_PATH}${CALLBACK_PATH}`;
}

/** The vault context of a provider's secret: it decrypts for this tenant's provider only. */
export function secretContext(tenant: TenantRef, providerId: string): Record<string, string> {
  return { purpose: 'sign-in-provider', app: tenant.app, mid: tenant.mid, provider: providerId };
}

export function toProviderResponse(
  deps: Deps,
  tenant: Merchant,
  provider: StoredSignInProvider,
): SignInProviderResponse {
  return {
    id: provider.id,
    kind: provider.kind,
    displayName: provider.displayName,
    clientId: provider.clientId,
    issuer: provider.issuer,
    microsoftTenant: provider.microsoftTenant,
    scopes: provider.scopes,
    enabled: provider.enabled,
    trustEmail: provider.trustEmail,
    order: provider.order,
    redirectUri: callbackUrl(deps.config, tenant),
    apple: provider.apple,
    secretSetAt: provider.secretSetAt,
    createdAt: provider.createdAt,
    updatedAt: provider.updatedAt,
  };
}

/**
 * Every provider route: a signed-in admin. An API key never reads or changes a provider: a provider decides who
 * may sign in to every account of the tenant, and its secret is the tenant's at the provider.
 */
function requireAdminUser(principal: Principal): void {
  if (principal.kind !== 'user') throw fail('FORBIDDEN', 'API keys cannot read or change sign-in providers');
}

/** Changes need a recent sign-in too: a stolen session must not turn on a provider of its own. */
function requireRecentAdmin(deps: Deps, principal: Principal): void {
  requireAdminUser(principal);
  requireRecentAuthentication(deps, principal);
}

/** The sign-in page's buttons: the providers turned on, in order. */
function buttonsOf(providers: StoredSignInProvider[]): SignInProviderButton[] {
  return providers
    .filter((provider) => provider.enabled)
    .sort((a, b) => a.order - b.order || a.createdAt.localeCompare(b.createdAt))
    .map(({ id, kind, displayName }) => ({ id, kind, displayName }));
}

export async function listSignInProviders(deps: Deps, tenant: Merchant, principal: Principal) {
  requireAdminUser(principal);
  const providers = await signInProviderRepo(deps.store).list(tenant);
  return providers.map((provider) => toProviderResponse(deps, tenant, provider));
}

async function found(deps: Deps, tenant: TenantRef, providerId: string): Promise<StoredSignInProvider> {
  const provider = await signInProviderRepo(deps.store).get(tenant, providerId);
  if (!provider) throw fail('NOT_FOUND');
  return provider;
}

export async function getSignInProvider(deps: Deps, tenant: Merchant, principal: Principal, providerId: string) {
  requireAdminUser(principal);
  return toProviderResponse(deps, tenant, await found(deps, tenant, providerId));
}

/** Which fields each kind takes: an Apple key or a secret, an issuer for OIDC only, a directory for Entra ID only. */
function checkFieldsOfKind(
  kind: StoredSignInProvider['kind'],
  body: UpdateSignInProviderRequest,
  creating: boolean,
): void {
  if (kind === 'APPLE') {
    if (body.clientSecret !== undefined) throw failField('clientSecret', 'Apple takes its key (apple), not a secret');
    if (creating && body.apple === undefined) throw failField('apple', 'is required for Apple');
  } else {
    if (body.apple !== undefined) throw failField('apple', 'is for Apple only');
    if (creating && body.clientSecret === undefined) throw failField('clientSecret', 'is required');
  }
  if (kind !== 'OIDC' && body.issuer !== undefined) throw failField('issuer', 'is for OIDC providers only');
  if (kind !== 'MICROSOFT' && body.microsoftTenant !== undefined) {
    throw failField('microsoftTenant', 'is for Microsoft only');
  }
}

/** The scopes asked: the admin's or the kind's, with `openid` always asked of an OpenID provider. */
function scopesOf(kind: StoredSignInProvider['kind'], scopes: string[] | undefined): string[] {
  const asked = scopes ?? KINDS[kind].scopes;
  return KINDS[kind].openid && !asked.includes('openid') ? ['openid', ...asked] : [...new Set(asked)];
}

async function encryptSecret(deps: Deps, tenant: TenantRef, providerId: string, secret: string): Promise<string> {
  return deps.vault.encrypt(new TextEncoder().encode(secret), secretContext(tenant, providerId));
}

/** How often a change that met another admin's change of another provider is tried again, on a fresh read. */
const SAVE_ATTEMPTS = 5;

/**
 * Writes a provider change (`write`) and the merchant's buttons in one transaction, the buttons made by `change` from
 * the providers read, over the buttons' version read. Another admin's change of another provider meanwhile moves that
 * version: the providers and the version are read again and the change retried, so neither change is lost. A change of
 * the same provider meanwhile (its `updatedAt`) answers 409 CONFLICT: read it again.
 */
async function saveWithButtons(
  deps: Deps,
  tenant: Merchant,
  read: StoredSignInProvider[],
  write: TransactItem,
  change: (providers: StoredSignInProvider[]) => StoredSignInProvider[],
): Promise<void> {
  const repo = signInProviderRepo(deps.store);
  let providers = read;
  let version = tenant.signInProvidersVersion;
  for (let attempt = 1; ; attempt++) {
    const buttons = repo.buttonsItem(tenant, version, buttonsOf(change(providers)));
    const failed = await transact(deps.store, { provider: write, buttons }, { retryConflicts: true });
    if (failed.size === 0) return;
    if (failed.has('provider') || attempt >= SAVE_ATTEMPTS) {
      throw fail('CONFLICT', 'the sign-in providers changed meanwhile; read them again and retry');
    }
    const [fresh, merchant] = await Promise.all([repo.list(tenant), merchantRepo(deps.store).get(tenant)]);
    providers = fresh;
    version = merchant?.signInProvidersVersion ?? 0;
  }
}

/** POST /sign-in-providers: its metadata read from the provider (OpenID discovery) before anything is stored. */
export async function createSignInProvider(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: CreateSignInProviderRequest,
) {
  requireRecentAdmin(deps, principal);
  checkFieldsOfKind(body.kind, body, true);
  const displayName = body.displayName ?? KINDS[body.kind].displayName;
  if (!displayName) throw failField('displayName', 'is required for an OIDC provider');
  if (body.kind === 'OIDC' && !body.issuer) throw failField('issuer', 'is required for an OIDC provider');
  const others = await signInProviderRepo(deps.store).list(tenant);
  if (others.length >= MAX_PROVIDERS_PER_TENANT) throw fail('PROVIDER_LIMIT_REACHED');
  const issuer = issuerFor(deps.config, body.kind, body);
  const endpoints = await discoverEndpoints(deps.config, body.kind, issuer);
  const now = deps.clock.now().toISOString();
  const id = newId(deps.random, 'sip');
  const secret = body.kind === 'APPLE' ? (body.apple?.privateKey ?? '') : (body.clientSecret ?? '');
  const provider: StoredSignInProvider = {
    id,
    kind: body.kind,
    displayName,
    clientId: body.clientId,
    secretCiphertext: await encryptSecret(deps, tenant, id, secret),
    apple: body.apple ? { teamId: body.apple.teamId, keyId: body.apple.keyId } : null,
    issuer,
    microsoftTenant: body.kind === 'MICROSOFT' ? (body.microsoftTenant ?? 'common') : null,
    scopes: scopesOf(body.kind, body.scopes),
    enabled: body.enabled ?? true,
    trustEmail: body.trustEmail ?? false,
    order: body.order ?? others.reduce((last, other) => Math.max(last, other.order + 1), 0),
    endpoints,
    secretSetAt: now,
    createdAt: now,
    updatedAt: now,
  };
  await saveWithButtons(
    deps,
    tenant,
    others,
    signInProviderRepo(deps.store).saveItem(tenant, provider, null),
    (list) => [...list.filter((other) => other.id !== provider.id), provider],
  );
  return toProviderResponse(deps, tenant, provider);
}

/** PATCH /sign-in-providers/{providerId}: a new issuer or directory reads the provider's metadata again. */
export async function updateSignInProvider(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  providerId: string,
  body: UpdateSignInProviderRequest,
) {
  requireRecentAdmin(deps, principal);
  const all = await signInProviderRepo(deps.store).list(tenant);
  const read = all.find((provider) => provider.id === providerId);
  if (!read) throw fail('NOT_FOUND');
  checkFieldsOfKind(read.kind, body, false);
  const now = deps.clock.now().toISOString();
  const microsoftTenant = read.kind === 'MICROSOFT' ? (body.microsoftTenant ?? read.microsoftTenant) : null;
  const issuer = issuerFor(deps.config, read.kind, { issuer: body.issuer ?? read.issuer, microsoftTenant });
  const endpoints = issuer === read.issuer ? read.endpoints : await discoverEndpoints(deps.config, read.kind, issuer);
  const secret = read.kind === 'APPLE' ? body.apple?.privateKey : body.clientSecret;
  const provider: StoredSignInProvider = {
    ...read,
    displayName: body.displayName ?? read.displayName,
    clientId: body.clientId ?? read.clientId,
    ...(secret === undefined
      ? {}
      : { secretCiphertext: await encryptSecret(deps, tenant, read.id, secret), secretSetAt: now }),
    apple: body.apple ? { teamId: body.apple.teamId, keyId: body.apple.keyId } : read.apple,
    issuer,
    microsoftTenant,
    scopes: body.scopes ? scopesOf(read.kind, body.scopes) : read.scopes,
    enabled: body.enabled ?? read.enabled,
    trustEmail: body.trustEmail ?? read.trustEmail,
    order: body.order ?? read.order,
    endpoints,
    updatedAt: now,
  };
  await saveWithButtons(
    deps,
    tenant,
    all,
    signInProviderRepo(deps.store).saveItem(tenant, provider, read.updatedAt),
    (list) => list.map((other) => (other.id === provider.id ? provider : other)),
  );
  return toProviderResponse(deps, tenant, provider);
}

/**
 * DELETE /sign-in-providers/{providerId}: its button goes, and its links sign in no more (they stay listed on their
 * users' accounts, as a provider that is gone, until unlinked or the user is deleted).
 */
export async function deleteSignInProvider(deps: Deps, tenant: Merchant, principal: Principal, providerId: string) {
  requireRecentAdmin(deps, principal);
  const all = await signInProviderRepo(deps.store).list(tenant);
  const read = all.find((provider) => provider.id === providerId);
  if (!read) throw fail('NOT_FOUND');
  await saveWithButtons(deps, tenant, all, signInProviderRepo(deps.store).deleteItem(tenant, read), (list) =>
    list.filter((other) => other.id !== providerId),
  );
}
