import type { Deps } from '../deps.ts';
import type { TenantRef } from '../store/keys.ts';
import type { TenantCache } from '../store/tenant-cache.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from '../users/types.ts';

/** Who is calling, once the auth stage has accepted their credential. */
export type Principal = UserPrincipal | { kind: 'apiKey'; keyId: string; authority: number };

export interface UserPrincipal {
  kind: 'user';
  userId: string;
  sessionId: string;
  roles: string[];
  authority: number;
  /**
   * When the session's first factor was last proven (login or POST
   * /auth/reauthenticate), read with the session at no extra cost; null for a
   * session stored before this was recorded. Absent or null never counts as
   * recent (recent-authentication.ts): the safe default for a principal built elsewhere.
   */
  authenticatedAt?: string | null;
  /** How the session's user proved who they are at login (RFC 8176), when recorded. */
  amr?: string[] | null;
  /** The profile the bearer check read (with the session, in one round trip): no second read for /users/me. */
  user?: User;
}

/**
 * The credential checks the auth stage calls. Each answers the principal, or
 * null when the credential is not good for this tenant (or throws an AppError
 * such as SESSION_REVOKED). Handlers of protected routes pass them to
 * httpHandler, so that only their bundles carry the token code.
 */
export interface Authenticators {
  /** A bearer is always a user: API keys come only through `apiKey`, which the auth stage calls on admin routes alone. */
  bearer(token: string, tenant: Merchant, deps: Deps): Promise<UserPrincipal | null>;
  /** Admin routes only (their handlers pass `identityAuthenticators`); a user's route carries no API key code. */
  apiKey?(key: string, tenant: Merchant, deps: Deps): Promise<Principal | null>;
  /**
   * The bearer check with the tenant read in the same round trip: the token is
   * verified first and, when it names the request's tenant, the merchant, the
   * session and the user are read together. Null when that cannot be done (a
   * bad token, another tenant's): the tenant stage then reads the tenant alone
   * and `bearer` gives the usual answer. A `cache` holding the tenant leaves it out of the read.
   */
  prefetchBearer?(token: string, tenant: TenantRef, deps: Deps, cache?: TenantCache): Promise<PrefetchedBearer | null>;
}

/** What the combined read found: the tenant (null if there is none), and the bearer check's verdict, given after the Origin check. */
export interface PrefetchedBearer {
  tenant: Merchant | null;
  /** The caller, or a throw of SESSION_REVOKED. */
  principal(): UserPrincipal;
}
