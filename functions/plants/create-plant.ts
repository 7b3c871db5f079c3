// POST /plants (plant store): bearer = an identity access token, tenant from its claims; NewPlant → Plant; CORS
import { plantRoutes } from '#functions/plants/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { plantHandlerOptions, withPlantCors } from '#shared/plants/http.ts';
import { createPlant } from '#shared/plants/service.ts';

export const handler = withPlantCors(
  httpHandler(
    plantRoutes.createPlant,
    ({ body, tenant, auth, request }, deps) => createPlant(deps, { tenant, principal: auth }, body, request.rawBody),
    plantHandlerOptions,
  ),
);
