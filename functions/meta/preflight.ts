// OPTIONS /{proxy+}: CORS preflight for every path; → 204, Origin echoed only when some tenant allows it
import { metaRoutes } from '#functions/meta/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { preflightHeaders } from '#shared/http/preflight.ts';

export const handler = httpHandler(metaRoutes.preflight, ({ request, params }, deps) =>
  preflightHeaders(deps, request.origin, params.proxy),
);
