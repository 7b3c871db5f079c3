import { hashToken } from '../auth/codes.ts';
import { sameSecret } from '../crypto/same-secret.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { TenantRef } from '../store/keys.ts';
import { oidcClientRepo, type StoredOidcClient } from '../store/oidc-client-repo.ts';
import { isOidcClientId } from './clients.ts';

/** What a token or revocation request says about its client: the form's fields and the Authorization header. */
export interface ClientCredentials {
  authorization: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
}

/** RFC 6749 2.3.1: the id and secret in Basic are form-encoded first. */
function basicCredentials(authorization: string): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

function secretMatches(client: StoredOidcClient, secret: string): boolean {
  if (!client.secretHash || secret.length === 0 || secret.length > 512) return false;
  const expected = Buffer.from(client.secretHash, 'hex');
  const actual = Buffer.from(hashToken(secret), 'hex');
  return sameSecret(expected, actual);
}

/**
 * The client of a token or revocation request (RFC 6749 2.3): a confidential client by its secret in Basic
 * (`client_secret_basic`) or the form (`client_secret_post`), one method only; a public client by its id
 * alone (`none`: PKCE proves the code's holder). Anything else is 401 INVALID_CLIENT, the same answer for
 * an unknown client, a wrong secret and a missing one.
 */
export async function authenticateClient(deps: Deps, tenant: TenantRef, credentials: ClientCredentials) {
  const usedBasic = /^Basic\s/i.test(credentials.authorization ?? '');
  const basic = usedBasic ? basicCredentials(credentials.authorization as string) : null;
  // Every 401 names a scheme to authenticate with (RFC 9110 15.5.2; RFC 6749 5.2 for a client that tried Basic).
  const refuse = (detail: string) =>
    fail('INVALID_CLIENT', { detail, headers: { 'www-authenticate': 'Basic realm="token"' } });
  if (usedBasic && !basic) throw refuse('malformed Basic credentials');
  if (basic && credentials.clientSecret !== undefined) throw refuse('one client authentication method at a time');
  if (basic && credentials.clientId !== undefined && credentials.clientId !== basic.id) {
    throw refuse('client_id differs from the authenticated client');
  }
  const clientId = basic?.id ?? credentials.clientId;
  const secret = basic?.secret ?? credentials.clientSecret;
  const client = clientId && isOidcClientId(clientId) ? await oidcClientRepo(deps.store).get(tenant, clientId) : null;
  if (!client) throw refuse('unknown client');
  if (client.type === 'confidential') {
    if (secret === undefined || !secretMatches(client, secret)) throw refuse('the client secret is wrong or missing');
  } else if (secret !== undefined && secret !== '') {
    // A public client has no secret: one sent is a misconfigured client, said plainly.
    throw refuse('a public client authenticates with its client_id alone');
  }
  return client;
}
