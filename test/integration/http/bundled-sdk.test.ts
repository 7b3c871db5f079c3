import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { identityRouteList } from '#functions/routes.ts';
import { bundlingFor, REPO_ROOT } from '#infra/http-api.ts';
import { type SesEmulator, startSesEmulator } from '#local/ses.ts';
import { sessionRepo } from '#shared/store/session-repo.ts';
import { aTenantWith, aUser, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { aContext, anEvent } from '#test/support/events.ts';

/**
 * The routes a user waits on carry the AWS SDK in their bundle (`bundleSdk`): these are those bundles,
 * built with the stack's esbuild options and run as Lambda runs them, against DynamoDB Local. A bundling change
 * that loses part of the SDK (a dynamic require, a provider left out that the client needs at its first call)
 * fails here rather than on AWS. `login` is the argon2 route among them: its native module is required from
 * beside the bundle, as in the deployed asset.
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const OUT = join(REPO_ROOT, 'node_modules', '.cache', `bundled-sdk-test-${process.pid}`);
const bundled = identityRouteList.filter((route) => route.bundleSdk);

async function bundle(operationId: string): Promise<Handler> {
  const route = bundled.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`${operationId} does not bundle the SDK`);
  const options = bundlingFor(route);
  const outfile = join(OUT, `${operationId}.mjs`);
  await build({
    entryPoints: [join(REPO_ROOT, route.entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: options.target ?? 'node22',
    minify: options.minify ?? true,
    mainFields: options.mainFields ?? [],
    banner: { js: options.banner ?? '' },
    external: [...(options.externalModules ?? []), ...(options.nodeModules ?? [])],
    outfile,
    logLevel: 'silent',
  });
  return ((await import(pathToFileURL(outfile).href)) as { handler: Handler }).handler;
}

/** A POST /auth/login event with this body and the tenant's headers. */
const aLogin = (headers: Record<string, string>, body: Record<string, string>) =>
  anEvent({ method: 'POST', path: '/api/v1/auth/login', headers, body: JSON.stringify(body) });

let tenant: TestTenant;
let user: TestUser;
let ses: SesEmulator;
const saved = { ...process.env };

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  ses = await startSesEmulator(0);
  // What the stack gives every function, pointed at the test run's DynamoDB Local.
  Object.assign(process.env, {
    TABLE_NAME: inject('tableName'),
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    AWS_REGION: 'us-east-1',
    ISSUER_URL: 'http://localhost:3000/api/v1',
    LOCAL_SECRETS_KEY: inject('secretsKey'),
    SES_ENDPOINT: ses.url,
  });
  tenant = await aTenantWith();
  user = await aUser(tenant);
});

afterAll(async () => {
  process.env = saved;
  await ses?.close();
  rmSync(OUT, { recursive: true, force: true });
});

describe('bundles that carry the AWS SDK', () => {
  it('are exactly the routes a user waits on at sign-in', () => {
    expect(bundled.map((route) => route.operationId).sort()).toEqual(
      ['authorize', 'discovery', 'getMe', 'login', 'loginVerify', 'oidcToken', 'refresh'].sort(),
    );
  });

  it('read the session check directly (shared/store/direct-read.ts), their handlers taking withDirectReadsDeps', async () => {
    for (const route of bundled) {
      await bundle(route.operationId);
      const text = readFileSync(join(OUT, `${route.operationId}.mjs`), 'utf8');
      expect(text, route.operationId).toContain('DynamoDB_20120810.BatchGetItem');
    }
  });

  it('sign a user in and answer /users/me from their bundles alone', async () => {
    const [login, getMe] = await Promise.all([bundle('login'), bundle('getMe')]);
    const signedIn = await login(aLogin(tenant.headers, { email: user.email, password: user.password }), aContext());
    expect(signedIn.statusCode, String(signedIn.body)).toBe(200);
    const { accessToken } = JSON.parse(String(signedIn.body)).data as { accessToken: string };

    const me = await getMe(
      anEvent({ path: '/api/v1/users/me', headers: { ...tenant.headers, authorization: `Bearer ${accessToken}` } }),
      aContext(),
    );
    expect(me.statusCode, String(me.body)).toBe(200);
    expect(JSON.parse(String(me.body))).toMatchObject({ id: user.id, email: user.email });

    // A revoked session's access token answers 401 SESSION_REVOKED at once, through the direct read too.
    const { sid } = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()) as { sid: string };
    await sessionRepo(makeTestDeps().store).revoke(tenant, user.id, sid, new Date());
    const revoked = await getMe(
      anEvent({ path: '/api/v1/users/me', headers: { ...tenant.headers, authorization: `Bearer ${accessToken}` } }),
      aContext(),
    );
    expect(revoked.statusCode).toBe(401);
    expect(JSON.parse(String(revoked.body))).toMatchObject({ code: 'SESSION_REVOKED' });
  });

  it('answer a wrong password with the same problem as the source does', async () => {
    const login = await bundle('login');
    const refused = await login(
      aLogin(tenant.headers, { email: user.email, password: `${user.password}-not` }),
      aContext(),
    );
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(String(refused.body))).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it('mail an e-mail code from the login bundle, whose SES client is imported on that first mail', async () => {
    const codeTenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const codeUser = await aUser(codeTenant);
    const login = await bundle('login');
    const challenged = await login(aLogin(codeTenant.headers, { email: codeUser.email }), aContext());
    expect(challenged.statusCode, String(challenged.body)).toBe(200);
    expect(JSON.parse(String(challenged.body)).data).toMatchObject({ challengeType: 'OTP_EMAIL' });
    const store = (await (await fetch(`${ses.url}/store`)).json()) as {
      emails: { destination: { to: string[] }; body: { text?: string } }[];
    };
    const mails = store.emails.filter((mail) => mail.destination.to.includes(codeUser.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body.text).toMatch(/\b\d{6}\b/);
  });
});
