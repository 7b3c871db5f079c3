// GET /openapi.json: no auth, no tenant; → this service's OpenAPI 3.1 document

import { metaRoutes } from '#functions/meta/routes.ts';
import { identityOpenApi } from '#functions/openapi.ts';
import { httpHandler } from '#shared/http/handler.ts';

let document: ReturnType<typeof identityOpenApi> | undefined;

export const handler = httpHandler(metaRoutes.getOpenapi, (_input, deps) => {
  document ??= identityOpenApi(deps.config.issuerUrl);
  return document;
});
