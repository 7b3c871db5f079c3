import type { Deps } from '../deps.ts';
import type { Language } from '../i18n/languages.ts';
import type { MailMessage } from '../mail/message.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { bindToMailedCode } from './challenges.ts';
import { deliver, isMailSuppressed } from './mail-delivery.ts';
import { type AdmittedMail, admitMail, mailPurposeOf } from './mail-limits.ts';

/**
 * What a mail that did not go out takes back: after a send that FAILED, or one a
 * limit HELD_BACK (the address had one of that purpose within the minute, or
 * the tenant's budget is spent, or mail to the address is suppressed after a
 * hard bounce or a complaint).
 */
export type Undo = (why: 'FAILED' | 'HELD_BACK') => Promise<void>;

/**
 * Mails a challenge's code; when the mail cannot be sent, removes the
 * challenge (and whatever `undo` names) before the 503 goes out, so no
 * half-made challenge stays usable. For mail on behalf of a signed-in caller
 * or an admin (e-mail change), who may learn that it failed.
 *
 * Every mail passes the mail limits first (admitMail: per recipient and
 * purpose, and the tenant's daily budget). Past a limit no mail goes out and
 * the caller answers exactly what a sent mail gives (the answer is
 * unchanged): held back by the per-recipient limit, the challenge takes the
 * code the address last received (bindToMailedCode); otherwise it is
 * disarmed into a decoy, since nobody has its code. `undo` takes back what
 * was made for the mail.
 *
 * An address whose mail is suppressed (SES reported a hard bounce or a
 * complaint for it) is held back the same way, before the limits
 * count anything; a security notice to it (EMAIL_CHANGE_REQUESTED, which no
 * limit holds back) is simply not sent, and the request goes on as if it were.
 */
export async function sendOrUndo(
  deps: Deps,
  tenant: Merchant,
  challengeId: string,
  to: string,
  message: MailMessage,
  language: Language,
  undo?: Undo,
): Promise<void> {
  const sent = await admitThenSend(deps, tenant, challengeId, to, message, language, undo);
  if (sent !== true) throw sent.error;
}

/**
 * Mails a challenge's code where the answer for an unknown address must equal
 * the answer for a known one (signup, forgot-password, e-mail-code login):
 * only known addresses get mail, so a 503 on a failed send would tell them
 * apart (docs/security.md#mail-failures). Like sendOrUndo it takes back the challenge
 * and `undo` (the code in it never arrived, so it must not work); the mail's
 * failure, or that of the clean-up, is logged and never answered: the request
 * answers what a sent mail's would. What a failed clean-up leaves is a
 * challenge whose code nobody has. A store fault of the mail limits is
 * answered as any store fault (503): it is not the mail failing.
 */
export async function sendQuietlyOrUndo(
  deps: Deps,
  tenant: Merchant,
  challengeId: string,
  to: string,
  message: MailMessage,
  language: Language,
  undo?: Undo,
): Promise<void> {
  const sent = await admitThenSend(deps, tenant, challengeId, to, message, language, undo);
  if (sent !== true) {
    deps.log.error('mail not sent; answered as sent', {
      mailKind: message.kind,
      errorName: sent.error instanceof Error ? sent.error.name : typeof sent.error,
    });
  }
}

/**
 * The address's suppression, the mail limits, then the mail. True when it
 * went out or was held back (both answer alike); the send's error otherwise,
 * after the clean-up (a failed send is counted as MailsFailed by its kind).
 * The store faults of the suppression's read and of the limits are thrown,
 * after the same clean-up.
 */
async function admitThenSend(
  deps: Deps,
  tenant: Merchant,
  challengeId: string,
  to: string,
  message: MailMessage,
  language: Language,
  undo: Undo | undefined,
): Promise<true | { error: unknown }> {
  const takeBack = async () => {
    await challengeRepo(deps.store).delete(tenant, challengeId);
    await undo?.('FAILED');
  };
  const purpose = mailPurposeOf(message.kind);
  const holdBack = async (lastChallengeId: string | null = null) => {
    // Bound to the code the address last received, while it lives: the owner completes it with the code in the
    // mailbox. Else a decoy, not a deletion: wrong answers to it count as on the decoy of an unknown address, so
    // a held-back mail looks, from outside, like no account at all, and like a sent one by its answer.
    const bound = lastChallengeId !== null && (await bindToMailedCode(deps, tenant, challengeId, lastChallengeId, to));
    if (!bound) await challengeRepo(deps.store).disarm(tenant, challengeId);
    await undo?.('HELD_BACK');
    return true as const;
  };
  const suppressed = await isMailSuppressed(deps, tenant, to, message.kind).catch(async (error: unknown) => {
    await takeBack();
    throw error;
  });
  if (suppressed) return purpose ? holdBack() : true;
  let admitted: AdmittedMail | null = null;
  if (purpose) {
    const admission = await admitMail(deps, tenant, to, purpose, challengeId).catch(async (error: unknown) => {
      await takeBack();
      throw error;
    });
    if (!admission.admitted) return holdBack(admission.lastChallengeId);
    admitted = admission;
  }
  try {
    await deliver(deps, tenant, to, message, language);
    return true;
  } catch (error) {
    try {
      // Not sent: not counted either, so the retry a failure invites is mailed.
      await admitted?.giveBack();
      await takeBack();
    } catch (cleanUpError) {
      return { error: cleanUpError };
    }
    return { error };
  }
}
