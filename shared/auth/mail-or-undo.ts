import type { Deps } from '../deps.ts';
import type { MailMessage } from '../mail/message.ts';
import type { Merchant } from '../tenancy/types.ts';

/**
 * Mails a challenge's code; when the mail cannot be sent, removes the
 * challenge (and whatever `undo` names) before the 503 goes out, so no
 * half-made challenge stays usable. For mail on behalf of a signed-in caller
 * or an admin (e-mail change), who may learn that it failed.
 */
export async function sendOrUndo(
  deps: Deps,
  tenant: Merchant,
  challengeId: string,
  to: string,
  message: MailMessage,
  undo?: () => Promise<void>,
): Promise<void> {
  try {
    await deps.mailer.send(tenant, to, message);
  } catch (error) {
    await deps.challenges.delete(tenant, challengeId);
    await undo?.();
    throw error;
  }
}

/**
 * Mails a challenge's code where the answer for an unknown address must equal
 * the answer for a known one (signup, forgot-password, e-mail-code login):
 * only known addresses get mail, so a 503 on a failed send would tell them
 * apart (CONTRACT.md, Details). sendOrUndo takes back the challenge and `undo`
 * (the code in it never arrived, so it must not work); its failure, or that of
 * the clean-up, is logged and never answered: the request answers what a sent
 * mail's would. What a failed clean-up leaves is a challenge whose code nobody has.
 */
export async function sendQuietlyOrUndo(
  deps: Deps,
  tenant: Merchant,
  challengeId: string,
  to: string,
  message: MailMessage,
  undo?: () => Promise<void>,
): Promise<void> {
  await sendOrUndo(deps, tenant, challengeId, to, message, undo).catch((error: unknown) => {
    deps.log.error('mail not sent; answered as sent', {
      mailKind: message.kind,
      errorName: error instanceof Error ? error.name : typeof error,
    });
  });
}
