/**
 * How long what the service mails stays answerable (CONTRACT.md, Rules), in
 * one leaf module: the challenges and invitations use these, and so does the
 * read of a user whose `emailStatus` predates VALIDATION_SENT (user-repo).
 */

/** E-mail codes live 10 minutes; a TOTP step after the first factor, as long. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

/** An invitation is good for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
