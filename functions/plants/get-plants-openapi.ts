// GET /openapi.json (plant store): no auth; → the plant store's OpenAPI 3.1 document
import { plantsOpenApi } from '#functions/plants/openapi.ts';
import { plantRoutes } from '#functions/plants/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { plantHandlerOptions } from '#shared/plants/http.ts';

/** Built once per deps: per cold start on Lambda, per stack locally (its URL is in the document). */
const documents = new WeakMap<object, ReturnType<typeof plantsOpenApi>>();

export const handler = httpHandler(
  plantRoutes.getPlantsOpenapi,
  (_input, deps) => {
    let document = documents.get(deps.config);
    if (!document) {
      document = plantsOpenApi(deps.config.plantsUrl);
      documents.set(deps.config, document);
    }
    return document;
  },
  plantHandlerOptions,
);
