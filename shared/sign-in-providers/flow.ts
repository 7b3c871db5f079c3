import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { activityItem } from '../activity/record.ts';
import { challengeResponse, openTotpChallenge } from '../auth/challenges.ts';
import { hashToken, newOpaqueToken } from '../auth/codes.ts';
import { enforceRateLimit, enforceSignupLimit } from '../auth/guards.ts';
import { assertMayLogIn } from '../auth/login-steps.ts';
import { type SessionCommit, startSession } from '../auth/session-start.ts';
import { pkceMatches } from '../crypto/pkce.ts';
import type { Deps } from '../deps.ts';
import { fail, failField, isAppError } from '../errors.ts';
import { Reply } from '../http/reply.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { withQuery } from '../oidc/issuer.ts';
import { expiredSignupRepo } from '../store/expired-signup-repo.ts';
import { invitationRepo } from '../store/invitation-repo.ts';
import type { TenantRef } from '../store/keys.ts';
import {
  type ProviderFlow,
  type ProviderResult,
  type StoredSignInProvider,
  signInProviderRepo,
} from '../store/sign-in-provider-repo.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import { hostedOrigin } from '../tenancy/hosted-pages.ts';
import type { Merchant } from '../tenancy/types.ts';
import { createUser, newUser } from '../users/new-user.ts';
import type { User } from '../users/types.ts';
import { callbackUrl, secretContext } from './admin.ts';
import type { ProviderResultRequest } from './schemas.ts';
import { authorizationUrl as authorizationUrlOf, proveAccount } from './upstream.ts';

/** How long the user has at the provider before the sign-in lapses. */
const FLOW_TTL_MS = 10 * 60 * 1000;
/** How long the page has to take what the provider proved (and, when it must link, to sign in first). */
const RESULT_TTL_MS = 10 * 60 * 1000;

/** RFC 8176 has no value for "another identity provider vouched": `fed` is ours (README.md of this folder). */
export const PROVIDER_AMR = 'fed';

/** A provider account's subject, bound to the tenant and provider: the same `sub` elsewhere is another account. */
export function subjectHashOf(tenant: TenantRef, providerId: string, subject: string): string {
  return createHash('sha256')
    .update(JSON.stringify([tenant.app, tenant.mid, providerId, subject]))
    .digest('base64url');
}

/** Where a provider may send the browser back: the tenant's hosted origin, or one of its allowed origins. */
export function checkReturnTo(deps: Deps, tenant: Merchant, returnTo: string): void {
  const origin = new URL(returnTo).origin;
  if (origin !== hostedOrigin(deps.config, tenant.subdomain) && !tenant.allowedOrigins.includes(origin)) {
    throw failField('returnTo', "must be on the tenant's hosted pages or one of its allowed origins");
  }
}

/** A provider the tenant has on; an unknown or turned-off one is not found (its button is gone too). */
export async function enabledProvider(deps: Deps, tenant: TenantRef, providerId: string) {
  const provider = await signInProviderRepo(deps.store).get(tenant, providerId);
  if (!provider?.enabled) throw fail('NOT_FOUND');
  return provider;
}

/** Stores the flow by its `state`'s hash and answers where the browser goes at the provider. */
export async function beginAtProvider(
  deps: Deps,
  tenant: Merchant,
  provider: StoredSignInProvider,
  spec: Pick<ProviderFlow, 'intent' | 'pageChallenge' | 'returnTo' | 'userId' | 'sessionId'> & {
    loginHint?: string | undefined;
  },
) {
  const state = newOpaqueToken();
  const nonce = newOpaqueToken();
  const pkceVerifier = oauth.generateRandomCodeVerifier();
  const expiresAt = new Date(deps.clock.now().getTime() + FLOW_TTL_MS).toISOString();
  const { loginHint, ...flow } = spec;
  await signInProviderRepo(deps.store).putFlow(tenant, hashToken(state), {
    ...flow,
    providerId: provider.id,
    nonce,
    pkceVerifier,
    expiresAt,
  });
  const authorizationUrl = await authorizationUrlOf(provider, {
    redirectUri: callbackUrl(deps.config, tenant),
    state,
    nonce,
    pkceVerifier,
    loginHint,
  });
  return { authorizationUrl };
}

/**
 * POST /auth/providers/{providerId}/start: a sign-in (or sign-up) at a provider begins. Counted in the per-IP rate
 * limit as every sign-in request is.
 */
export async function startProviderSignIn(
  deps: Deps,
  tenant: Merchant,
  providerId: string,
  body: { returnTo: string; codeChallenge: string; loginHint?: string | undefined },
  client: ClientInfo,
) {
  await enforceRateLimit(deps, tenant, client.ip);
  checkReturnTo(deps, tenant, body.returnTo);
  const provider = await enabledProvider(deps, tenant, providerId);
  return beginAtProvider(deps, tenant, provider, {
    intent: 'SIGN_IN',
    pageChallenge: body.codeChallenge,
    returnTo: body.returnTo,
    userId: null,
    sessionId: null,
    loginHint: body.loginHint,
  });
}

/**
 * GET /auth/providers/callback (and POST, for providers that post their answer): the provider's answer, on the
 * tenant's issuer host. Its flow is taken by the `state` (once; another tenant's host finds nothing), the account
 * proven (./upstream.ts), and the browser sent back to the page that started with a result only that page's
 * verifier takes (`provider_result`), or with the reason it failed (`provider_error`). Why a provider's answer was
 * refused is logged, never shown: the page learns one code.
 */
export async function providerCallback(deps: Deps, tenant: Merchant, params: URLSearchParams): Promise<Reply> {
  const now = deps.clock.now();
  const repo = signInProviderRepo(deps.store);
  const state = params.get('state');
  const flow = state ? await repo.takeFlow(tenant, hashToken(state), now) : null;
  if (!state || !flow) {
    deps.log.info('sign-in provider callback without a live flow', { app: tenant.app });
    const signIn = `${hostedOrigin(deps.config, tenant.subdomain)}/sign-in`;
    return new Reply(undefined, { location: withQuery(signIn, { provider_error: 'PROVIDER_SIGN_IN_FAILED' }) });
  }
  const back = (fields: Record<string, string>) => new Reply(undefined, { location: withQuery(flow.returnTo, fields) });
  if (params.get('error') === 'access_denied') return back({ provider_error: 'PROVIDER_SIGN_IN_CANCELLED' });
  const provider = await repo.get(tenant, flow.providerId);
  if (!provider?.enabled) return back({ provider_error: 'PROVIDER_SIGN_IN_FAILED' });
  let account: Awaited<ReturnType<typeof proveAccount>>;
  try {
    const secret = new TextDecoder().decode(
      await deps.vault.decrypt(provider.secretCiphertext, secretContext(tenant, provider.id)),
    );
    account = await proveAccount(deps, provider, secret, params, {
      state,
      nonce: flow.nonce,
      pkceVerifier: flow.pkceVerifier,
      redirectUri: callbackUrl(deps.config, tenant),
    });
  } catch (error) {
    // The reason only (oauth4webapi's message and code): never the tokens or the provider's answer.
    const { message, code } = error as { message?: string; code?: string };
    deps.log.info('sign-in provider answer refused', { providerId: provider.id, kind: provider.kind, code, message });
    return back({ provider_error: 'PROVIDER_SIGN_IN_FAILED' });
  }
  const result = newOpaqueToken();
  await repo.putResult(tenant, hashToken(result), {
    providerId: provider.id,
    intent: flow.intent,
    pageChallenge: flow.pageChallenge,
    subjectHash: subjectHashOf(tenant, provider.id, account.subject),
    email: account.email,
    emailVerified: account.emailVerified,
    firstName: account.firstName,
    lastName: account.lastName,
    userId: flow.userId,
    sessionId: flow.sessionId,
    linkOnly: false,
    expiresAt: new Date(now.getTime() + RESULT_TTL_MS).toISOString(),
  });
  return back({ provider_result: result });
}

/**
 * A result taken for the page that presents it with its verifier: unknown, used, expired, or another page's (the
 * verifier does not match) is refused alike. Taken whatever follows: each result is used once.
 */
export async function takeResult(deps: Deps, tenant: TenantRef, body: ProviderResultRequest): Promise<ProviderResult> {
  const result = await signInProviderRepo(deps.store).takeResult(tenant, hashToken(body.result), deps.clock.now());
  // The page's PKCE check: only the page that started, holding the verifier, takes the result.
  if (!result || !pkceMatches(body.codeVerifier, result.pageChallenge)) throw fail('PROVIDER_SIGN_IN_FAILED');
  return result;
}

/** The answer that asks the page to sign in another way first; the result is kept for linking, for its lifetime. */
async function linkRequired(
  deps: Deps,
  tenant: TenantRef,
  body: ProviderResultRequest,
  result: ProviderResult,
  provider: StoredSignInProvider,
) {
  await signInProviderRepo(deps.store).putResult(tenant, hashToken(body.result), { ...result, linkOnly: true });
  return {
    linkRequired: true as const,
    email: result.email ?? '',
    providerName: provider.displayName,
    expiresAt: result.expiresAt,
  };
}

/** The provider's names, where the profile has none. */
function namesFrom(result: ProviderResult, user?: User) {
  return {
    firstName: user?.firstName ?? result.firstName,
    lastName: user?.lastName ?? result.lastName,
  };
}

/**
 * POST /auth/providers/sign-in: the page takes what the provider proved.
 * - A provider account linked to a user signs that user in (their TOTP step still follows when they have TOTP).
 * - Else the provider's address, only when the provider calls it verified (else 403 PROVIDER_EMAIL_NOT_VERIFIED,
 *   whether or not an account has it): no account → one is made where the tenant's signup mode allows
 *   (INVITATION_ONLY: an invited address, whose invitation this accepts); an unverified signup of the address → it
 *   becomes this account (the provider proved the mailbox); an account → linked and signed in when the tenant
 *   trusts this provider's addresses, else `linkRequired`: the user signs in another way, then links.
 */
export async function signInWithProvider(
  deps: Deps,
  tenant: Merchant,
  body: ProviderResultRequest,
  client: ClientInfo,
) {
  await enforceRateLimit(deps, tenant, client.ip);
  const result = await takeResult(deps, tenant, body);
  if (result.intent !== 'SIGN_IN') throw fail('PROVIDER_SIGN_IN_FAILED');
  const provider = await signInProviderRepo(deps.store).get(tenant, result.providerId);
  if (!provider?.enabled) throw fail('PROVIDER_SIGN_IN_FAILED');
  try {
    return await signInAs(deps, tenant, body, result, provider, client);
  } catch (error) {
    // Two first sign-ins of one provider account at once (two tabs): the one whose new account lost finds the
    // account the other made, now linked, and signs in to it. The other's transaction may still be settling (its
    // link not yet readable: DynamoDB Local applies a transaction's items one by one): the link is read again a few
    // times first, so that the account is not mistaken for another one that must be linked.
    if (!isAppError(error) || error.code !== 'CONFLICT') throw error;
    const repo = signInProviderRepo(deps.store);
    for (let tries = 1; tries < LINK_READS; tries++) {
      if (await repo.linkedUserOf(tenant, provider.id, result.subjectHash)) break;
      await new Promise((resolve) => setTimeout(resolve, 20 * tries));
    }
    return signInAs(deps, tenant, body, result, provider, client);
  }
}

/** How often a sign-in that lost a race reads the winner's link before deciding (about 0.2 s at most). */
const LINK_READS = 5;

/** signInWithProvider's decision, once the result is taken and its provider is on. */
async function signInAs(
  deps: Deps,
  tenant: Merchant,
  body: ProviderResultRequest,
  result: ProviderResult,
  provider: StoredSignInProvider,
  client: ClientInfo,
) {
  const repo = signInProviderRepo(deps.store);
  const now = deps.clock.now();
  const users = userRepo(deps.store);
  const linkedUserId = await repo.linkedUserOf(tenant, provider.id, result.subjectHash);
  if (linkedUserId) {
    const user = await users.get(tenant, linkedUserId);
    if (!user) throw fail('PROVIDER_SIGN_IN_FAILED');
    assertMayLogIn(user);
    await repo.noteUse(tenant, user.id, provider.id, result.email, now);
    return afterProvider(deps, tenant, user, client);
  }
  if (result.linkOnly) return linkRequired(deps, tenant, body, result, provider);
  if (!result.email || !result.emailVerified) throw fail('PROVIDER_EMAIL_NOT_VERIFIED');
  const identity = {
    providerId: provider.id,
    kind: provider.kind,
    subjectHash: result.subjectHash,
    email: result.email,
    linkedAt: now.toISOString(),
    lastUsedAt: now.toISOString(),
  };
  const owner = await users.findByEmail(tenant, result.email, now);
  if (!owner) return signUpWithProvider(deps, tenant, result, identity, client);
  const link = repo.linkItems(tenant, owner.id, identity);
  const linked = activityItem(deps, tenant, owner.id, 'IDENTITY_LINKED', { ...client, actorId: owner.id });
  const signedUp = activityItem(
    deps,
    tenant,
    owner.id,
    'SIGNUP',
    { ...client, actorId: owner.id },
    { detail: { via: owner.status === 'INVITED' ? 'INVITATION' : 'PROVIDER', email: owner.email } },
  );
  const activation = { status: 'ACTIVE' as const, emailStatus: 'VALIDATED' as const, emailValidationExpiresAt: null };

  if (owner.status === 'INVITED') {
    // The provider proved the invited address, as the invitation's link would have: the invitation is accepted.
    const lapsed = owner.emailValidationExpiresAt !== null && owner.emailValidationExpiresAt <= now.toISOString();
    if (lapsed) throw fail('SIGNUP_NOT_ALLOWED', 'the invitation has expired');
    const accepted = { ...activation, invitationHash: null, ...namesFrom(result, owner) };
    return startSession(deps, tenant, { ...owner, ...accepted }, client, {
      amr: [PROVIDER_AMR],
      profile: accepted,
      profileStatus: 'INVITED',
      items: [
        link.identity,
        link.claim,
        signedUp,
        linked,
        ...(owner.invitationHash ? [invitationRepo(deps.store).useItem(tenant, owner.invitationHash, now)] : []),
      ],
    });
  }
  if (owner.status === 'INACTIVE') {
    // A signup never verified: the provider proved the mailbox its code went to. The signup's password, kept with its
    // code, never takes effect: whoever typed it did not prove the address.
    const verified = { ...activation, ...namesFrom(result, owner) };
    return startSession(deps, tenant, { ...owner, ...verified }, client, {
      amr: [PROVIDER_AMR],
      profile: { ...verified, ttl: null },
      profileStatus: 'INACTIVE',
      items: [
        link.identity,
        link.claim,
        signedUp,
        linked,
        expiredSignupRepo(deps.store).keepClaimItem(tenant, owner.email, owner.id),
      ],
    });
  }
  if (!provider.trustEmail) return linkRequired(deps, tenant, body, result, provider);
  assertMayLogIn(owner);
  if (owner.totpEnabled) {
    // Linked now (the provider proved the address the tenant trusts it for); the TOTP step still stands before a session.
    const failed = await transact(deps.store, { ...link, linked });
    if (failed.size > 0) throw fail('PROVIDER_ALREADY_LINKED');
    return afterProvider(deps, tenant, owner, client);
  }
  return afterProvider(deps, tenant, owner, client, { items: [link.identity, link.claim, linked] });
}

/** A new account made by the provider's verified address, where the tenant's signup mode is OPEN. */
async function signUpWithProvider(
  deps: Deps,
  tenant: Merchant,
  result: ProviderResult,
  identity: Parameters<ReturnType<typeof signInProviderRepo>['linkItems']>[2],
  client: ClientInfo,
) {
  if (tenant.signupMode !== 'OPEN') throw fail('SIGNUP_NOT_ALLOWED');
  await enforceSignupLimit(deps, tenant, client.ip);
  const user = await newUser(deps, tenant, {
    email: result.email ?? '',
    status: 'ACTIVE',
    emailStatus: 'VALIDATED',
    firstName: result.firstName,
    lastName: result.lastName,
  });
  const link = signInProviderRepo(deps.store).linkItems(tenant, user.id, identity);
  const context = { ...client, actorId: user.id };
  const also = [
    link.identity,
    link.claim,
    activityItem(deps, tenant, user.id, 'SIGNUP', context, { detail: { via: 'PROVIDER', email: user.email } }),
    activityItem(deps, tenant, user.id, 'IDENTITY_LINKED', context),
  ];
  // Another sign-in made this address's account meanwhile, or holds the provider account: the user tries again.
  if ((await createUser(deps, tenant, user, also)) !== 'CREATED') throw fail('CONFLICT');
  deps.signals.count('Signups');
  deps.signals.count('SignupsVerified');
  deps.signals.user(user.id);
  return startSession(deps, tenant, user, client, { amr: [PROVIDER_AMR] });
}

/** After the provider: the TOTP step when the user has TOTP (the tenant's policy stands), else the session. */
async function afterProvider(deps: Deps, tenant: Merchant, user: User, client: ClientInfo, commit: SessionCommit = {}) {
  if (user.totpEnabled) {
    const step = await openTotpChallenge(deps, tenant, user.id, user.email, user.credentialEpoch, PROVIDER_AMR);
    return challengeResponse(step);
  }
  return startSession(deps, tenant, user, client, { ...commit, amr: [PROVIDER_AMR] });
}
