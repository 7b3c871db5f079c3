import type { Deps } from '../deps.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { Merchant } from '../tenancy/types.ts';

/**
 * Mails a challenge's code; when the mail cannot be sent, removes the
 * challenge (and whatever `undo` names) before the 503 goes out, so no
 * half-made challenge stays usable.
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
