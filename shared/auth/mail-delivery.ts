import type { Deps } from '../deps.ts';
import type { Language } from '../i18n/languages.ts';
import type { MailMessage } from '../mail/message.ts';
import { mailSuppressionRepo } from '../store/mail-suppression-repo.ts';
import type { Merchant } from '../tenancy/types.ts';

/**
 * Whether mail to `to` is suppressed in this tenant (SES reported a
 * hard bounce or a complaint for it, and no admin has cleared it since). Asked
 * before any mail to an address: codes, invitations, notices. A suppressed
 * mail is logged by kind and reason, never with the address, and counted as
 * `MailsSuppressed` (with the mails the limits hold back). Store faults are
 * thrown, as any store fault.
 */
export async function isMailSuppressed(
  deps: Deps,
  tenant: Merchant,
  to: string,
  kind: MailMessage['kind'],
): Promise<boolean> {
  const suppression = await mailSuppressionRepo(deps.store).get(tenant, to);
  if (!suppression) return false;
  deps.log.info('mail suppressed: address suppressed', {
    tenantId: tenant.id,
    mailKind: kind,
    reason: suppression.reason,
  });
  deps.signals.count('MailsSuppressed');
  return true;
}

/**
 * Sends one mail through the deps' mailer, written in `language`; a mail it could not send (SES
 * refused it or failed) is counted as `MailsFailed` by its kind before the
 * error goes on. Every send of the service goes through here.
 */
export async function deliver(
  deps: Deps,
  tenant: Merchant,
  to: string,
  message: MailMessage,
  language: Language,
): Promise<void> {
  try {
    await deps.mailer.send(tenant, to, message, language);
  } catch (error) {
    deps.signals.mailFailed(message.kind);
    throw error;
  }
}

/**
 * A notice to the owner after a change (password changed, reset done, e-mail
 * changed): nothing when the address is suppressed (the change stands, as it
 * does when a notice cannot be sent); the send's error, or the store's,
 * otherwise thrown for the caller to log.
 */
export async function sendNotice(
  deps: Deps,
  tenant: Merchant,
  to: string,
  message: MailMessage,
  language: Language,
): Promise<void> {
  if (await isMailSuppressed(deps, tenant, to, message.kind)) return;
  await deliver(deps, tenant, to, message, language);
}
