import { deliver, isMailSuppressed } from '../auth/mail-delivery.ts';
import { admitMail, mailPurposeOf } from '../auth/mail-limits.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { Language } from '../i18n/languages.ts';
import type { MailMessage } from '../mail/message.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { personName } from '../users/view.ts';

/**
 * Mails `message` to `to` on an admin's behalf (invitations, a resent invitation, a password reset), or says why
 * not: unlike the anonymous routes' mail, whose answer must not tell whether an address has an account, the admin
 * sees every user anyway and is told. A suppressed address (a hard bounce or a complaint) and a mail past a limit
 * (per recipient and purpose, the tenant's daily budget: shared/auth/mail-limits.ts) are 503 UNAVAILABLE with
 * `Retry-After`, saying which; so is a failed send, counted back so that the retry it invites is mailed. The
 * limits are what stop an admin, or a stolen admin key, from mailing one address in a loop, or every address.
 * Throws only when nothing went out; the caller then takes back what it made for the mail.
 */
export async function mailForAdmin(
  deps: Deps,
  tenant: Merchant,
  to: string,
  message: MailMessage,
  what: string,
  language: Language,
) {
  if (await isMailSuppressed(deps, tenant, to, message.kind)) {
    throw fail('UNAVAILABLE', {
      detail: `${what} cannot be sent: mail to this address is suppressed (it bounced or was reported as spam)`,
      headers: { 'retry-after': '60' },
    });
  }
  const purpose = mailPurposeOf(message.kind);
  const admitted = purpose ? await admitMail(deps, tenant, to, purpose) : null;
  if (admitted && !admitted.admitted) {
    throw fail('UNAVAILABLE', {
      detail: `${what} cannot be sent now: a mail limit is reached (one a minute and five an hour to an address)`,
      headers: { 'retry-after': '60' },
    });
  }
  await deliver(deps, tenant, to, message, language).catch(async (error: unknown) => {
    // Not sent: not counted either, so the admin's retry is not held back.
    if (admitted?.admitted) await admitted.giveBack().catch(() => undefined);
    throw error;
  });
}

/** The name an invitation gives its inviter: the admin's own (none when they have none); none for an API key. */
export async function inviterNameOf(deps: Deps, tenant: Merchant, principal: Principal): Promise<string | null> {
  if (principal.kind !== 'user') return null;
  const inviter = principal.user ?? (await userRepo(deps.store).get(tenant, principal.userId));
  return inviter ? personName(inviter) : null;
}
