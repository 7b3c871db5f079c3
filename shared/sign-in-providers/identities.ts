import { activityItem } from '../activity/record.ts';
import { hashToken } from '../auth/codes.ts';
import { proveSignedIn } from '../auth/guards.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import { secondFactorIsGood } from '../auth/second-factor.ts';
import { pkceMatches } from '../crypto/pkce.ts';
import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { requireRecentAuthentication } from '../sessions/recent-authentication.ts';
import type { TenantRef } from '../store/keys.ts';
import { sessionRepo } from '../store/session-repo.ts';
import { type LinkedIdentity, signInProviderRepo } from '../store/sign-in-provider-repo.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import { passkeysOffered } from '../tenancy/hosted-pages.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser, targetUser } from '../users/lookup.ts';
import { beginAtProvider, checkReturnTo, enabledProvider, takeResult } from './flow.ts';
import type { IdentityResponse, ProviderResultRequest } from './schemas.ts';

async function identitiesOf(deps: Deps, tenant: TenantRef, userId: string): Promise<IdentityResponse[]> {
  const repo = signInProviderRepo(deps.store);
  const [links, providers] = await Promise.all([repo.identities(tenant, userId), repo.list(tenant)]);
  return links.map((link) => toIdentityResponse(link, providers.find((p) => p.id === link.providerId)?.displayName));
}

function toIdentityResponse(link: LinkedIdentity, displayName: string | undefined): IdentityResponse {
  return {
    providerId: link.providerId,
    kind: link.kind,
    displayName: displayName ?? null,
    email: link.email,
    linkedAt: link.linkedAt,
    lastUsedAt: link.lastUsedAt,
  };
}

/** GET /users/me/identities: the provider accounts linked to the caller, oldest first. */
export async function listMyIdentities(deps: Deps, tenant: Merchant, principal: UserPrincipal) {
  return identitiesOf(deps, tenant, principal.userId);
}

/** GET /users/{id}/identities: an admin's view of a user's linked providers. */
export async function listUserIdentities(deps: Deps, tenant: Merchant, userId: string) {
  const user = await targetUser(deps, tenant, userId);
  return identitiesOf(deps, tenant, user.id);
}

/**
 * POST /users/me/identities/start: the signed-in user links a provider. Adding a way to sign in needs a recent
 * sign-in, as adding a passkey does; the flow is bound to this user and session.
 */
export async function startIdentityLink(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: { providerId: string; returnTo: string; codeChallenge: string },
) {
  requireRecentAuthentication(deps, principal);
  checkReturnTo(deps, tenant, body.returnTo);
  const [provider, linked] = await Promise.all([
    enabledProvider(deps, tenant, body.providerId),
    signInProviderRepo(deps.store).identities(tenant, principal.userId),
  ]);
  if (linked.some((link) => link.providerId === provider.id)) throw fail('PROVIDER_ALREADY_LINKED');
  return beginAtProvider(deps, tenant, provider, {
    intent: 'LINK',
    pageChallenge: body.codeChallenge,
    returnTo: body.returnTo,
    userId: principal.userId,
    sessionId: principal.sessionId,
  });
}

/**
 * POST /users/me/identities: links what a provider proved to the caller. Either a link the caller started (the same
 * user and session), or a sign-in that found the provider's address on an account not yet linked to it
 * (`linkRequired`): the caller has since signed in to that very account, which proves it is theirs.
 */
export async function linkIdentity(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: ProviderResultRequest,
  client: ClientInfo,
): Promise<IdentityResponse> {
  requireRecentAuthentication(deps, principal);
  const result = await takeResult(deps, tenant, body);
  const repo = signInProviderRepo(deps.store);
  const provider = await repo.get(tenant, result.providerId);
  if (!provider?.enabled) throw fail('PROVIDER_SIGN_IN_FAILED');
  if (result.intent === 'LINK') {
    if (result.userId !== principal.userId || result.sessionId !== principal.sessionId) {
      throw fail('PROVIDER_SIGN_IN_FAILED');
    }
  } else {
    const user = principal.user ?? (await userRepo(deps.store).get(tenant, principal.userId));
    if (!result.linkOnly || !user || result.email !== user.email) throw fail('PROVIDER_SIGN_IN_FAILED');
  }
  const now = deps.clock.now().toISOString();
  const identity: LinkedIdentity = {
    providerId: provider.id,
    kind: provider.kind,
    subjectHash: result.subjectHash,
    email: result.email,
    linkedAt: now,
    lastUsedAt: null,
  };
  const failed = await transact(deps.store, {
    ...repo.linkItems(tenant, principal.userId, identity),
    activity: activityItem(deps, tenant, principal.userId, 'IDENTITY_LINKED', { ...client, actorId: principal.userId }),
  });
  if (failed.size > 0) throw fail('PROVIDER_ALREADY_LINKED');
  return toIdentityResponse(identity, provider.displayName);
}

/**
 * DELETE /users/me/identities/{providerId}: unlinks, while another way to sign in remains: a password the tenant's
 * mode takes, e-mail codes (any address can get one where the mode allows them), a passkey the tenant offers, or
 * another linked provider that is on. A recent sign-in, as for every change of how one signs in.
 */
export async function unlinkMyIdentity(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  providerId: string,
  client: ClientInfo,
): Promise<void> {
  requireRecentAuthentication(deps, principal);
  const repo = signInProviderRepo(deps.store);
  const [links, user] = await Promise.all([
    repo.identities(tenant, principal.userId),
    principal.user ?? userRepo(deps.store).get(tenant, principal.userId),
  ]);
  const target = links.find((link) => link.providerId === providerId);
  if (!target || !user) throw fail('NOT_FOUND');
  const buttons = new Set(tenant.signInProviders.map((button) => button.id));
  const otherWay =
    (tenant.loginMode !== 'OTP_EMAIL' && user.passwordHash !== null) ||
    tenant.loginMode !== 'PASSWORD' ||
    (user.passkeyCount > 0 && passkeysOffered(deps.config, tenant)) ||
    links.some((link) => link.providerId !== providerId && buttons.has(link.providerId));
  if (!otherWay) throw fail('LAST_SIGN_IN_METHOD');
  const failed = await transact(deps.store, {
    ...repo.unlinkItems(tenant, principal.userId, target),
    activity: activityItem(deps, tenant, principal.userId, 'IDENTITY_UNLINKED', {
      ...client,
      actorId: principal.userId,
    }),
  });
  if (failed.has('identity')) throw fail('NOT_FOUND');
}

/**
 * POST /auth/reauthenticate/provider: proving it is you again with a linked provider (a sign-in at it, started as
 * any sign-in is), for an account that may have no password. The provider account must be linked to the caller; a
 * TOTP user adds a TOTP or backup code, as with a password. The session counts as freshly authenticated for 10
 * minutes. The result is read first and taken only once the TOTP code is right: a mistyped code is typed again,
 * not another trip to the provider (a wrong code counts in the login lockout, as at POST /auth/reauthenticate).
 * A result that is not the caller's, or comes with a wrong verifier, is used up at once.
 */
export async function reauthenticateWithProvider(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: ProviderResultRequest & { totpCode?: string | undefined },
  client: ClientInfo,
): Promise<void> {
  const user = await currentUser(deps, tenant, principal);
  if (user.totpEnabled && body.totpCode === undefined) throw failField('totpCode', 'is required while TOTP is on');
  const repo = signInProviderRepo(deps.store);
  const read = await repo.peekResult(tenant, hashToken(body.result), deps.clock.now());
  const [provider, linkedUserId] = read
    ? await Promise.all([
        repo.get(tenant, read.providerId),
        repo.linkedUserOf(tenant, read.providerId, read.subjectHash),
      ])
    : [null, null];
  if (!read || !provider?.enabled || linkedUserId !== user.id || !pkceMatches(body.codeVerifier, read.pageChallenge)) {
    // Used up: a result someone else's page made, or guessed at, is worth one try.
    await repo.takeResult(tenant, hashToken(body.result), deps.clock.now());
    throw fail('PROVIDER_SIGN_IN_FAILED');
  }
  if (user.totpEnabled) {
    await proveSignedIn(deps, tenant, user.email, client.ip, async () =>
      (await secondFactorIsGood(deps, tenant, user, body.totpCode ?? '')) ? null : 'INVALID_CODE',
    );
  }
  // Taken now, once: of two answers racing with one result, one freshens the session.
  await takeResult(deps, tenant, body);
  const now = deps.clock.now();
  const failed = await transact(deps.store, {
    session: sessionRepo(deps.store).reauthenticatedItem(tenant, user.id, principal.sessionId, now),
    activity: activityItem(deps, tenant, user.id, 'REAUTHENTICATED', { ...client, actorId: user.id }),
  });
  if (failed.has('session')) throw fail('SESSION_REVOKED');
}
