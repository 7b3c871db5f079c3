import { createHash } from 'node:crypto';
import type { TenantRef } from '../store/keys.ts';

const USER_ID = /^usr_[0-9a-z]{20}$/;

/**
 * A passkey's id: `pkey_` and the first 24 characters (144 bits) of the SHA-256 of its tenant and credential id.
 * The same credential always gets the same id in a tenant, so the credential an answer names is read by key, and
 * its claim keeps it one user's; in another tenant it is another id (no key of one tenant names another's).
 */
export function passkeyIdOf(tenant: TenantRef, credentialId: string): string {
  const hash = createHash('sha256').update(`${tenant.app}\n${tenant.mid}\n${credentialId}`, 'utf8');
  return `pkey_${hash.digest('base64url').slice(0, 24)}`;
}

/** The WebAuthn user handle of a user: the bytes of their user id (opaque, random, no personal data). */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId, 'utf8'));
}

/** The user id an answer's user handle (base64url) names, or null when it names none of ours. */
export function userIdOfHandle(userHandle: string | undefined): string | null {
  if (!userHandle) return null;
  const id = Buffer.from(userHandle, 'base64url').toString('utf8');
  return USER_ID.test(id) ? id : null;
}
