// OPTIONS /{proxy+} (plant store): CORS preflight for every path; → 204, Origin echoed only when some identity tenant allows it
import { plantRoutes } from '#functions/plants/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { plantPreflight } from '#shared/plants/cors.ts';
import { plantHandlerOptions } from '#shared/plants/http.ts';

export const handler = httpHandler(
  plantRoutes.plantsPreflight,
  ({ request }, deps) => plantPreflight(deps, request.origin),
  plantHandlerOptions,
);
