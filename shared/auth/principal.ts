import type { Merchant } from '../tenancy/types.ts';

/** Who is calling, once the auth stage has accepted their credential. */
export type Principal =
  | { kind: 'user'; userId: string; sessionId: string; roles: string[]; authority: number }
  | { kind: 'apiKey'; keyId: string; authority: number };

/** Authority is the lowest role priority held: SUPER_ADMIN 0, ADMIN 1 (CONTRACT.md, Rules). */
export const ADMIN_AUTHORITY = 1;

/**
 * The credential checks the auth stage calls. Each answers the principal, or
 * null when the credential is not good for this tenant. The authentication
 * issue supplies the real ones (jose verification + live session, hashed API
 * keys); until then no credential is accepted, so bearer and admin routes
 * answer 401.
 */
export interface Authenticators {
  bearer(token: string, tenant: Merchant): Promise<Principal | null>;
  apiKey(key: string, tenant: Merchant): Promise<Principal | null>;
}

export const rejectAllCredentials: Authenticators = {
  bearer: async () => null,
  apiKey: async () => null,
};
