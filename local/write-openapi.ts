/**
 * `npm run openapi`: writes openapi.json, the identity service's document; ROUTES.md, the flat index of both
 * services' routes, for readers of the repository; and the client SDK's wire types, from the document.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMITTED_SERVER_URL, identityOpenApi } from '#functions/openapi.ts';
import { CLIENT_WIRE_TYPES, clientWireTypes } from './openapi-types.ts';
import { routeIndexMarkdown } from './route-index.ts';
import { REPO_ROOT } from './stack.ts';

const document = `${JSON.stringify(identityOpenApi(COMMITTED_SERVER_URL), null, 2)}\n`;
writeFileSync(join(REPO_ROOT, 'openapi.json'), document);
writeFileSync(join(REPO_ROOT, 'ROUTES.md'), routeIndexMarkdown());
writeFileSync(join(REPO_ROOT, CLIENT_WIRE_TYPES), clientWireTypes(JSON.parse(document)));
