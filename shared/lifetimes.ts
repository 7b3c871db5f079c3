/**
 * How long what the service mails stays answerable (docs/security.md#tokens-and-lifetimes), in
 * one leaf module: the challenges, sessions and invitations use these, and so
 * do the store's TTLs and the read of a user whose `emailStatus` predates
 * VALIDATION_SENT (user-repo).
 */

/** E-mail codes live 10 minutes; a TOTP step after the first factor, as long. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

/** Refresh tokens live 7 days from login, whatever the refreshes. */
export const REFRESH_TOKEN_TTL_MS = 7 * 86_400_000;

/**
 * A session counts as freshly authenticated this long after its first factor
 * was last proven (login, or POST /auth/reauthenticate): e-mail change, TOTP
 * enrolment and removal, API key creation and the admin powers need it (docs/security.md#recent-authentication).
 */
export const REAUTHENTICATION_WINDOW_MS = 10 * 60_000;

/**
 * A signup never verified expires 24 hours after it was made (docs/security.md#unverified-signups):
 * its INACTIVE profile and e-mail claim carry a `ttl` then, every read treats it as gone from then on,
 * and its address is free. Counted from `registeredAt`, which signing up again does not move.
 */
export const UNVERIFIED_SIGNUP_TTL_MS = 24 * 3_600_000;

/** An invitation is good for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
