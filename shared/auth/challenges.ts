import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { CHALLENGE_TTL_MS } from '../lifetimes.ts';
import { newId } from '../random.ts';
import type { Challenge, ChallengeType, PendingProfile } from '../store/challenge-repo.ts';
import { challengeRepo, MAX_CODE_ATTEMPTS } from '../store/challenge-repo.ts';
import type { TenantRef } from '../store/keys.ts';
import { codeMatches, hashCode, newEmailCode } from './codes.ts';

export interface OpenedChallenge {
  challenge: Challenge;
  /** The code to mail; for a decoy nobody ever sees it. */
  code: string;
}

/**
 * A new e-mail-code challenge, not stored yet: for the transaction of what it
 * belongs to (a new user). For an unknown e-mail (`userId` null) it is a decoy
 * that looks the same from outside and that no code passes, so the answer does
 * not tell whether the account exists.
 */
export function newCodeChallenge(
  deps: Pick<Deps, 'clock' | 'random'>,
  spec: {
    type: ChallengeType;
    userId: string | null;
    email: string;
    pending?: PendingProfile;
    newEmail?: string;
    /** REAUTH: the session the code was asked in (it freshens that session only). */
    sessionId?: string;
  },
): OpenedChallenge {
  const now = deps.clock.now();
  const id = newId(deps.random, 'chl');
  const code = newEmailCode();
  const challenge: Challenge = {
    id,
    type: spec.type,
    userId: spec.userId,
    email: spec.email,
    // Only a hash of the code is stored, salted with the challenge id.
    codeHash: hashCode(code, id),
    attempts: 0,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
    createdAt: now.toISOString(),
    consumedAt: null,
    pending: spec.pending ?? null,
    newEmail: spec.newEmail ?? null,
    ...(spec.sessionId ? { sessionId: spec.sessionId } : {}),
  };
  return { challenge, code };
}

/** Opens (stores) an e-mail-code challenge; see newCodeChallenge. */
export async function openCodeChallenge(
  deps: Deps,
  tenant: TenantRef,
  spec: Parameters<typeof newCodeChallenge>[1],
): Promise<OpenedChallenge> {
  const opened = newCodeChallenge(deps, spec);
  await challengeRepo(deps.store).create(tenant, opened.challenge);
  return opened;
}

/**
 * The TOTP step after a first factor: no code to send, the authenticator app has it. `credentialEpoch`:
 * the user's, as read before the first factor was checked.
 */
export async function openTotpChallenge(
  deps: Deps,
  tenant: TenantRef,
  userId: string,
  email: string,
  credentialEpoch: number,
  firstFactor: string,
) {
  const now = deps.clock.now();
  const challenge: Challenge = {
    id: newId(deps.random, 'chl'),
    type: 'LOGIN_TOTP',
    userId,
    email,
    codeHash: null,
    attempts: 0,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
    createdAt: now.toISOString(),
    consumedAt: null,
    pending: null,
    newEmail: null,
    credentialEpoch,
    firstFactor,
  };
  await challengeRepo(deps.store).create(tenant, challenge);
  return challenge;
}

/** A challenge that can still be answered, of one of the given types; else 401 INVALID_CODE. */
export async function liveChallenge(
  deps: Deps,
  tenant: TenantRef,
  challengeId: string,
  types: readonly ChallengeType[],
): Promise<Challenge> {
  const challenge = await challengeRepo(deps.store).get(tenant, challengeId);
  const now = deps.clock.now().getTime();
  if (
    !challenge ||
    !types.includes(challenge.type) ||
    challenge.consumedAt ||
    challenge.attempts >= MAX_CODE_ATTEMPTS ||
    Date.parse(challenge.expiresAt) <= now
  ) {
    throw fail('INVALID_CODE');
  }
  return challenge;
}

/**
 * Checks an e-mail code against a live challenge, without using it up (the
 * caller does, in the transaction of the change the code allows). A wrong
 * code counts against the challenge (the fifth kills it); `onWrong` lets
 * login count it against the lockout too. Decoys never pass.
 */
export async function checkCodeChallenge(
  deps: Deps,
  tenant: TenantRef,
  challenge: Challenge,
  code: string,
  onWrong?: () => Promise<void>,
): Promise<Challenge & { userId: string }> {
  // Compared in constant time (codes.ts); the salt is the id of the challenge the code was made for.
  const right = challenge.codeHash !== null && codeMatches(challenge.codeHash, code, codeChallengeOf(challenge));
  if (!right) {
    await challengeRepo(deps.store).recordWrongAnswer(tenant, challenge.id);
    await onWrong?.();
    throw fail('INVALID_CODE');
  }
  if (challenge.userId === null) throw fail('INVALID_CODE');
  return { ...challenge, userId: challenge.userId };
}

/**
 * The challenge that holds a challenge's code, and that using the code up consumes: its own, or for one bound to
 * a mailed code (bindToMailedCode), that code's. So a code completes any challenge bound to it, but only once.
 */
export function codeChallengeOf(challenge: Pick<Challenge, 'id' | 'codeChallengeId'>): string {
  return challenge.codeChallengeId ?? challenge.id;
}

/** Where a challenge's code goes: the new address for an e-mail change, else the challenge's address. */
function recipientOf(challenge: Pick<Challenge, 'email' | 'newEmail' | 'type'>): string {
  return (challenge.type === 'EMAIL_CHANGE' ? (challenge.newEmail ?? '') : challenge.email).trim().toLowerCase();
}

/**
 * A challenge whose mail the per-recipient limit held back completes with the
 * code the address last received for the same purpose (`mailedChallengeId`),
 * while that code is live: a stranger's request mailed first never withholds
 * the owner's code, and a request within the minute is answered by the code
 * already in the mailbox. Only when that code went to this very address for
 * this very user and kind of challenge: `v+tag@x` shares the counter of
 * `v@x`, never its codes. False when it cannot be bound (then the caller
 * disarms it into a decoy).
 */
export async function bindToMailedCode(
  deps: Deps,
  tenant: TenantRef,
  challengeId: string,
  mailedChallengeId: string,
  to: string,
): Promise<boolean> {
  const mailed = await challengeRepo(deps.store).get(tenant, mailedChallengeId);
  const now = deps.clock.now().getTime();
  if (
    !mailed ||
    mailed.userId === null ||
    mailed.codeHash === null ||
    mailed.codeChallengeId !== undefined ||
    mailed.consumedAt ||
    mailed.attempts >= MAX_CODE_ATTEMPTS ||
    Date.parse(mailed.expiresAt) <= now ||
    recipientOf(mailed) !== to.trim().toLowerCase()
  ) {
    return false;
  }
  return challengeRepo(deps.store).bindToCode(tenant, challengeId, mailed);
}

/** What the client sees when another step is needed. */
export function challengeResponse(challenge: Challenge) {
  return {
    challengeRequired: true as const,
    challengeType: challenge.type === 'LOGIN_TOTP' ? ('TOTP' as const) : ('OTP_EMAIL' as const),
    challengeId: challenge.id,
    expiresAt: challenge.expiresAt,
  };
}
