// GET /openapi.json: no auth, no tenant; → this service's OpenAPI 3.1 document

import { metaRoutes } from '#functions/meta/routes.ts';
import { identityOpenApi } from '#functions/openapi.ts';
import { httpHandler } from '#shared/http/handler.ts';

/** Built once per deps: per cold start on Lambda, per stack locally (its URL is in the document). */
const documents = new WeakMap<object, ReturnType<typeof identityOpenApi>>();

export const handler = httpHandler(metaRoutes.getOpenapi, (_input, deps) => {
  let document = documents.get(deps.config);
  if (!document) {
    document = identityOpenApi(deps.config.issuerUrl);
    documents.set(deps.config, document);
  }
  return document;
});
