import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { activityItem } from '../activity/record.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { requireRecentAuthentication } from '../sessions/recent-authentication.ts';
import { MAX_PASSKEYS_PER_USER, type Passkey, passkeyRepo } from '../store/passkey-repo.ts';
import { transact } from '../store/transact.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';
import { personName } from '../users/view.ts';
import { passkeyIdOf, userHandleOf } from './credentials.ts';
import { toPasskeyResponse } from './manage.ts';
import { defaultPasskeyName } from './names.ts';
import {
  challengeHash,
  newPasskeyChallenge,
  PASSKEY_ALGORITHMS,
  PASSKEY_CEREMONY_MS,
  requireRelyingParty,
  signedChallenge,
} from './relying-party.ts';
import type { PasskeyResponse, RegisterPasskeyRequest } from './schemas.ts';

const limitReached = () => fail('PASSKEY_LIMIT_REACHED', `at most ${MAX_PASSKEYS_PER_USER} passkeys per account`);

/**
 * POST /users/me/passkeys/options: what the browser needs to make a passkey for the signed-in user (recent
 * authentication: a stolen session must not add the thief's passkey). Discoverable credentials with user
 * verification, no attestation; the user's own passkeys are excluded, so an authenticator that holds one says so.
 * The challenge is bound to this session and lives PASSKEY_CEREMONY_MS.
 */
export async function passkeyRegistrationOptions(deps: Deps, tenant: Merchant, principal: UserPrincipal) {
  const party = requireRelyingParty(deps.config, tenant);
  requireRecentAuthentication(deps, principal);
  const repo = passkeyRepo(deps.store);
  const [user, existing] = await Promise.all([
    currentUser(deps, tenant, principal),
    repo.list(tenant, principal.userId),
  ]);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw limitReached();
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: user.email,
    userID: userHandleOf(user.id),
    userDisplayName: personName(user) ?? user.email,
    challenge: newPasskeyChallenge(),
    timeout: PASSKEY_CEREMONY_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  });
  const expiresAt = new Date(deps.clock.now().getTime() + PASSKEY_CEREMONY_MS).toISOString();
  await repo.putChallenge(tenant, challengeHash(options.challenge), {
    ceremony: 'REGISTER',
    userId: user.id,
    sessionId: principal.sessionId,
    email: null,
    expiresAt,
  });
  return { options };
}

/**
 * POST /users/me/passkeys: the browser's new credential, checked against the challenge this session was given
 * (used up whatever the outcome), the tenant's RP ID and origins, with user verification; then stored with a
 * claim on its credential id in the tenant (another account's credential is refused) and PASSKEY_ADDED recorded.
 */
export async function registerPasskey(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: RegisterPasskeyRequest,
  client: ClientInfo,
): Promise<PasskeyResponse> {
  const party = requireRelyingParty(deps.config, tenant);
  requireRecentAuthentication(deps, principal);
  const now = deps.clock.now();
  const repo = passkeyRepo(deps.store);
  const challenge = signedChallenge(body.credential.response.clientDataJSON);
  const [issued, user] = await Promise.all([
    challenge ? repo.takeChallenge(tenant, challengeHash(challenge), 'REGISTER', now) : null,
    currentUser(deps, tenant, principal),
  ]);
  // Another user's or another session's challenge is refused as an unknown one.
  if (!challenge || !issued || issued.userId !== user.id || issued.sessionId !== principal.sessionId) {
    throw fail('PASSKEY_NOT_VERIFIED', 'the passkey request expired or was already answered; start again');
  }
  const verified = await verifyRegistrationResponse({
    response: body.credential as Parameters<typeof verifyRegistrationResponse>[0]['response'],
    expectedChallenge: challenge,
    expectedOrigin: party.origins,
    expectedRPID: party.id,
    requireUserVerification: true,
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  }).catch(() => null);
  if (!verified?.verified) throw fail('PASSKEY_NOT_VERIFIED', 'the passkey could not be verified for this site');
  const info = verified.registrationInfo;
  const passkey: Passkey = {
    id: passkeyIdOf(tenant, info.credential.id),
    userId: user.id,
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: (info.credential.transports ?? []).slice(0, 8),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    aaguid: info.aaguid,
    name: body.name ?? defaultPasskeyName(info.aaguid, client.userAgent),
    createdAt: now.toISOString(),
    lastUsedAt: null,
  };
  const failed = await transact(deps.store, {
    ...repo.addItems(tenant, passkey, user.credentialEpoch),
    activity: activityItem(deps, tenant, user.id, 'PASSKEY_ADDED', { ...client, actorId: user.id }),
  });
  if (failed.has('passkey') || failed.has('claim')) throw fail('ALREADY_EXISTS', 'this passkey is already registered');
  if (failed.has('count')) {
    // The count is at the limit, or the profile moved to another credential epoch (every session ended).
    const fresh = await currentUser(deps, tenant, { ...principal, user: undefined });
    if (fresh.credentialEpoch !== user.credentialEpoch) throw fail('SESSION_REVOKED');
    throw limitReached();
  }
  return toPasskeyResponse(passkey);
}
