import { buildOpenApi } from '#shared/http/openapi.ts';
import { PlantError } from '#shared/plants/schemas.ts';
import { plantRouteList, plantSchemas } from './routes.ts';

/** The plant store's OpenAPI 3.1 document, for its `GET /openapi.json`. */
export function plantsOpenApi(serverUrl: string) {
  return buildOpenApi(
    plantRouteList,
    plantSchemas,
    {
      title: 'Plant store',
      version: '1.0.0',
      description:
        "A sample resource server. Send an identity service access token as the bearer: plants are stored in its tenant (the token's app and mid).",
      serverUrl,
      license: { name: 'MIT', identifier: 'MIT' },
      tags: {
        plants: "Plants, stored in the tenant of the caller's access token",
        meta: 'The service itself: this document',
      },
    },
    {
      name: 'Error',
      schema: PlantError,
      contentType: 'application/json',
      description: 'Unexpected error',
      responses: 'status',
    },
  );
}
