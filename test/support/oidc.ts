import { expect } from 'vitest';
import { localhostFetch as reachLocalhost } from '#local/localhost-fetch.ts';
import type { LocalStack } from '#local/stack.ts';
import { recordHostedAnswer } from './answer-recorder.ts';
import type { TestTenant } from './auth.ts';
import { bearer, post } from './http.ts';

/**
 * The OpenID Provider of a test tenant on the local stack: its issuer (the tenant's hosted origin,
 * `http://<subdomain>.localhost:<port>`), a fetch that reaches it from Node, clients registered through
 * the admin API, and the sign-in page's steps driven through the API (the browser journeys drive the
 * page itself).
 */

/** The issuer of a tenant: its hosted origin on this stack. */
export function issuerOf(stack: LocalStack, tenant: { subdomain: string }): string {
  return `http://${tenant.subdomain}.localhost:${stack.port}`;
}

/**
 * local/localhost-fetch.ts's fetch (it reaches `*.localhost`, which Node's fetch cannot), whose answers from a
 * tenant's hosted origin are checked against the OpenAPI document like every other answer of the stack
 * (check-answers.ts). Given to openid-client and the other relying-party libraries as their fetch.
 */
export const localhostFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await reachLocalhost(request);
  const url = new URL(request.url);
  if (url.hostname.endsWith('.localhost')) recordHostedAnswer(url, request.method, response);
  return response;
};

export interface RegisteredClient {
  clientId: string;
  clientSecret: string | null;
}

/** Registers a client as the tenant's admin (signed in just now, as registration asks). */
export async function registerClient(
  apiUrl: string,
  admin: { headers: Record<string, string> },
  body: Record<string, unknown>,
): Promise<RegisteredClient> {
  const res = await post(`${apiUrl}/oidc/clients`, body, admin.headers);
  expect(res.status, res.text).toBe(201);
  return { clientId: res.body.clientId, clientSecret: res.body.clientSecret };
}

/** GETs an issuer URL without following redirects: the status and where it points. */
export async function visit(url: string | URL): Promise<{ status: number; location: URL | null; text: string }> {
  const res = await localhostFetch(String(url), { redirect: 'manual' });
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location) : null, text: await res.text() };
}

/**
 * What the hosted sign-in page does with a signed-in user's bearer: follow the authorization URL to the
 * page, then complete the request (with `consent` when asked). Answers where the browser would go next.
 */
export async function authorizeAs(
  apiUrl: string,
  tenant: TestTenant,
  accessToken: string,
  authorizationUrl: string | URL,
  body: Record<string, unknown> = {},
): Promise<{ status: number; redirectTo: URL | null; problem: any; requestId: string }> {
  const page = await visit(authorizationUrl);
  expect(page.status, page.text).toBe(302);
  const requestId = page.location?.searchParams.get('request');
  expect(page.location?.pathname, String(page.location)).toBe('/authorize');
  expect(requestId).toEqual(expect.any(String));
  const res = await post(
    `${apiUrl}/oidc/authorization-requests/${requestId}/complete`,
    body,
    bearer(tenant, accessToken),
  );
  return {
    status: res.status,
    redirectTo: res.status === 200 ? new URL(res.body.redirectTo) : null,
    problem: res.status === 200 ? undefined : res.body,
    requestId: requestId as string,
  };
}

/** A fixed PKCE pair for requests whose code no test redeems with another verifier. */
export const TEST_PKCE = {
  verifier: 'test-verifier-0123456789-abcdefghijklmnopqrstuvwxyz',
  challenge: 'nw4Cig7sk_DT0QSX9Qn-3UKs33fmbbp8bRuv1b5-wXw',
};

/** A new authorization request of a client, waiting for its sign-in page: its id. */
export async function aPendingAuthorization(
  stack: LocalStack,
  tenant: { subdomain: string },
  clientId: string,
  redirectUri: string,
): Promise<string> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'openid email',
    code_challenge: TEST_PKCE.challenge,
    code_challenge_method: 'S256',
    state: 'pending',
  });
  const page = await visit(`${issuerOf(stack, tenant)}/api/v1/oidc/authorize?${query}`);
  const requestId = page.location?.searchParams.get('request');
  expect(requestId, page.text || String(page.location)).toEqual(expect.stringMatching(/^oar_/));
  return requestId as string;
}

/** A new RP-initiated logout of a client, waiting for its sign-out page: its id. */
export async function aPendingLogout(stack: LocalStack, tenant: { subdomain: string }, clientId: string) {
  const page = await visit(`${issuerOf(stack, tenant)}/api/v1/oidc/end-session?client_id=${clientId}`);
  const logoutId = page.location?.searchParams.get('logout');
  expect(logoutId, page.text || String(page.location)).toEqual(expect.stringMatching(/^olr_/));
  return logoutId as string;
}
