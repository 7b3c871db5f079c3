import { buildOpenApi } from '#shared/http/openapi.ts';
import { identityRouteList, namedSchemas } from './routes.ts';

/** The identity service's OpenAPI document, for `GET /openapi.json` and `npm run openapi`. */
export function identityOpenApi(serverUrl: string) {
  return buildOpenApi(identityRouteList, namedSchemas, {
    title: 'Identity service',
    version: '1.0.0',
    description: 'Multi-tenant identity: tenants, users, sessions, roles. Errors are RFC 9457 problem details.',
    serverUrl,
  });
}

/** The server the committed openapi.json names: the local stack. A deployed API serves its own at GET /openapi.json. */
export const COMMITTED_SERVER_URL = 'http://localhost:3000/api/v1';
