/**
 * `npm start`: the whole service on this machine, no AWS account. DynamoDB
 * Local keeps its data in `.data/` (`npm start -- --in-memory` for a throwaway
 * run), the SES emulator catches every e-mail, and the local gateways serve
 * the real handlers: the identity service's, and the plant store's on its own
 * port. Each tenant's hosted pages (web/, built by `npm start` first) are at
 * `http://<subdomain>.localhost:<port>`, with the API beside them under /api,
 * as CloudFront serves them on AWS. Ctrl-C stops everything, and prints the metrics the functions sent
 * (per route: requests, latency, outcomes; the counters), as CloudWatch would have them; `--metrics` prints
 * each request's line (its summary and its metrics) as it comes.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { badPortWarnings } from './bad-ports.ts';
import { ensureDemoProvider, startDemoProvider } from './demo-provider.ts';
import { ensureDemoTenant } from './demo-tenant.ts';
import { collectMetrics } from './metrics.ts';
import { localSecretsKey } from './secrets-key.ts';
import { REPO_ROOT, startLocalStack } from './stack.ts';

const { values } = parseArgs({
  options: { 'in-memory': { type: 'boolean', default: false }, metrics: { type: 'boolean', default: false } },
});
// The functions run in this process: their request lines come to this summary (service `local`, SERVICE_NAME unset).
const metrics = collectMetrics({ echo: values.metrics });
const inMemory = values['in-memory'] || process.env.IN_MEMORY === '1';
const dataDir = inMemory ? undefined : resolve(REPO_ROOT, process.env.IDENTITY_DATA_DIR ?? '.data');
const started = performance.now();

const stack = await startLocalStack({
  secretsKey: localSecretsKey(dataDir),
  port: Number(process.env.PORT ?? 3000),
  plantsPort: Number(process.env.PLANTS_PORT ?? 3001),
  sesPort: Number(process.env.SES_PORT ?? 8005),
  dynamoPort: Number(process.env.DYNAMODB_PORT ?? 8000),
  dataDir,
  onRequest: ({ method, path, status, ms }) => console.log(`${method} ${path} → ${status} (${ms} ms)`),
  // The table's stream read and webhooks delivered, as on AWS.
  webhooks: {},
});
const tenant = await ensureDemoTenant(stack.deps, dataDir);
const portOf = (url: string) => Number(new URL(url).port || 80);
const pages = stack.hostedPagesOrigin.replace('{subdomain}', tenant.subdomain);

// "Demo ID": a real OpenID provider on this machine, the demo tenant's "Sign in with Demo ID" button.
const demoProvider = await startDemoProvider({
  port: Number(process.env.DEMO_ID_PORT ?? 3002),
  redirectUris: [`${pages}/api/v1/auth/providers/callback`],
});
await ensureDemoProvider(stack.deps, tenant, demoProvider.issuer);

// The ports a browser opens (the pages and API, the plant store its pages call, the inbox): one it refuses is
// said before the ready message, not discovered as a page that never loads.
for (const warning of badPortWarnings({
  PORT: stack.port,
  ...(stack.plantsUrl ? { PLANTS_PORT: portOf(stack.plantsUrl) } : {}),
  SES_PORT: portOf(stack.sesUrl),
  DEMO_ID_PORT: demoProvider.port,
})) {
  console.warn(warning);
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`
Identity service ready in ${seconds} s

Hosted pages of the demo tenant (open in Chromium or any browser that resolves *.localhost)
  Sign in      ${pages}/sign-in
  Sign up      ${pages}/sign-up
  Account      ${pages}/account
  Console      ${pages}/console   (sign in as the admin below)
  OpenID       ${pages}   (the tenant's issuer: register clients under Console → Sign-in clients)

  API          ${stack.apiUrl}   (OpenAPI: ${stack.apiUrl}/openapi.json)
  Inbox        ${stack.sesUrl.replace('127.0.0.1', 'localhost')}/   (JSON: /store)
  DynamoDB     ${stack.dynamoEndpoint}   ${dataDir ? `data in ${dataDir}` : 'in memory'}
  Plant store  ${stack.plantsUrl}   (OpenAPI: ${stack.plantsUrl}/openapi.json)
  Demo ID      ${demoProvider.issuer}   (a sign-in provider: "Sign in with Demo ID" on the sign-in page)

Demo tenant "${tenant.subdomain}"
  app           ${tenant.app}
  mid           ${tenant.mid}
  publicApiKey  ${tenant.publicApiKey}
  admin         ${tenant.adminEmail}
  password      ${tenant.adminPassword}

Try: curl -H 'Origin: http://localhost:5173' '${stack.apiUrl}/auth/discovery?clientId=${tenant.publicApiKey}'
Metrics: a summary per route when you stop (\`npm start -- --metrics\` prints each request's line as it comes).
Ctrl-C stops everything.
`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${metrics.summary()}\n\nstopping…`);
  await Promise.all([stack.stop(), demoProvider.close()]);
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
