import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { LocalStack } from '#local/stack.ts';
import { hashToken } from '#shared/auth/codes.ts';
import type { Deps } from '#shared/deps.ts';
import { subjectHashOf } from '#shared/sign-in-providers/flow.ts';
import type { ProviderKind } from '#shared/sign-in-providers/schemas.ts';
import type { TenantRef } from '#shared/store/keys.ts';
import { type ProviderResult, signInProviderRepo } from '#shared/store/sign-in-provider-repo.ts';
import { transact } from '#shared/store/transact.ts';
import { aTenantWith, type TestTenant } from './auth.ts';
import { type Answer, bearer, call, identityApi, post } from './http.ts';
import { issuerOf, localhostFetch } from './oidc.ts';
import { type AuthorizationResponse, callbackRequest } from './upstream/wire.ts';

/**
 * Sign-in providers through the API, the browser's part played by plain requests: the page's PKCE pair, the start,
 * the provider's own authorization (a fake upstream's `authorize`), the delivery of its answer to the tenant's
 * callback, and where the callback sends the browser back. The journeys drive the same with Chromium.
 */

/** A page's PKCE pair (RFC 7636 S256), as the SDK makes it. */
export function aPagePkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Where the callback sent the browser: the page, with `provider_result` or `provider_error`. */
export interface CallbackOutcome {
  status: number;
  location: URL;
  result: string | null;
  error: string | null;
}

/** Anything that signs a browser in at a provider: the fakes' `authorize`. */
export type Upstream = { authorize(url: string | URL, as: never): Promise<AuthorizationResponse> };

export function signInProviderApi(api: { readonly url: string; readonly stack: LocalStack }) {
  const { logIn } = identityApi(() => api.url);
  const hostedSignIn = (tenant: { subdomain: string }) => `${issuerOf(api.stack, tenant)}/sign-in`;

  /** A fresh tenant and its admin, signed in just now (recent enough to add providers). */
  async function anAdminTenant(options: Parameters<typeof aTenantWith>[0] = {}) {
    const tenant = await aTenantWith(options);
    const admin = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
    return { tenant, adminToken: admin.accessToken };
  }

  /** Adds a provider as the tenant's admin; answers the API's answer. */
  function addProvider(tenant: TestTenant, adminToken: string, body: Record<string, unknown>): Promise<Answer> {
    return post(`${api.url}/sign-in-providers`, body, bearer(tenant, adminToken));
  }

  /** POST /auth/providers/{id}/start with a fresh page PKCE pair. */
  async function start(tenant: TestTenant, providerId: string, options: { returnTo?: string } = {}) {
    const pkce = aPagePkce();
    const res = await post(
      `${api.url}/auth/providers/${providerId}/start`,
      { returnTo: options.returnTo ?? hostedSignIn(tenant), codeChallenge: pkce.challenge },
      tenant.headers,
    );
    return { res, ...pkce, authorizationUrl: res.body?.authorizationUrl as string | undefined };
  }

  /** Delivers a provider's answer to the callback it names (on the tenant's issuer host) and reads where it points. */
  async function deliver(
    answer: AuthorizationResponse,
    headers: Record<string, string> = {},
  ): Promise<CallbackOutcome> {
    const request = callbackRequest(answer);
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
    const res = await localhostFetch(request, { redirect: 'manual' });
    const location = new URL(res.headers.get('location') ?? 'http://nowhere.invalid/');
    return {
      status: res.status,
      location,
      result: location.searchParams.get('provider_result'),
      error: location.searchParams.get('provider_error'),
    };
  }

  /** Start, the provider's sign-in as `as`, the callback: where the browser ends up, and the page's verifier. */
  async function throughProvider<U extends Upstream>(
    tenant: TestTenant,
    providerId: string,
    upstream: U,
    as: Parameters<U['authorize']>[1],
  ) {
    const started = await start(tenant, providerId);
    expect(started.res.status, started.res.text).toBe(200);
    const outcome = await deliver(await upstream.authorize(started.authorizationUrl ?? '', as as never));
    return { ...outcome, verifier: started.verifier };
  }

  /** POST /auth/providers/sign-in. */
  function signIn(tenant: TestTenant, result: string, codeVerifier: string): Promise<Answer> {
    return post(`${api.url}/auth/providers/sign-in`, { result, codeVerifier }, tenant.headers);
  }

  /** The whole sign-in: it must come back with a result, which is then taken. */
  async function signInThrough<U extends Upstream>(
    tenant: TestTenant,
    providerId: string,
    upstream: U,
    as: Parameters<U['authorize']>[1],
  ): Promise<Answer> {
    const outcome = await throughProvider(tenant, providerId, upstream, as);
    expect(outcome.error, String(outcome.location)).toBeNull();
    return signIn(tenant, outcome.result ?? '', outcome.verifier);
  }

  /** GET /users/me/identities. */
  function identities(tenant: TestTenant, token: string): Promise<Answer> {
    return call(api.url, 'GET', '/users/me/identities', bearer(tenant, token));
  }

  return {
    anAdminTenant,
    addProvider,
    start,
    deliver,
    throughProvider,
    signIn,
    signInThrough,
    identities,
    hostedSignIn,
  };
}

/** A provider account linked to a user, written straight to the store (no provider involved); its subject. */
export async function aStoredLink(
  deps: Deps,
  tenant: TenantRef,
  userId: string,
  provider: { id: string; kind: ProviderKind },
): Promise<string> {
  const subject = `subject-${randomBytes(6).toString('hex')}`;
  const items = signInProviderRepo(deps.store).linkItems(tenant, userId, {
    providerId: provider.id,
    kind: provider.kind,
    subjectHash: subjectHashOf(tenant, provider.id, subject),
    email: `${subject}@provider.test`,
    linkedAt: new Date().toISOString(),
    lastUsedAt: null,
  });
  const failed = await transact(deps.store, items);
  expect([...failed]).toEqual([]);
  return subject;
}

/**
 * What a provider proved, waiting for the page, written straight to the store as the callback writes it: a first
 * sign-in of a new verified address unless `fields` says otherwise. The page's result and verifier.
 */
export async function aStoredResult(
  deps: Deps,
  tenant: TenantRef,
  fields: Partial<ProviderResult> & { providerId: string; subject?: string },
): Promise<{ result: string; codeVerifier: string }> {
  const pkce = aPagePkce();
  const result = randomBytes(32).toString('base64url');
  const { subject = `subject-${randomBytes(6).toString('hex')}`, ...stored } = fields;
  await signInProviderRepo(deps.store).putResult(tenant, hashToken(result), {
    intent: 'SIGN_IN',
    pageChallenge: pkce.challenge,
    subjectHash: subjectHashOf(tenant, fields.providerId, subject),
    email: `${subject}@provider.test`,
    emailVerified: true,
    firstName: null,
    lastName: null,
    userId: null,
    sessionId: null,
    linkOnly: false,
    expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    ...stored,
  });
  return { result, codeVerifier: pkce.verifier };
}
