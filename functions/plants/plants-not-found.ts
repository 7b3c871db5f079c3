// $default (plant store; any method and path no other route matches): no auth; → 404 { error: 404, message }
import { plantRoutes } from '#functions/plants/routes.ts';
import { fail } from '#shared/errors.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { plantHandlerOptions } from '#shared/plants/http.ts';

export const handler = httpHandler(
  plantRoutes.plantsNotFound,
  () => {
    throw fail('NOT_FOUND', 'no route matches this method and path');
  },
  plantHandlerOptions,
);
