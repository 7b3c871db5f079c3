import { effectiveRoles } from '../roles/authority.ts';
import type { User } from '../users/types.ts';

/**
 * The scopes this provider knows (OpenID Connect Core 5.4), and the claims each lets a client see. Ours: `roles`, the
 * user's effective role names, released only when asked for (they tell a client who may administer the tenant).
 * `offline_access` is what a refresh token needs (OIDC Core 11): a client with the `refresh_token` grant that did not ask
 * for it gets none.
 */
export const SUPPORTED_SCOPES = ['openid', 'profile', 'email', 'phone', 'roles', 'offline_access'] as const;

/** The known scopes among those asked for, in our order; unknown ones are ignored (OIDC Core 3.1.2.1). */
export function knownScopes(requested: readonly string[]): string[] {
  return SUPPORTED_SCOPES.filter((scope) => requested.includes(scope));
}

/** The user's claims that `scopes` allow (ID token and userinfo), beside `sub`. */
export function claimsFor(user: User, scopes: readonly string[], now: Date): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  // A claim without a value is left out, never null (OIDC Core 5.3.2).
  if (scopes.includes('profile')) {
    const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
    // The full name too (OIDC Core 5.1): the one claim most clients show (Auth.js's session `name`).
    if (name) claims.name = name;
    if (user.firstName) claims.given_name = user.firstName;
    if (user.lastName) claims.family_name = user.lastName;
  }
  if (scopes.includes('email')) {
    claims.email = user.email;
    claims.email_verified = user.emailStatus === 'VALIDATED';
  }
  if (scopes.includes('phone') && user.phone) claims.phone_number = user.phone;
  return { ...claims, ...rolesClaim(user, scopes, now) };
}

/** `roles` with the scope `roles`, nothing without it: in the ID token, userinfo and the access token alike. */
export function rolesClaim(user: User, scopes: readonly string[], now: Date): { roles?: string[] } {
  return scopes.includes('roles') ? { roles: effectiveRoles(user, now).names } : {};
}
