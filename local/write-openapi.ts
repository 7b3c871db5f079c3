/**
 * `npm run openapi`: writes openapi.json, the identity service's document, and ROUTES.md, the flat
 * index of both services' routes, for readers of the repository.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMITTED_SERVER_URL, identityOpenApi } from '#functions/openapi.ts';
import { routeIndexMarkdown } from './route-index.ts';
import { REPO_ROOT } from './stack.ts';

writeFileSync(join(REPO_ROOT, 'openapi.json'), `${JSON.stringify(identityOpenApi(COMMITTED_SERVER_URL), null, 2)}\n`);
writeFileSync(join(REPO_ROOT, 'ROUTES.md'), routeIndexMarkdown());
