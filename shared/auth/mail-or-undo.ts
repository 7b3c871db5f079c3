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
    await takeBack(deps, tenant, challengeId, undo);
    throw error;
  }
}

/** What a mail that never went out leaves: its challenge (whose code nobody has), and `undo`. */
async function takeBack(deps: Deps, tenant: Merchant, challengeId: string, undo?: () => Promise<void>) {
  await deps.challenges.delete(tenant, challengeId);
  await undo?.();
}

/**
 * Mails a challenge's code where the answer for an unknown address must equal
 * the answer for a known one (signup, forgot-password, e-mail-code login):
 * only known addresses get mail, so a 503 on a failed send would tell them
 * apart (CONTRACT.md, Details). A mail that cannot be sent is logged, the
 * challenge and `undo` taken back (the code in it never arrived, so it must
 * not work), and the request answers what a sent mail's would. A failure of
 * that clean-up is logged too, never answered: what stays is a challenge
 * whose code nobody has.
 */
export async function sendQuietlyOrUndo(
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
    deps.log.error('mail not sent; answered as sent', { mailKind: message.kind, errorName: errorNameOf(error) });
    try {
      await takeBack(deps, tenant, challengeId, undo);
    } catch (cleanupError) {
      deps.log.error('mail not sent; clean-up failed', {
        mailKind: message.kind,
        errorName: errorNameOf(cleanupError),
      });
    }
  }
}

function errorNameOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
