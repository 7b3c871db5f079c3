import type { Language } from '../i18n/languages.ts';
import type { Merchant } from '../tenancy/types.ts';

/** Every mail the service sends. Codes are the 6-digit e-mail codes; they expire in 10 minutes. */
export type MailMessage =
  | { kind: 'SIGNUP_CODE'; code: string }
  | { kind: 'LOGIN_CODE'; code: string }
  | { kind: 'PASSWORD_RESET_CODE'; code: string }
  /**
   * A reset code an admin had sent (POST /users/{id}/password-reset): the link to the reset page carries the
   * challenge it answers (`challenge=<id>`), so it works in any browser; without hosted pages the body holds
   * the literal `challengeId=<id>` for the tenant's own app. The id alone is useless without the code.
   */
  | { kind: 'PASSWORD_RESET_BY_ADMIN'; code: string; challengeId: string }
  /** Sent instead of a sign-up code when the address already has an account (no enumeration). */
  | { kind: 'ALREADY_REGISTERED' }
  /**
   * The body holds the literal `invitationToken=<token>`, for clients that read the token from the mail: in the
   * hosted sign-up page's link, or on its own without hosted pages. `expiresAt`: ISO 8601.
   */
  | { kind: 'INVITATION'; invitationToken: string; inviterName: string | null; expiresAt: string }
  | { kind: 'PASSWORD_CHANGED' }
  | { kind: 'PASSWORD_RESET_DONE' }
  /** Sent to the new address. */
  | { kind: 'EMAIL_CHANGE_CODE'; code: string }
  /** Sent to the old address. */
  | { kind: 'EMAIL_CHANGED'; newEmail: string }
  /** Sent to the current address when a change to `newEmail` is asked for, before any code can be answered. */
  | { kind: 'EMAIL_CHANGE_REQUESTED'; newEmail: string }
  /** POST /auth/reauthenticate in a tenant taking e-mail codes: proves the signed-in user holds the mailbox. */
  | { kind: 'REAUTH_CODE'; code: string }
  | { kind: 'ACCOUNT_LOCKED'; minutes: number }
  /** To the admin who made a webhook endpoint that the service turned off after a day of failed deliveries. */
  | { kind: 'WEBHOOK_DISABLED'; url: string };

export interface Mailer {
  /**
   * Sends `message` to `to`, branded for `tenant`, written in `language`. Throws 503 UNAVAILABLE
   * (`Retry-After: 5`) when the mail service fails.
   */
  send(tenant: Merchant, to: string, message: MailMessage, language: Language): Promise<void>;
}
