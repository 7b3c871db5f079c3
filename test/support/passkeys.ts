import { expect } from 'vitest';
import type { LocalStack } from '#local/stack.ts';
import { activityItem } from '#shared/activity/record.ts';
import { passkeyIdOf } from '#shared/passkeys/credentials.ts';
import { type Passkey, passkeyRepo } from '#shared/store/passkey-repo.ts';
import { transact } from '#shared/store/transact.ts';
import { makeTestDeps } from './deps.ts';
import { bearer, post, type WithTenantHeaders } from './http.ts';
import { issuerOf } from './oidc.ts';
import { answer, register, type SoftCredential } from './soft-authenticator.ts';

type Tenant = WithTenantHeaders & { app: string; mid: string; subdomain: string };

/** What the browser of the tenant's hosted pages would sign: its origin, and the tenant's RP ID. */
export function hostedCeremony(stack: LocalStack, tenant: Tenant, challenge: string) {
  return { challenge, origin: issuerOf(stack, tenant), rpId: `${tenant.subdomain}.localhost` };
}

/** Adds a passkey through the API for the holder of `token` (recently signed in): the credential and the passkey. */
export async function addPasskeyThroughApi(
  apiUrl: string,
  stack: LocalStack,
  tenant: Tenant,
  token: string,
): Promise<{ credential: SoftCredential; passkey: { id: string; name: string } }> {
  const options = await post(`${apiUrl}/users/me/passkeys/options`, {}, bearer(tenant, token));
  expect(options.status, options.text).toBe(200);
  const { credential, json } = register({
    ...hostedCeremony(stack, tenant, options.body.options.challenge),
    userHandle: options.body.options.user.id,
  });
  const res = await post(`${apiUrl}/users/me/passkeys`, { credential: json }, bearer(tenant, token));
  expect(res.status, res.text).toBe(201);
  return { credential, passkey: res.body };
}

/** A passkey's answer to a fresh sign-in challenge of the tenant: the body of POST /auth/passkeys/sign-in. */
export async function passkeySignInBody(apiUrl: string, stack: LocalStack, tenant: Tenant, credential: SoftCredential) {
  const options = await post(`${apiUrl}/auth/passkeys/options`, {}, tenant.headers);
  expect(options.status, options.text).toBe(200);
  return { credential: answer(credential, hostedCeremony(stack, tenant, options.body.options.challenge)) };
}

/** A passkey's answer to a reauthentication challenge of the session behind `token`. */
export async function passkeyReauthBody(
  apiUrl: string,
  stack: LocalStack,
  tenant: Tenant,
  token: string,
  credential: SoftCredential,
) {
  const options = await post(`${apiUrl}/auth/reauthenticate/passkey/options`, {}, bearer(tenant, token));
  expect(options.status, options.text).toBe(200);
  return { credential: answer(credential, hostedCeremony(stack, tenant, options.body.options.challenge)) };
}

/**
 * A passkey stored straight in the table for a user (no ceremony): for tests of what an admin does with a user's
 * passkeys, whose owner never signs in. Its key is no real key.
 */
export async function aStoredPasskey(tenant: { app: string; mid: string }, userId: string): Promise<Passkey> {
  const deps = makeTestDeps();
  const credentialId = Buffer.from(`stored-${userId}-${Date.now()}-${Math.random()}`).toString('base64url');
  const passkey: Passkey = {
    id: passkeyIdOf(tenant, credentialId),
    userId,
    credentialId,
    publicKey: 'AA',
    counter: 0,
    transports: [],
    deviceType: 'multiDevice',
    backedUp: true,
    aaguid: '00000000-0000-0000-0000-000000000000',
    name: 'Stored passkey',
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
  };
  const failed = await transact(deps.store, {
    ...passkeyRepo(deps.store).addItems(tenant, passkey, 0),
    activity: activityItem(deps, tenant, userId, 'PASSKEY_ADDED', { ip: '127.0.0.1', userAgent: '', actorId: userId }),
  });
  expect([...failed]).toEqual([]);
  return passkey;
}
