// GET /openapi.json (plant store): no auth; → the plant store's OpenAPI 3.1 document
import { plantsOpenApi } from '#functions/plants/openapi.ts';
import { plantRoutes } from '#functions/plants/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { plantHandlerOptions } from '#shared/plants/http.ts';

let document: ReturnType<typeof plantsOpenApi> | undefined;

export const handler = httpHandler(
  plantRoutes.getPlantsOpenapi,
  (_input, deps) => {
    document ??= plantsOpenApi(deps.config.plantsUrl);
    return document;
  },
  plantHandlerOptions,
);
