import { buildOpenApi } from '#shared/http/openapi.ts';
import { webhookDocs } from '#shared/webhooks/events.ts';
import { identityRouteList, namedSchemas } from './routes.ts';

/** The identity service's OpenAPI document, for `GET /openapi.json` and `npm run openapi`. */
export function identityOpenApi(serverUrl: string) {
  return buildOpenApi(identityRouteList, namedSchemas, {
    title: 'Identity service',
    version: '1.0.0',
    description: 'Multi-tenant identity: tenants, users, sessions, roles. Errors are RFC 9457 problem details.',
    serverUrl,
    // Not open source: no SPDX identifier applies.
    license: { name: 'Proprietary' },
    tags: {
      meta: 'The service itself: health, this document, the token-signing keys and issuer metadata',
      auth: 'Discovery, signup, login and its challenges, tokens, password recovery',
      me: "The signed-in user's own profile, password, e-mail address, TOTP and sessions",
      sessions: "The caller's sessions as a whole",
      merchants: "The tenant's settings and API keys (admin)",
      'admin-users': "The tenant's users: invitations, status, TOTP reset, devices, activity (admin)",
      roles: 'Roles and their grants (admin)',
      oidc: "The tenant's OpenID Connect clients: registration, secrets (admin)",
      'openid-provider':
        "Each tenant's OpenID Provider. The protocol endpoints (tenant: issuer) are served on the tenant's issuer, its hosted origin https://<subdomain>.<webDomain>, under /api/v1: they answer OAuth's errors, not problem details. The sign-in and sign-out pages' steps take the tenant headers.",
      passkeys:
        "Passkeys (WebAuthn): signing in and proving it is you again with one, the signed-in user's own, an admin's view of a user's. Each tenant is its own relying party: its RP ID is its hosted pages' host, <subdomain>.<webDomain>.",
      'sign-in-providers':
        "Signing in with Google, Apple, Microsoft, GitHub or any OpenID provider, configured per tenant: the providers (a signed-in admin; never an API key), the sign-in (start, the providers' callback on the tenant's issuer host <subdomain>.<webDomain>, the page taking the result) and the provider accounts linked to a user.",
      webhooks:
        "Signed webhooks (Standard Webhooks): a tenant's endpoints, their signing secrets, their delivery log, test events, redelivery and replay (a signed-in admin; never an API key). The events sent are the document's `webhooks`.",
    },
    webhooks: webhookDocs(),
  });
}

/** The server the committed openapi.json names: the local stack. A deployed API serves its own at GET /openapi.json. */
export const COMMITTED_SERVER_URL = 'http://localhost:3000/api/v1';
