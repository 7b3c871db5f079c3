import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../deps.ts';
import { fail } from '../errors.ts';
import { hostedOrigin } from '../tenancy/hosted-pages.ts';
import type { Merchant } from '../tenancy/types.ts';

/**
 * How long a ceremony may take, from the options handed out to the answer: the browser's `timeout` and the
 * challenge's life. Five minutes covers a phone asked over Bluetooth; a sign-in page left open longer asks again.
 */
export const PASSKEY_CEREMONY_MS = 5 * 60_000;

/** ES256, EdDSA and RS256 (COSE ids): what platform authenticators, security keys and Windows Hello make. */
export const PASSKEY_ALGORITHMS = [-7, -8, -257];

/** A tenant's WebAuthn relying party: the id passkeys are bound to, and the origins that may use them. */
export interface RelyingParty {
  /** The hosted pages' host, `<subdomain>.<webDomain>` (locally `<subdomain>.localhost`). */
  id: string;
  name: string;
  /** The hosted origin, then the tenant's allowed origins (Related Origin Requests: /.well-known/webauthn). */
  origins: string[];
}

/**
 * Each tenant is its own relying party: its hosted host is the RP ID, so a passkey made for one tenant is never
 * offered to, nor accepted by, another. A deployment without hosted pages has no RP ID to give: null.
 */
export function relyingPartyOf(config: Pick<Config, 'hostedPagesOrigin'>, tenant: Merchant): RelyingParty | null {
  const origin = hostedOrigin(config, tenant.subdomain);
  if (!origin) return null;
  return {
    id: new URL(origin).hostname,
    name: tenant.name,
    origins: [origin, ...tenant.allowedOrigins.filter((allowed) => allowed !== origin)],
  };
}

/** The tenant's relying party, or 403 PASSKEYS_NOT_ALLOWED when its passkeys are off (or cannot be on). */
export function requireRelyingParty(config: Pick<Config, 'hostedPagesOrigin'>, tenant: Merchant): RelyingParty {
  const party = relyingPartyOf(config, tenant);
  if (!tenant.passkeysAllowed || !party) throw fail('PASSKEYS_NOT_ALLOWED');
  return party;
}

/** A new challenge: 32 random bytes, which the options carry base64url-encoded. */
export function newPasskeyChallenge(): Uint8Array<ArrayBuffer> {
  return new Uint8Array(randomBytes(32));
}

/** What a challenge is stored under: its SHA-256 (the challenge itself is never stored). */
export function challengeHash(challenge: string): string {
  return createHash('sha256').update(challenge, 'utf8').digest('base64url');
}

/**
 * The challenge an answer signed, from its clientDataJSON (base64url JSON). Null when that is not JSON with a
 * string challenge: such an answer is refused as any other that does not verify.
 */
export function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 128 ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * The tenant's `/.well-known/webauthn` (WebAuthn Related Origin Requests): a merchant's own origins may then use the
 * passkeys bound to its hosted host. 404 while the tenant has passkeys off.
 */
export function relatedOrigins(config: Pick<Config, 'hostedPagesOrigin'>, tenant: Merchant): { origins: string[] } {
  const party = relyingPartyOf(config, tenant);
  if (!tenant.passkeysAllowed || !party) throw fail('NOT_FOUND');
  return { origins: party.origins };
}
