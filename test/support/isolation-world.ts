import { beforeAll, expect } from 'vitest';
import { mailSuppressionRepo } from '#shared/store/mail-suppression-repo.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { adminApi, type Caller, type RoleResponse } from './admin.ts';
import { aUser, latestCodeTo, mailsTo, type TestTenant, type TestUser } from './auth.ts';
import { makeTestDeps } from './deps.ts';
import type { Answer } from './http.ts';
import { aPendingAuthorization, aPendingLogout } from './oidc.ts';
import { addPasskeyThroughApi } from './passkeys.ts';
import type { useLocalStack } from './server.ts';
import { aStoredLink, aStoredResult } from './sign-in-providers.ts';
import type { SoftCredential } from './soft-authenticator.ts';
import {
  expectUnchanged,
  type Item,
  itemsOfTenants,
  snapshotTenant,
  type TenantSnapshot,
  tenantItems,
} from './tenant-snapshot.ts';
import { aStoredWebhookAttempt, aStoredWebhookEvent, LOOPBACK_HOOK } from './webhooks.ts';

/**
 * The two tenants of the tenant isolation suite
 * (test/http/security/tenant-isolation.test.ts), A and B: the same users under
 * the same e-mail addresses, the same role names, and every kind of item and
 * pending challenge. `useIsolationWorlds(api)` makes them before the file's
 * first test; `A`, `B` and `baseline` (every item of B once made) are read
 * from here afterwards (live bindings, set by that hook). The requests aimed
 * at them are in isolation-recipes.ts.
 */

/** The test file's local stack, as given to `useIsolationWorlds`. */
export let api: ReturnType<typeof useLocalStack>;
const { call, logIn, bearer, aRole, grant, listRoles } = adminApi(() => api.url);
const deps = makeTestDeps();

const run = `${process.pid}-${Date.now().toString(36)}`;
export const ORIGIN = 'https://shop.example';
/** Where the world's OpenID Connect client is sent back. */
export const OIDC_REDIRECT_URI = 'https://shop.example/callback';
/** The addresses both tenants use, each for the same kind of user. */
export const EMAIL = {
  owner: `iso-owner-${run}@shop.test`,
  member: `iso-member-${run}@shop.test`,
  totp: `iso-totp-${run}@shop.test`,
  recover: `iso-recover-${run}@shop.test`,
  victim: `iso-victim-${run}@shop.test`,
  invited: `iso-invited-${run}@shop.test`,
  pending: `iso-pending-${run}@shop.test`,
  /** The member's new address in the pending e-mail change. */
  changed: `iso-changed-${run}@shop.test`,
};
export const NEW_PASSWORD = `Isolated-${run}-7q`;

export interface Mailed {
  id: string;
  code: string;
}

/** One tenant and everything it holds. */
export interface World {
  label: 'A' | 'B';
  tenant: TestTenant;
  /** The first admin (SUPER_ADMIN), signed in. */
  owner: Caller;
  /** The admin API key the tests call with, and a spare one they aim at. */
  apiKey: { keyId: string; key: string };
  spareKey: { keyId: string; key: string };
  /** A confidential, first-party OpenID Connect client, registered by the owner. */
  oidcClient: { clientId: string };
  /** A pending authorization request of that client, and a pending logout (ids of the sign-in and sign-out pages). */
  oidcRequestId: string;
  oidcLogoutId: string;
  /** A plain user (DEFAULT and Gardener) with three sessions: its caller's, a spare one, and one refreshed once. */
  member: Caller & {
    user: TestUser;
    sessionId: string;
    spareSessionId: string;
    refreshToken: string;
    rotatedRefreshToken: string;
    /** A passkey of the member, added through the API: its id, and the authenticator's credential that signs for it. */
    passkey: { id: string; credential: SoftCredential };
  };
  /**
   * A sign-in provider (GitHub, added by the owner; never contacted), the member's account there linked, and what it
   * proved for two pages still to take it: a first sign-in, and a link the member's session started.
   */
  provider: { id: string };
  providerResults: {
    signIn: { result: string; codeVerifier: string };
    link: { result: string; codeVerifier: string };
  };
  /**
   * A webhook endpoint (on loopback, added by the owner; nothing is delivered: this stack runs no dispatcher), an event
   * in the tenant's log, and an attempt in the endpoint's log with the cursor just after it.
   */
  webhook: { endpointId: string; eventId: string; attemptId: string; cursor: string };
  totpUser: TestUser;
  recoverUser: TestUser;
  victim: TestUser;
  roles: { gardener: RoleResponse; superAdmin: RoleResponse; admin: RoleResponse; all: RoleResponse[] };
  invitation: { userId: string; token: string };
  challenges: {
    signup: Mailed;
    emailChange: Mailed;
    reset: Mailed;
    loginOtp: Mailed;
    loginTotp: { id: string };
    /** The member's POST /auth/reauthenticate e-mail code, bound to its caller session. */
    reauth: Mailed;
  };
  /** `nextCursor` of the member's activity read one record at a time. */
  activityCursor: string;
  memberActivityIds: string[];
  plant: { id: number; name: string };
}

export let A: World;
export let B: World;
/** Every item of B (both tables) once the fixtures were made: the state every attack must leave. */
export let baseline: TenantSnapshot;

export const expectStatus = (res: Answer, status: number, what: string) =>
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
export const sessionOf = (refreshToken: string) => refreshToken.split('.')[2] ?? '';

// ---------------------------------------------------------------- fixtures

/** The part of a tenant that needs no mail read (so both tenants are made at once). */
async function aWorld(label: 'A' | 'B', plantId: number): Promise<World> {
  const created = await createTenant(deps, {
    name: `Isolation ${label} ${run}`,
    adminEmail: EMAIL.owner,
    origins: [ORIGIN],
    subdomain: `iso-${label.toLowerCase()}-${run}`,
    loginMode: 'PASSWORD_OR_OTP_EMAIL',
    signupMode: 'OPEN',
  });
  const tenant: TestTenant = {
    ...created,
    headers: { 'content-type': 'application/json', 'x-app-id': created.app, 'x-mid-key': created.mid },
  };
  const [ownerTokens, memberUser, totpUser, recoverUser, victim] = await Promise.all([
    logIn(tenant, created.adminEmail, created.adminPassword),
    aUser(tenant, { email: EMAIL.member }),
    aUser(tenant, { email: EMAIL.totp, totp: true }),
    aUser(tenant, { email: EMAIL.recover }),
    aUser(tenant, { email: EMAIL.victim }),
  ]);
  // The victim's address hard-bounced (SES's feedback): mail to it is suppressed.
  await mailSuppressionRepo(deps.store).record(
    tenant,
    EMAIL.victim,
    { reason: 'BOUNCE', at: new Date().toISOString(), mailKind: 'LOGIN_CODE', feedbackId: null },
    new Date(),
  );
  const owner: Caller = {
    userId: created.adminUserId,
    token: ownerTokens.accessToken,
    refreshToken: ownerTokens.refreshToken,
    headers: bearer(tenant, ownerTokens.accessToken),
  };

  // Three sessions of the member (devices and LOGIN activity come with them); the third is refreshed once.
  const signIn = () => logIn(tenant, memberUser.email, memberUser.password);
  const [mine, spare, refreshed] = await Promise.all([signIn(), signIn(), signIn()]);
  const rotation = await call('POST', '/auth/refresh', tenant.headers, { refreshToken: refreshed.refreshToken });
  expectStatus(rotation, 200, `${label}: refresh`);
  const memberPasskey = await addPasskeyThroughApi(api.url, api.stack, tenant, mine.accessToken);

  const newKey = async () => {
    const res = await call('POST', `/merchants/${tenant.id}/api-keys`, owner.headers, { label: 'isolation' });
    expectStatus(res, 201, `${label}: api key`);
    return { keyId: res.body.keyId as string, key: res.body.apiKey as string };
  };
  const [apiKey, spareKey, gardener] = await Promise.all([newKey(), newKey(), aRole(owner, 10, 'Gardener')]);
  await grant(owner, memberUser.id, gardener.id);
  const oidc = await call('POST', '/oidc/clients', owner.headers, {
    name: 'Isolation',
    type: 'confidential',
    redirectUris: [OIDC_REDIRECT_URI],
    firstParty: true,
  });
  expectStatus(oidc, 201, `${label}: oidc client`);
  const [oidcRequestId, oidcLogoutId] = await Promise.all([
    aPendingAuthorization(api.stack, tenant, oidc.body.clientId, OIDC_REDIRECT_URI),
    aPendingLogout(api.stack, tenant, oidc.body.clientId),
  ]);
  const provider = await call('POST', '/sign-in-providers', owner.headers, {
    kind: 'GITHUB',
    clientId: `isolation-${label}`,
    clientSecret: 'isolation-secret',
  });
  expectStatus(provider, 201, `${label}: sign-in provider`);
  const providerId = provider.body.id as string;
  await aStoredLink(deps, tenant, memberUser.id, { id: providerId, kind: 'GITHUB' });
  const [signInResult, linkResult] = await Promise.all([
    aStoredResult(deps, tenant, { providerId }),
    aStoredResult(deps, tenant, {
      providerId,
      intent: 'LINK',
      userId: memberUser.id,
      sessionId: sessionOf(mine.refreshToken),
    }),
  ]);
  const endpoint = await call('POST', '/webhook-endpoints', owner.headers, {
    url: LOOPBACK_HOOK,
    eventTypes: ['user.created'],
  });
  expectStatus(endpoint, 201, `${label}: webhook endpoint`);
  const endpointId = endpoint.body.id as string;
  const eventId = await aStoredWebhookEvent(deps, tenant);
  const attempt = await aStoredWebhookAttempt(deps, tenant, endpointId, eventId);
  const all = await listRoles({ tenant, ...owner });
  const byName = (name: string) => {
    const role = all.find((r) => r.name === name);
    if (!role) throw new Error(`${label}: no role ${name}`);
    return role;
  };

  const plantName = `${label} fern`;
  const plantRes = await fetch(`${api.plantsUrl}/plants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${mine.accessToken}` },
    body: JSON.stringify({ id: plantId, name: plantName }),
  });
  expect(plantRes.status, `${label}: plant`).toBe(200);

  return {
    label,
    tenant,
    owner,
    apiKey,
    spareKey,
    oidcClient: { clientId: oidc.body.clientId as string },
    oidcRequestId,
    oidcLogoutId,
    member: {
      user: memberUser,
      userId: memberUser.id,
      token: mine.accessToken,
      refreshToken: rotation.body.data.refreshToken,
      headers: bearer(tenant, mine.accessToken),
      sessionId: sessionOf(mine.refreshToken),
      spareSessionId: sessionOf(spare.refreshToken),
      rotatedRefreshToken: refreshed.refreshToken,
      passkey: { id: memberPasskey.passkey.id, credential: memberPasskey.credential },
    },
    provider: { id: providerId },
    providerResults: { signIn: signInResult, link: linkResult },
    webhook: { endpointId, eventId, attemptId: attempt.id, cursor: attempt.cursor },
    totpUser,
    recoverUser,
    victim,
    roles: { gardener, superAdmin: byName('SUPER_ADMIN'), admin: byName('ADMIN'), all },
    invitation: { userId: '', token: '' },
    challenges: {
      signup: { id: '', code: '' },
      emailChange: { id: '', code: '' },
      reset: { id: '', code: '' },
      loginOtp: { id: '', code: '' },
      loginTotp: { id: '' },
      reauth: { id: '', code: '' },
    },
    activityCursor: '',
    memberActivityIds: [],
    plant: { id: plantId, name: plantName },
  };
}

/**
 * The invitation and the pending e-mail challenges. Both tenants mail the same
 * addresses, so this runs for one tenant at a time and reads each code at once.
 */
async function openMailedChallenges(world: World) {
  const { tenant, owner, member, label } = world;
  const ses = api.stack.sesUrl;

  const invited = await call('POST', '/users/invitations', owner.headers, { email: EMAIL.invited });
  expectStatus(invited, 201, `${label}: invitation`);
  const token = /invitationToken=([A-Za-z0-9_-]+)/.exec((await mailsTo(ses, EMAIL.invited)).at(-1)?.body.text ?? '');
  world.invitation = { userId: invited.body.userId, token: token?.[1] ?? '' };
  expect(world.invitation.token, `${label}: invitation token mailed`).not.toBe('');

  const signup = await call('POST', '/auth/signup', tenant.headers, {
    app: tenant.app,
    mid: tenant.mid,
    email: EMAIL.pending,
    password: `Pending-${run}-4k`,
    firstName: 'Pending',
    lastName: label,
  });
  expectStatus(signup, 201, `${label}: signup`);
  world.challenges.signup = { id: signup.body.data.challengeId, code: await latestCodeTo(ses, EMAIL.pending) };

  const change = await call('POST', '/users/me/email-change', member.headers, { newEmail: EMAIL.changed });
  expectStatus(change, 200, `${label}: e-mail change`);
  world.challenges.emailChange = { id: change.body.challengeId, code: await latestCodeTo(ses, EMAIL.changed) };

  const forgot = await call('POST', '/auth/forgot-password', tenant.headers, { email: EMAIL.recover });
  expectStatus(forgot, 202, `${label}: forgot password`);
  world.challenges.reset = { id: forgot.body.challengeId, code: await latestCodeTo(ses, EMAIL.recover) };

  const otp = await call('POST', '/auth/login', tenant.headers, { email: EMAIL.member, loginMode: 'OTP_EMAIL' });
  expectStatus(otp, 200, `${label}: e-mail code login`);
  world.challenges.loginOtp = { id: otp.body.data.challengeId, code: await latestCodeTo(ses, EMAIL.member) };

  const reauth = await call('POST', '/auth/reauthenticate', member.headers, { loginMode: 'OTP_EMAIL' });
  expectStatus(reauth, 200, `${label}: reauthentication code`);
  world.challenges.reauth = { id: reauth.body.challengeId, code: await latestCodeTo(ses, EMAIL.member) };

  const totp = await call('POST', '/auth/login', tenant.headers, {
    email: EMAIL.totp,
    password: world.totpUser.password,
  });
  expectStatus(totp, 200, `${label}: TOTP login`);
  expect(totp.body.data.challengeType).toBe('TOTP');
  world.challenges.loginTotp = { id: totp.body.data.challengeId };
}

/** A member's activity, as the owner reads it: the ids, and a cursor after the newest record. */
async function readActivity(world: World) {
  const page = await call('GET', `/users/${world.member.userId}/activity?limit=1`, world.owner.headers);
  expectStatus(page, 200, `${world.label}: activity page`);
  world.activityCursor = page.body.nextCursor;
  const all = await call('GET', `/users/${world.member.userId}/activity?limit=100`, world.owner.headers);
  world.memberActivityIds = all.body.items.map((item: { id: string }) => item.id);
}

/** Makes both tenants, and B's baseline, before the first test of the calling file (after its local stack is up). */
export function useIsolationWorlds(stack: ReturnType<typeof useLocalStack>) {
  api = stack;
  beforeAll(async () => {
    [A, B] = await Promise.all([aWorld('A', 7_000_001), aWorld('B', 7_000_002)]);
    await openMailedChallenges(A);
    await openMailedChallenges(B);
    // B's victim has two failed logins: a lockout counter that A's failures must not move.
    for (let i = 0; i < 2; i++) {
      const res = await call('POST', '/auth/login', B.tenant.headers, {
        email: EMAIL.victim,
        password: 'Wrong-pass-1',
      });
      expectStatus(res, 401, 'B: failed login');
    }
    await Promise.all([readActivity(A), readActivity(B)]);
    baseline = await snapshotB();
  }, 120_000);
}

// ---------------------------------------------------------------- reading the store

const snapshotB = () => snapshotTenant(deps, B.tenant, api.stack.plantsTableName);

/** What kind of item this is: its `entity`, or for the guard items (no entity attribute) the key's segment. */
export function kindOf(item: Item): string {
  if (typeof item.entity === 'string') return item.type ? `${item.entity}:${String(item.type)}` : item.entity;
  const pk = String(item.pk);
  if (pk.includes('#LOCK#')) return 'LOCK';
  if (pk.includes('#RATE#')) return 'RATE';
  if (pk.includes('#SIGNUPRATE#')) return 'SIGNUP_RATE';
  return 'UNKNOWN';
}

/** Every id of B that a request through A could be aimed at. */
function idsOfB(): string[] {
  return [
    B.tenant.id,
    B.tenant.app,
    B.tenant.mid,
    B.tenant.publicApiKey,
    B.owner.userId,
    B.member.userId,
    B.totpUser.id,
    B.recoverUser.id,
    B.victim.id,
    B.invitation.userId,
    B.member.sessionId,
    B.member.spareSessionId,
    B.member.passkey.id,
    sessionOf(B.member.refreshToken),
    B.apiKey.keyId,
    B.spareKey.keyId,
    B.oidcClient.clientId,
    B.oidcRequestId,
    B.oidcLogoutId,
    B.webhook.endpointId,
    B.webhook.eventId,
    B.webhook.attemptId,
    ...B.roles.all.map((role) => role.id),
    ...Object.values(B.challenges).map((challenge) => challenge.id),
  ];
}

/** B's items are byte-for-byte the baseline, and no key of A's names an id of B (nothing was written beside them). */
export async function expectBUntouched(what: string) {
  // One pass over the identity table reads both tenants.
  const [[identity = [], ofA = []], plants] = await Promise.all([
    itemsOfTenants(deps, [B.tenant, A.tenant]),
    tenantItems(deps, B.tenant, api.stack.plantsTableName),
  ]);
  expectUnchanged(baseline, { identity, plants }, what);
  const ids = idsOfB().map((id) => id.toLowerCase());
  const traces = ofA
    .map((item) => [item.pk, item.sk, item.gsi1pk, item.gsi1sk].join(' ').toLowerCase())
    .filter((key) => ids.some((id) => key.includes(id)));
  expect(traces, `${what}: keys of A naming an id of B`).toEqual([]);
}

/** A challenge answered with its own (right) code. */
export function challengeBody(challenge: Mailed) {
  return { challengeId: challenge.id, code: challenge.code };
}
