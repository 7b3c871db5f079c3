import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import { activityItem, recordActivity } from '../activity/record.ts';
import { enforceRateLimit } from '../auth/guards.ts';
import { assertMayLogIn } from '../auth/login-steps.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import { startSession } from '../auth/session-start.ts';
import { withRefusalFloor } from '../auth/timing.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { conditionFailedAt } from '../store/errors.ts';
import type { TenantRef } from '../store/keys.ts';
import { type Passkey, type PasskeyCeremony, passkeyRepo } from '../store/passkey-repo.ts';
import { sessionRepo } from '../store/session-repo.ts';
import { transact } from '../store/transact.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from '../users/types.ts';
import { passkeyIdOf, userIdOfHandle } from './credentials.ts';
import {
  challengeHash,
  newPasskeyChallenge,
  PASSKEY_CEREMONY_MS,
  type RelyingParty,
  requireRelyingParty,
  signedChallenge,
} from './relying-party.ts';
import type { AuthenticationCredential } from './schemas.ts';

/** Every refusal of a passkey's answer: one code, so an answer learns nothing of which check failed. */
const refused = () => fail('INVALID_CREDENTIALS');

async function requestOptions(
  deps: Deps,
  tenant: TenantRef,
  party: RelyingParty,
  ceremony: PasskeyCeremony,
  bound: { userId: string | null; sessionId: string | null; email: string | null },
  allow: Passkey[] = [],
) {
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    challenge: newPasskeyChallenge(),
    timeout: PASSKEY_CEREMONY_MS,
    userVerification: 'required',
    allowCredentials: allow.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports as never })),
  });
  const expiresAt = new Date(deps.clock.now().getTime() + PASSKEY_CEREMONY_MS).toISOString();
  await passkeyRepo(deps.store).putChallenge(tenant, challengeHash(options.challenge), {
    ceremony,
    ...bound,
    expiresAt,
  });
  return { options };
}

/**
 * POST /auth/passkeys/options: a challenge for signing in with a passkey, for the button or the browser's autofill
 * (conditional UI). No credential is listed: passkeys are discoverable, and a list for an address would tell
 * whether it has an account. With an address, the answer must come from that account's passkey (nothing is looked
 * up now). Counted in the per-IP rate limit, as every sign-in request is.
 */
export async function passkeySignInOptions(
  deps: Deps,
  tenant: Merchant,
  email: string | undefined,
  client: ClientInfo,
) {
  const party = requireRelyingParty(deps.config, tenant);
  await enforceRateLimit(deps, tenant, client.ip);
  return requestOptions(deps, tenant, party, 'SIGN_IN', { userId: null, sessionId: null, email: email ?? null });
}

/** What a checked answer proved: the user, the passkey and the counter the authenticator now reports. */
interface ProvenAnswer {
  user: User;
  passkey: Passkey;
  counter: number;
}

/**
 * An answer checked: its challenge taken (used up whatever follows; unknown, used, expired, another ceremony's:
 * refused), the user its handle names and the passkey its credential id names read together, the signature
 * verified for the tenant's RP ID and origins with user verification, and the counter: one that does not move
 * forward on a passkey kept on one device means a copied key, and is refused and recorded.
 */
async function proveAnswer(
  deps: Deps,
  tenant: Merchant,
  party: RelyingParty,
  ceremony: PasskeyCeremony,
  credential: AuthenticationCredential,
  client: ClientInfo,
  check: (issued: { userId: string | null; sessionId: string | null; email: string | null }, user: User) => boolean,
): Promise<ProvenAnswer> {
  const now = deps.clock.now();
  const challenge = signedChallenge(credential.response.clientDataJSON);
  const userId = userIdOfHandle(credential.response.userHandle ?? undefined);
  const passkeyId = passkeyIdOf(tenant, credential.id);
  const [issued, { user, passkey }] = await Promise.all([
    challenge ? passkeyRepo(deps.store).takeChallenge(tenant, challengeHash(challenge), ceremony, now) : null,
    userId ? passkeyRepo(deps.store).getWithUser(tenant, userId, passkeyId) : { user: null, passkey: null },
  ]);
  if (!challenge || !issued || !user || !passkey || passkey.credentialId !== credential.id) throw refused();
  if (!check(issued, user)) throw refused();
  const verified = await verifyAuthenticationResponse({
    response: credential as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
    expectedChallenge: challenge,
    expectedOrigin: party.origins,
    expectedRPID: party.id,
    // The counter is judged below, where a passkey kept on one device and a synced one are told apart.
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: 0,
    },
    requireUserVerification: true,
  }).catch(() => null);
  if (!verified?.verified) throw refused();
  const counter = verified.authenticationInfo.newCounter;
  if ((counter > 0 || passkey.counter > 0) && counter <= passkey.counter && passkey.deviceType === 'singleDevice') {
    deps.log.info('passkey counter did not move forward', { userId: user.id, passkeyId: passkey.id });
    await recordActivity(deps, tenant, user.id, 'PASSKEY_COUNTER_MISMATCH', { ...client, actorId: user.id });
    throw refused();
  }
  // A synced passkey's counter may stay or go back (its copies count apart): kept at the highest seen.
  return { user, passkey, counter: Math.max(counter, passkey.counter) };
}

/** RFC 8176: a key the user proved with user verification; a passkey kept on one device is hardware-held. */
function passkeyAmr(passkey: Passkey): string[] {
  return [passkey.deviceType === 'singleDevice' ? 'hwk' : 'swk', 'user', 'mfa'];
}

/**
 * POST /auth/passkeys/sign-in: a passkey's answer signs the user in. User verification makes it two factors, so a
 * TOTP user gets no TOTP step. Every refusal is 401 INVALID_CREDENTIALS, no sooner than the answer floor; a
 * disabled or inactive account is told so only after its passkey was proven, as after a right password. The
 * session starts in one transaction with the passkey's new counter (of two sign-ins racing on one counter, one
 * starts). A password lockout does not stop a passkey: it counts password guesses, and a passkey cannot be guessed.
 */
export async function signInWithPasskey(
  deps: Deps,
  tenant: Merchant,
  credential: AuthenticationCredential,
  client: ClientInfo,
) {
  const party = requireRelyingParty(deps.config, tenant);
  return withRefusalFloor(deps.config.answerFloorMs, async () => {
    await enforceRateLimit(deps, tenant, client.ip);
    const { user, passkey, counter } = await proveAnswer(
      deps,
      tenant,
      party,
      'SIGN_IN',
      credential,
      client,
      (issued, found) => issued.email === null || issued.email === found.email,
    );
    assertMayLogIn(user);
    const now = deps.clock.now();
    try {
      return await startSession(deps, tenant, user, client, {
        amr: passkeyAmr(passkey),
        items: [passkeyRepo(deps.store).usedItem(tenant, passkey, counter, now)],
      });
    } catch (error) {
      // The passkey was removed, or another sign-in moved its counter, since it was read.
      if (conditionFailedAt(error)) throw refused();
      throw error;
    }
  });
}

/**
 * POST /auth/reauthenticate/passkey/options: a challenge bound to this session, listing the user's own passkeys
 * (the caller is signed in: nothing to hide), so the browser offers only those.
 */
export async function passkeyReauthOptions(deps: Deps, tenant: Merchant, principal: UserPrincipal, client: ClientInfo) {
  const party = requireRelyingParty(deps.config, tenant);
  await enforceRateLimit(deps, tenant, client.ip);
  const passkeys = await passkeyRepo(deps.store).list(tenant, principal.userId);
  if (passkeys.length === 0) throw fail('NOT_FOUND', 'this account has no passkey');
  return requestOptions(
    deps,
    tenant,
    party,
    'REAUTH',
    { userId: principal.userId, sessionId: principal.sessionId, email: null },
    passkeys,
  );
}

/**
 * POST /auth/reauthenticate/passkey: the signed-in user proves it is them with one of their passkeys (no TOTP code:
 * the passkey is two factors); the session then counts as freshly authenticated, as after POST /auth/reauthenticate.
 * Only a challenge of this session, answered by a passkey of this user, counts.
 */
export async function reauthenticateWithPasskey(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  credential: AuthenticationCredential,
  client: ClientInfo,
): Promise<void> {
  const party = requireRelyingParty(deps.config, tenant);
  await withRefusalFloor(deps.config.answerFloorMs, async () => {
    await enforceRateLimit(deps, tenant, client.ip);
    const { user, passkey, counter } = await proveAnswer(
      deps,
      tenant,
      party,
      'REAUTH',
      credential,
      client,
      (issued, found) =>
        found.id === principal.userId && issued.userId === principal.userId && issued.sessionId === principal.sessionId,
    );
    const now = deps.clock.now();
    const failed = await transact(deps.store, {
      session: sessionRepo(deps.store).reauthenticatedItem(tenant, user.id, principal.sessionId, now),
      passkey: passkeyRepo(deps.store).usedItem(tenant, passkey, counter, now),
      activity: activityItem(deps, tenant, user.id, 'REAUTHENTICATED', { ...client, actorId: user.id }),
    });
    if (failed.has('session')) throw fail('SESSION_REVOKED');
    if (failed.has('passkey')) throw refused();
  });
}
