// POST /plants (plant store): bearer = an identity access token, tenant from its claims; NewPlant → Plant; CORS.
// Behind a JWT authorizer (PLANTS_JWT_AUTHORIZER_ISSUER) the caller comes from the authorizer's claims instead.
import { plantRoutes } from '#functions/plants/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { withAuthorizerEvent } from '#shared/plants/authorizer-claims.ts';
import { plantHandlerOptions, withPlantCors } from '#shared/plants/http.ts';
import { createPlant } from '#shared/plants/service.ts';

export const handler = withPlantCors(
  withAuthorizerEvent(
    httpHandler(
      plantRoutes.createPlant,
      ({ body, tenant, auth, request }, deps) => createPlant(deps, { tenant, principal: auth }, body, request.rawBody),
      plantHandlerOptions,
    ),
  ),
);
