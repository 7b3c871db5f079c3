/** `npm run openapi`: writes openapi.json, the identity service's document, for readers of the repository. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { identityOpenApi } from '#functions/openapi.ts';
import { REPO_ROOT } from './stack.ts';

/** The committed copy names the local base URL; a deployed API serves its own at GET /openapi.json. */
export const COMMITTED_SERVER_URL = 'http://localhost:3000/api/v1';

writeFileSync(join(REPO_ROOT, 'openapi.json'), `${JSON.stringify(identityOpenApi(COMMITTED_SERVER_URL), null, 2)}\n`);
