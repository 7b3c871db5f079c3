import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { MailMessage } from '../mail/message.ts';
import type { MailBudget } from '../store/keys.ts';
import { mailLimitRepo, type RecipientMailPolicy } from '../store/mail-limit-repo.ts';
import { DAY_MS, HOUR_MS } from '../store/ttl.ts';
import type { Merchant } from '../tenancy/types.ts';

/**
 * What a mail is for, as the per-recipient limit counts it: each purpose has
 * its own counter per address, so flooding one (say, reset codes) never
 * stops another (a login code). `REAUTH` is for the re-authentication code of
 * POST /auth/reauthenticate: its mail kind maps here.
 */
export type MailPurpose =
  | 'SIGNUP'
  | 'ALREADY_REGISTERED'
  | 'PASSWORD_RESET'
  | 'LOGIN'
  | 'EMAIL_CHANGE'
  | 'INVITATION'
  | 'REAUTH';

/** One mail a minute, five an hour, per recipient and purpose (docs/security.md#mail-limits-and-budgets). */
const CODES: RecipientMailPolicy = { perWindow: 5, windowMs: HOUR_MS, gapMs: 60_000 };

const POLICIES: Record<MailPurpose, RecipientMailPolicy> = {
  SIGNUP: CODES,
  PASSWORD_RESET: CODES,
  LOGIN: CODES,
  EMAIL_CHANGE: CODES,
  REAUTH: CODES,
  INVITATION: CODES,
  // At most one "you already have an account" notice a day. Anyone can trigger it for
  // any registered address, and it carries nothing the owner needs again within the day.
  ALREADY_REGISTERED: { perWindow: 1, windowMs: DAY_MS, gapMs: DAY_MS },
};

/**
 * Which mails the limits count. Every mail that an anonymous caller (or any
 * caller) can send to an address they name: the codes, the ALREADY_REGISTERED
 * notice, invitations. Not the security notices (password changed, reset
 * done, e-mail changed, account locked): they go to the owner after a change
 * only the owner (or a thief, whom they warn) could make, each such change
 * needs a password, a code or a session, and a limit shared with another
 * purpose would let whoever floods that purpose silence them. They count
 * neither per recipient nor against the tenant's budget. A new mail kind
 * must be placed here (the Record is exhaustive: typecheck says so).
 */
const PURPOSE_OF: Record<MailMessage['kind'], MailPurpose | null> = {
  SIGNUP_CODE: 'SIGNUP',
  ALREADY_REGISTERED: 'ALREADY_REGISTERED',
  PASSWORD_RESET_CODE: 'PASSWORD_RESET',
  // Counted with the owner's own reset codes: one mailbox gets at most five reset mails an hour, whoever asks.
  PASSWORD_RESET_BY_ADMIN: 'PASSWORD_RESET',
  LOGIN_CODE: 'LOGIN',
  EMAIL_CHANGE_CODE: 'EMAIL_CHANGE',
  REAUTH_CODE: 'REAUTH',
  INVITATION: 'INVITATION',
  // To the current address when a change is asked: a security notice, and only a
  // recently authenticated session can make it (one per request, within the per-IP rate limit).
  EMAIL_CHANGE_REQUESTED: null,
  PASSWORD_CHANGED: null,
  PASSWORD_RESET_DONE: null,
  EMAIL_CHANGED: null,
  ACCOUNT_LOCKED: null,
  // At most one per endpoint a day: only a day of failed deliveries turns an endpoint off.
  WEBHOOK_DISABLED: null,
};

/**
 * Which of the tenant's daily budgets a purpose's mail spends. The `signup` budget is taken by the signup request
 * itself (takeSignupBudget), before it writes anything, so that past it every signup answers 503 alike, known
 * address or not: admitMail takes only the `account` budget.
 */
const BUDGET_OF: Record<MailPurpose, MailBudget> = {
  SIGNUP: 'signup',
  ALREADY_REGISTERED: 'signup',
  PASSWORD_RESET: 'account',
  LOGIN: 'account',
  EMAIL_CHANGE: 'account',
  REAUTH: 'account',
  INVITATION: 'account',
};

/** The purpose a mail counts under, or null for mail the limits never hold back. */
export function mailPurposeOf(kind: MailMessage['kind']): MailPurpose | null {
  return PURPOSE_OF[kind];
}

/** A mail the limits let through, counted; `giveBack` uncounts it when it could not be sent after all. */
export interface AdmittedMail {
  admitted: true;
  giveBack(): Promise<void>;
}

/**
 * A mail a limit held back. `lastChallengeId`: when the per-recipient limit did, the challenge whose code the
 * address last received for the purpose (bindToMailedCode), if any.
 */
export interface HeldBackMail {
  admitted: false;
  lastChallengeId: string | null;
}

/**
 * The address the per-recipient limit counts: trimmed, lower-cased, and any `+tag` taken off its local part, so
 * that `Victim@x`, `victim+1@x` and `victim+2@x` (one mailbox at most providers) share one counter.
 */
export function normalizedRecipient(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  const plus = lower.indexOf('+');
  return plus > 0 && plus < at ? `${lower.slice(0, plus)}${lower.slice(at)}` : lower;
}

/**
 * Whether a mail for `purpose` may go to `to` now: the tenant's `account`
 * budget of the day (MAIL_DAILY_BUDGET_PER_TENANT; a signup's mail has taken
 * the `signup` budget already), then the per-recipient limit (one a minute,
 * five an hour; one ALREADY_REGISTERED notice a day; per normalizedRecipient).
 * Both are counted when it is let through (so call this just before sending);
 * a refusal (`admitted: false`) is logged by purpose and limit, never with the
 * address or a code. A mail of a challenge's code names it (`challengeId`):
 * held back by the recipient limit, the refusal names the challenge whose code
 * the address last got instead. A mail that then fails to send is given back:
 * it never arrived, and the retry a failure invites must not find the
 * address's minute spent.
 *
 * The budget first, given back when the recipient refuses: so flooding one
 * address never spends the tenant's mail, and a store failing between the two
 * leaves at worst one mail of the day counted, never an address held back.
 * Store faults are thrown (503 UNAVAILABLE, as any other store fault).
 *
 * @example
 * const admission = await admitMail(deps, tenant, user.email, 'REAUTH', challenge.id);
 * if (admission.admitted) await deps.mailer.send(…).catch(async (error) => { await admission.giveBack(); throw error; });
 */
export async function admitMail(
  deps: Deps,
  tenant: Merchant,
  to: string,
  purpose: MailPurpose,
  challengeId?: string,
): Promise<AdmittedMail | HeldBackMail> {
  const now = deps.clock.now();
  const limits = mailLimitRepo(deps.store);
  const refused = (limit: string, lastChallengeId: string | null = null): HeldBackMail => {
    deps.log.info('mail suppressed: limit reached', { tenantId: tenant.id, mailPurpose: purpose, limit });
    deps.signals.count('MailsSuppressed');
    return { admitted: false, lastChallengeId };
  };
  const spendsAccountBudget = BUDGET_OF[purpose] === 'account';
  if (
    spendsAccountBudget &&
    !(await limits.takeTenantBudget(tenant, 'account', deps.config.mailDailyBudgetPerTenant, now))
  ) {
    return refused('TENANT_DAILY_BUDGET');
  }
  const giveBackBudget = async () => {
    if (spendsAccountBudget) await limits.releaseTenantBudget(tenant, 'account', now);
  };
  const address = normalizedRecipient(to);
  const slot = await limits
    .takeRecipientSlot(tenant, purpose, address, POLICIES[purpose], now, challengeId)
    .catch(async (error) => {
      await giveBackBudget().catch(() => undefined);
      throw error;
    });
  if (!('key' in slot)) {
    await giveBackBudget();
    return refused('RECIPIENT', slot.lastChallengeId);
  }
  return {
    admitted: true,
    async giveBack() {
      await Promise.all([limits.releaseRecipientSlot(slot), giveBackBudget()]);
    },
  };
}

/** The signup mail budget's unit one signup took; given back when no mail went out after all. */
export interface SignupMailUnit {
  /** Never throws: a unit not given back (a store fault) only leaves the day's count one higher. */
  giveBack(): Promise<void>;
}

/** Seconds from `now` to the next UTC midnight, when the day's budgets start again. */
function secondsToUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/**
 * Takes one mail of the tenant's `signup` budget of the day
 * (SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT) for an open signup, before it writes
 * or looks up anything: each open signup mails one thing (a code, or an
 * "already registered" notice). Spent: 503 UNAVAILABLE with Retry-After
 * (until midnight UTC), for every signup alike, so the answer tells nothing
 * about the address. Signups spend this budget only, never the `account` one
 * that login, reset and other codes spend: strangers signing up can stop a
 * tenant's signups for the day, never its users' sign-ins.
 */
export async function takeSignupBudget(deps: Deps, tenant: Merchant): Promise<SignupMailUnit> {
  const now = deps.clock.now();
  const limits = mailLimitRepo(deps.store);
  if (!(await limits.takeTenantBudget(tenant, 'signup', deps.config.signupMailDailyBudgetPerTenant, now))) {
    deps.log.info('signup refused: limit reached', { tenantId: tenant.id, limit: 'TENANT_SIGNUP_BUDGET' });
    deps.signals.count('MailsSuppressed');
    throw fail('UNAVAILABLE', {
      detail: 'signups are paused until midnight UTC',
      headers: { 'retry-after': String(secondsToUtcMidnight(now)) },
    });
  }
  let given = false;
  return {
    async giveBack() {
      if (given) return;
      given = true;
      await limits.releaseTenantBudget(tenant, 'signup', now).catch((error: unknown) => {
        deps.log.error('signup mail budget not given back', {
          errorName: error instanceof Error ? error.name : typeof error,
        });
      });
    },
  };
}
