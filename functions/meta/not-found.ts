// $default (any method and path no other route matches): no auth, no tenant; → 404 NOT_FOUND
import { metaRoutes } from '#functions/meta/routes.ts';
import { fail } from '#shared/errors.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(metaRoutes.notFound, () => {
  throw fail('NOT_FOUND', 'no route matches this method and path');
});
