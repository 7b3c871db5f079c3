import { activityItem } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import type { Language } from '../i18n/languages.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import { invitationRepo } from '../store/invitation-repo.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { createUser, newUser } from '../users/new-user.ts';
import { newCodeChallenge, openCodeChallenge } from './challenges.ts';
import { enforceRateLimit, enforceSignupLimit } from './guards.ts';
import { findUsableInvitation } from './invitations.ts';
import { type SignupMailUnit, takeSignupBudget } from './mail-limits.ts';
import { sendQuietlyOrUndo } from './mail-or-undo.ts';
import { isCommonPassword } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import type { SignupRequest } from './schemas.ts';
import { withTimeFloor } from './timing.ts';

/** A body naming another tenant's app/mid → 403 TENANT_MISMATCH. */
function assertSameTenant(tenant: Merchant, body: { app: string; mid: string }): void {
  if (body.app !== tenant.app || body.mid !== tenant.mid) throw fail('TENANT_MISMATCH');
}

function assertPasswordRules(tenant: Merchant, password: string | undefined): void {
  if (password === undefined && tenant.loginMode === 'PASSWORD') {
    throw failField('password', 'is required');
  }
  if (password !== undefined && isCommonPassword(password)) {
    throw failField('password', 'is one of the most common passwords', 'PASSWORD_TOO_COMMON');
  }
}

/** Finishes an invitation: the INVITED user becomes ACTIVE and VALIDATED, the invitation is used up, in one transaction. */
async function acceptInvitation(
  deps: Deps,
  tenant: Merchant,
  body: SignupRequest,
  passwordHash: string | null,
  client: ClientInfo,
) {
  const invitation = body.invitationToken
    ? await findUsableInvitation(deps, tenant, body.invitationToken, body.email)
    : null;
  if (!invitation) throw fail('SIGNUP_NOT_ALLOWED', 'the invitation is not valid');
  const now = deps.clock.now();
  // The invitation used up, the user made ACTIVE and VALIDATED, SIGNUP recorded: in one transaction.
  const failed = await transact(
    deps.store,
    {
      invitation: invitationRepo(deps.store).useItem(tenant, invitation.tokenHash, now),
      user: userRepo(deps.store).updateItem(
        tenant,
        invitation.userId,
        {
          status: 'ACTIVE',
          emailStatus: 'VALIDATED',
          emailValidationExpiresAt: null,
          invitationHash: null,
          passwordHash,
          firstName: body.firstName,
          lastName: body.lastName,
          phone: body.phone ?? null,
        },
        // Still INVITED, and this still the invitation last sent (a resend meanwhile replaces it).
        {
          status: 'INVITED',
          ...(invitation.invited.invitationHash === null ? {} : { invitationHash: invitation.tokenHash }),
        },
      ),
      activity: activityItem(
        deps,
        tenant,
        invitation.userId,
        'SIGNUP',
        { ...client, actorId: invitation.userId },
        { detail: { via: 'INVITATION', email: invitation.invited.email } },
      ),
    },
    { retryConflicts: true },
  );
  // Used by a racing signup, the user no longer INVITED, or the invitation replaced by a resend.
  if (failed.size > 0) throw fail('SIGNUP_NOT_ALLOWED', 'the invitation is not valid');
  // An invitation accepted is a sign-up already verified: the invitation mail proved the address.
  deps.signals.count('Signups');
  deps.signals.count('SignupsVerified');
  deps.signals.user(invitation.userId);
  return null;
}

/**
 * POST /auth/signup. With an invitation token, finishes the invitation. Else,
 * in OPEN tenants, mails a code that `/auth/signup/verify` takes. An e-mail
 * that already has an account gets the same answer, and its owner a notice
 * instead of a code: the answer never tells whether an account exists. An
 * open signup counts in its IP's hourly limit and takes one mail of the
 * tenant's signup budget first (429 and 503 past them, alike for every
 * address), given back when no mail goes out.
 */
export async function signup(deps: Deps, tenant: Merchant, body: SignupRequest, client: ClientInfo) {
  assertSameTenant(tenant, body);
  assertPasswordRules(tenant, body.password);
  // A new address and a registered one take different paths (a user written, or a notice and a decoy): every answer,
  // refusals too, comes no sooner than the answer floor.
  return withTimeFloor(deps.config.answerFloorMs, () => signupFor(deps, tenant, body, client));
}

async function signupFor(deps: Deps, tenant: Merchant, body: SignupRequest, client: ClientInfo) {
  await enforceRateLimit(deps, tenant, client.ip);
  if (body.invitationToken !== undefined) {
    const passwordHash = body.password === undefined ? null : await hashPassword(deps.config.argon2, body.password);
    return acceptInvitation(deps, tenant, body, passwordHash, client);
  }
  if (tenant.signupMode !== 'OPEN') throw fail('SIGNUP_NOT_ALLOWED');
  await enforceSignupLimit(deps, tenant, client.ip);
  const budget = await takeSignupBudget(deps, tenant);
  try {
    return await openSignup(deps, tenant, body, budget, client.language);
  } catch (error) {
    await budget.giveBack();
    throw error;
  }
}

/** An open signup, its mail's unit of the signup budget taken: a code to a new address, or a notice to its owner. */
async function openSignup(
  deps: Deps,
  tenant: Merchant,
  body: SignupRequest,
  budget: SignupMailUnit,
  language: Language,
) {
  // Hashed whatever happens next, so every answer costs the same time.
  const passwordHash = body.password === undefined ? null : await hashPassword(deps.config.argon2, body.password);
  const pending = { passwordHash, firstName: body.firstName, lastName: body.lastName, phone: body.phone ?? null };
  const email = body.email;
  const user = await newUser(deps, tenant, {
    email,
    status: 'INACTIVE',
    emailStatus: 'VALIDATION_SENT',
    firstName: body.firstName,
    lastName: body.lastName,
    phone: body.phone ?? null,
    // The password takes effect only when the code is verified (from the challenge), never before.
    passwordHash: null,
  });
  // The details of this signup travel with the code and are applied at verification.
  const opened = newCodeChallenge(deps, { type: 'SIGNUP', userId: user.id, email, pending });
  // The user, its e-mail claim and its code in one transaction: never a user without the code that verifies it.
  const fresh = { ...user, emailValidationExpiresAt: opened.challenge.expiresAt };
  if (
    (await createUser(deps, tenant, fresh, [challengeRepo(deps.store).putItem(tenant, opened.challenge)])) === 'CREATED'
  ) {
    deps.signals.user(user.id);
    // A mail that cannot be sent takes the new user back: the address is free again. Not one held back by
    // the mail limit: that means a racing signup of this address just mailed a code for this very user.
    let takenBack = false;
    const undo = async (why: 'FAILED' | 'HELD_BACK') => {
      await budget.giveBack();
      if (why !== 'FAILED') return;
      await userRepo(deps.store).deleteUnverified(tenant, user);
      takenBack = true;
    };
    const mail = { kind: 'SIGNUP_CODE', code: opened.code } as const;
    await sendQuietlyOrUndo(deps, tenant, opened.challenge.id, email, mail, language, undo);
    // Only an account that stays is a sign-up (the answer is the same either way).
    if (!takenBack) deps.signals.count('Signups');
    return { challengeId: opened.challenge.id };
  }

  const owner = await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now());
  if (owner?.status === 'INACTIVE') {
    // Never verified: a fresh code, stored with the VALIDATION_SENT mark of its lapse. The signup's 24 h
    // (its `ttl`, from registeredAt) are not renewed: replaying signups must not keep a squatted address or
    // a junk profile forever, and the owner of the mailbox needs no more: this code activates the profile
    // with the details just given. Once expired, signing up again takes it over (users.create).
    const again = newCodeChallenge(deps, { type: 'SIGNUP', userId: owner.id, email, pending });
    if (await challengeRepo(deps.store).createForSignup(tenant, { ...again.challenge, userId: owner.id })) {
      // A mail that cannot be sent takes the mark back: no code went out.
      const { emailStatus, emailValidationExpiresAt } = owner;
      const undo = async () => {
        await budget.giveBack();
        await userRepo(deps.store).update(tenant, owner.id, { emailStatus, emailValidationExpiresAt }, 'INACTIVE');
      };
      const mail = { kind: 'SIGNUP_CODE', code: again.code } as const;
      await sendQuietlyOrUndo(deps, tenant, again.challenge.id, email, mail, language, undo);
      return { challengeId: again.challenge.id };
    }
    // Verified since it was read: it is now an account like any other.
  }
  // Already registered: a decoy challenge and a notice to the owner, in the sign-up request's language as every
  // mail a request causes (most often the owner's own, who forgot the account; no language is kept per user).
  const decoy = await openCodeChallenge(deps, tenant, { type: 'SIGNUP', userId: null, email: body.email });
  await sendQuietlyOrUndo(deps, tenant, decoy.challenge.id, body.email, { kind: 'ALREADY_REGISTERED' }, language, () =>
    budget.giveBack(),
  );
  return { challengeId: decoy.challenge.id };
}
