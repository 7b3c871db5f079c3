// GET /openapi.json: no auth, no tenant; → this service's OpenAPI 3.1 document
import { identityOpenApi } from '#functions/openapi.ts';
import { identityRoutes } from '#functions/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';

let document: ReturnType<typeof identityOpenApi> | undefined;

export const handler = httpHandler(identityRoutes.getOpenapi, (_input, deps) => {
  document ??= identityOpenApi(deps.config.issuerUrl);
  return document;
});
