import { isDeepStrictEqual } from 'node:util';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { describe, expect, it } from 'vitest';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import { bundlingFor } from '#infra/http-api.ts';
import { IdentityStack } from '#infra/identity-stack.ts';
import { type RouteDef, routeKey, SIGNS_TOKENS, tableActionsOf, throttleClassOf } from '#shared/http/route.ts';
import { TABLE } from '#shared/store/table.ts';
import { cdkContext } from './support/context.ts';
import { flatTemplate } from './support/flat-template.ts';
import { identityTemplate, testApp } from './support/synth.ts';

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

/** The Identity stack's template with `context` (shared with the other infra files), or with other `routes`. */
function synth(context: Record<string, unknown> = {}, routes?: readonly RouteDef[]): Template {
  if (!routes) return identityTemplate(context);
  return flatTemplate(new IdentityStack(testApp(context), 'Identity', { routes }));
}

const template = synth();
/** A deployment that reserves concurrency for its argon2 functions (an account whose quota allows it). */
const reserving = synth({ argon2ReservedConcurrency: 10 });

function resources(t: Template, type: string): Record<string, Resource> {
  return t.findResources(type) as Record<string, Resource>;
}

function asList<T>(value: T | T[]): T[] {
  return Array.isArray(value) ? value : [value];
}

/** The logical id in `{ Ref: id }` or `{ 'Fn::GetAtt': [id, attr] }`. */
function refId(value: unknown): string {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = v.Ref ?? v['Fn::GetAtt']?.[0];
  if (id === undefined) throw new Error(`Not a reference: ${JSON.stringify(value)}`);
  return id;
}

/** Follows route key → API route → integration → Lambda function (the wiring, not a naming convention). */
function functionOf(t: Template, key: string): { id: string; fn: Resource } {
  const route = Object.values(resources(t, 'AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === key);
  if (!route) throw new Error(`No route ${key}`);
  const target = route.Properties.Target as { 'Fn::Join': [string, unknown[]] };
  const integration = resources(t, 'AWS::ApiGatewayV2::Integration')[refId(target['Fn::Join'][1][1])];
  if (!integration) throw new Error(`No integration for ${key}`);
  const id = refId(integration.Properties.IntegrationUri);
  const fn = resources(t, 'AWS::Lambda::Function')[id];
  if (!fn) throw new Error(`No function ${id} for ${key}`);
  return { id, fn };
}

type PolicyDocument = { Statement: Statement[] };

/** Every statement of a function's role: its inline policies and any policy attached to it. */
function allStatementsOf(t: Template, fn: Resource): Statement[] {
  const roleId = refId(fn.Properties.Role);
  const role = resources(t, 'AWS::IAM::Role')[roleId];
  if (!role) throw new Error(`No role ${roleId}`);
  const inline = ((role.Properties.Policies ?? []) as { PolicyDocument: PolicyDocument }[]).flatMap(
    (p) => p.PolicyDocument.Statement,
  );
  const attached = Object.values(resources(t, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => refId(r) === roleId))
    .flatMap((p) => (p.Properties.PolicyDocument as PolicyDocument).Statement);
  return [...inline, ...attached];
}

/**
 * The one statement active tracing adds to every role (context `tracing`, on by default): X-Ray takes no resource
 * but `*`. Exactly this statement; any other on `*`, or another X-Ray action, stays among a function's statements.
 */
const XRAY_STATEMENT = {
  Effect: 'Allow',
  Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
  Resource: '*',
};
const isXray = (s: Statement) => isDeepStrictEqual(s, XRAY_STATEMENT);
/** Every function may read the edge secret, that one secret only (test/infra/web-stack.test.ts holds it). */
const isEdgeSecretRead = (s: Statement) =>
  s.Action === 'secretsmanager:GetSecretValue' && refId(s.Resource).startsWith('EdgeSecret');

/**
 * A function's statements but the ones every function has: writing its own log group, X-Ray, reading the edge secret.
 */
function statementsOf(t: Template, fn: Resource): Statement[] {
  return allStatementsOf(t, fn).filter(
    (s) => !asList(s.Action).every((a) => a.startsWith('logs:')) && !isXray(s) && !isEdgeSecretRead(s),
  );
}

const envOf = (fn: Resource) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

function actionsOf(statements: Statement[], service: string): string[] {
  return statements
    .flatMap((s) => asList(s.Action))
    .filter((a) => a.startsWith(`${service}:`))
    .sort();
}

const fakeRoute = (overrides: Partial<RouteDef>): RouteDef => ({
  operationId: 'fakeLogin',
  method: 'POST',
  path: '/fake/login',
  entry: 'test/infra/fixtures/noop-handler.ts',
  summary: 'fake',
  tag: 'test',
  tenant: 'headers',
  auth: 'none',
  status: 200,
  table: ['PutItem'],
  ...overrides,
});

describe('IdentityStack: HTTP API', () => {
  it('has exactly one route per route list item, keyed with the /api/v1 base path', () => {
    const keys = Object.values(resources(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    const expected = identityRouteList.map((r) => routeKey(r, BASE_PATH));
    expect(keys.sort()).toEqual([...expected].sort());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has a $default route, integrated with the notFound function, for every method and path no other route matches', () => {
    const defaults = Object.values(resources(template, 'AWS::ApiGatewayV2::Route')).filter(
      (r) => r.Properties.RouteKey === '$default',
    );
    expect(defaults).toHaveLength(1);
    const { id, fn } = functionOf(template, '$default');
    expect(id).toMatch(/^NotFoundFunction/);
    expect(fn.Properties.Description).toBe('$default (notFound)');
    // API Gateway may invoke it for any stage, method and path: the $default route has none of its own.
    const permissions = Object.values(resources(template, 'AWS::Lambda::Permission')).filter(
      (p) => refId(p.Properties.FunctionName) === id,
    );
    expect(permissions).toHaveLength(1);
    expect(JSON.stringify(permissions[0]?.Properties.SourceArn)).toMatch(/\/\*\/\*"\]\]\}$/);
  });

  it('deploys the routes on an auto-deployed $default stage, with no API-wide CORS', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true });
    const [api] = Object.values(resources(template, 'AWS::ApiGatewayV2::Api'));
    expect(api?.Properties.ProtocolType).toBe('HTTP');
    expect(api?.Properties.CorsConfiguration).toBeUndefined();
  });

  it('integrates every route with Lambda proxy payload format 2.0', () => {
    const integrations = Object.values(resources(template, 'AWS::ApiGatewayV2::Integration'));
    expect(integrations).toHaveLength(identityRouteList.length);
    for (const i of integrations) {
      expect(i.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  it('outputs the base URL (with /api/v1), the table name, the key, the alarm topic and the dashboard', () => {
    const outputs = template.findOutputs('*');
    expect(Object.keys(outputs).sort()).toEqual([
      'AlarmTopicArn',
      'ApiUrl',
      'DashboardName',
      'DashboardUrl',
      'KmsKeyId',
      // The sender domain's DNS records (three DKIM CNAMEs, the MAIL FROM domain's MX and SPF, DMARC): infra/mail.ts.
      ...Array.from({ length: 6 }, (_, i) => `SenderDnsRecord${i + 1}`),
      'TableName',
    ]);
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toContain(`${BASE_PATH}"`);
  });
});

describe('IdentityStack: functions', () => {
  it('has one Lambda function per route and no helper functions', () => {
    // And the functions no route invokes: the SES events subscriber (infra/mail.ts), the webhooks' dispatcher and
    // deliverer (infra/webhooks.ts).
    template.resourceCountIs('AWS::Lambda::Function', identityRouteList.length + 3);
  });

  it.each(identityRouteList.map((r) => [routeKey(r, BASE_PATH), r] as const))(
    '%s runs on a pinned nodejs22.x arm64 function with its settings',
    (key, route) => {
      const { fn } = functionOf(template, key);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: route.operationId === 'listUsers' ? 29 : 10,
        MemorySize: route.argon2 || route.operationId === 'listUsers' ? 1024 : 256,
      });
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(env).sort()).toEqual(
        [
          'AUTH_RATE_LIMIT_PER_MINUTE',
          'EDGE_SECRET_ARN',
          'ISSUER_URL',
          'MAIL_DAILY_BUDGET_PER_TENANT',
          ...(route.kms?.length ? ['KMS_KEY_ID'] : []),
          'SENDER_EMAIL',
          'SERVICE_NAME',
          ...(route.ses ? ['SES_CONFIGURATION_SET'] : []),
          'SIGNUPS_PER_IP_PER_HOUR',
          'SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT',
          'TABLE_NAME',
        ].sort(),
      );
      // The example deployment's sender (test/infra/support/context.ts): no-reply@ its senderDomain.
      expect(env.SENDER_EMAIL).toBe('no-reply@example.com');
      // The request metrics' `service` dimension: the stack's name (the namespace is the handler's own).
      expect(env.SERVICE_NAME).toBe('Identity');
    },
  );

  it('derives ISSUER_URL from the API URL unless the issuerUrl context sets it', () => {
    const [first] = identityRouteList;
    if (!first) throw new Error('empty route list');
    const key = routeKey(first, BASE_PATH);
    const issuerOf = (t: Template) =>
      (functionOf(t, key).fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.ISSUER_URL;
    expect(JSON.stringify(issuerOf(template))).toContain(`${BASE_PATH}"`);
    expect(issuerOf(synth({ issuerUrl: 'https://id.example.com/api/v1' }))).toBe('https://id.example.com/api/v1');
  });

  it('gives every function its own log group with the retention from context', () => {
    const retentionOf = (t: Template) => {
      const groups = resources(t, 'AWS::Logs::LogGroup');
      const fns = Object.values(resources(t, 'AWS::Lambda::Function'));
      const used = fns.map((fn) => refId((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup));
      expect(new Set(used).size).toBe(fns.length);
      // Every log group is a function's, but the API's access log.
      const [stage] = Object.values(resources(t, 'AWS::ApiGatewayV2::Stage'));
      if (!stage) throw new Error('No stage');
      const accessLog = refId((stage.Properties.AccessLogSettings as { DestinationArn: unknown }).DestinationArn);
      expect([...used, accessLog].sort()).toEqual(Object.keys(groups).sort());
      return [...new Set(Object.values(groups).map((g) => g.Properties.RetentionInDays))];
    };
    expect(retentionOf(template)).toEqual([cdkContext.logRetentionDays]);
    expect(retentionOf(synth({ logRetentionDays: 14 }))).toEqual([14]);
    template.resourceCountIs('Custom::LogRetention', 0);
  });
});

describe('IdentityStack: IAM', () => {
  it('has no wildcard in any IAM action', () => {
    const documents = [
      ...Object.values(resources(template, 'AWS::IAM::Policy')).map((p) => p.Properties.PolicyDocument),
      ...Object.values(resources(template, 'AWS::IAM::Role')).flatMap((r) => [
        r.Properties.AssumeRolePolicyDocument,
        ...((r.Properties.Policies as { PolicyDocument: unknown }[] | undefined) ?? []).map((p) => p.PolicyDocument),
      ]),
    ] as { Statement: Statement[] }[];
    const actions = documents.flatMap((d) => d.Statement.flatMap((s) => asList(s.Action)));
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((a) => a.includes('*'))).toEqual([]);
  });

  it.each(identityRouteList.map((r) => [routeKey(r, BASE_PATH), r] as const))(
    '%s may call exactly its table actions, on the table (and its indexes only to Query)',
    (key, route) => {
      const statements = statementsOf(template, functionOf(template, key).fn);
      const expected = tableActionsOf(route).map((a) => `dynamodb:${a}`);
      expect(actionsOf(statements, 'dynamodb')).toEqual(expected.sort());
      const tableStatements = statements.filter((s) => asList(s.Action).some((a) => a.startsWith('dynamodb:')));
      expect(tableStatements).toHaveLength(expected.length > 0 ? 1 : 0);
      for (const s of tableStatements) {
        const resourceList = JSON.stringify(asList(s.Resource));
        // Each index by name, never `/index/*` (cdk-nag IAM5).
        expect(resourceList).not.toContain('*');
        for (const index of TABLE.indexes) {
          expect(resourceList.includes(`/index/${index.name}"`)).toBe(expected.includes('dynamodb:Query'));
        }
      }
      expect(actionsOf(statements, 'ses')).toEqual(route.ses ? ['ses:SendEmail'] : []);
      const kmsUses = new Set((route.kms ?? []).map((grant) => grant.split(':')[1]));
      const kmsActions = [
        ...(kmsUses.has('decrypt') ? ['kms:Decrypt'] : []),
        ...(kmsUses.has('encrypt') ? ['kms:Encrypt'] : []),
      ];
      expect([...new Set(actionsOf(statements, 'kms'))]).toEqual(kmsActions);
    },
  );

  it.each(identityRouteList.map((r) => [routeKey(r, BASE_PATH), r] as const))(
    '%s may send traces to X-Ray (its one statement on `*`), and has no other wildcard action or resource',
    (key) => {
      const { fn } = functionOf(template, key);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      const all = allStatementsOf(template, fn);
      expect(all.filter(isXray)).toHaveLength(1);
      const others = all.filter((s) => !isXray(s));
      expect(others.flatMap((s) => asList(s.Action)).filter((a) => a.startsWith('xray:') || a.includes('*'))).toEqual(
        [],
      );
      expect(JSON.stringify(others.map((s) => s.Resource))).not.toContain('*');
    },
  );

  it.each(identityRouteList.map((r) => [routeKey(r, BASE_PATH), r] as const))(
    "%s logs JSON, with Lambda's own lines at WARN (no START, END or REPORT per request) and ours at INFO",
    (key) => {
      const { fn } = functionOf(template, key);
      expect(fn.Properties.LoggingConfig).toMatchObject({
        LogFormat: 'JSON',
        SystemLogLevel: 'WARN',
        ApplicationLogLevel: 'INFO',
      });
    },
  );

  it('flags a statement on `*` other than the X-Ray one (the filter above is exact)', () => {
    expect(isXray({ ...XRAY_STATEMENT })).toBe(true);
    expect(isXray({ ...XRAY_STATEMENT, Action: ['xray:PutTraceSegments', 'xray:GetTraceSummaries'] })).toBe(false);
    expect(isXray({ ...XRAY_STATEMENT, Action: ['xray:*'] })).toBe(false);
    expect(isXray({ ...XRAY_STATEMENT, Action: ['dynamodb:Scan'] })).toBe(false);
    expect(isXray({ ...XRAY_STATEMENT, Condition: {} })).toBe(false);
  });

  it.each(identityRouteList.map((r) => [routeKey(r, BASE_PATH), r] as const))(
    '%s may write its own log group and nothing else of CloudWatch Logs, with no AWS managed policy',
    (key) => {
      const { fn } = functionOf(template, key);
      const role = resources(template, 'AWS::IAM::Role')[refId(fn.Properties.Role)];
      expect(role?.Properties.ManagedPolicyArns).toBeUndefined();
      const logs = allStatementsOf(template, fn).filter((s) => asList(s.Action).some((a) => a.startsWith('logs:')));
      expect(logs).toHaveLength(1);
      expect(asList(logs[0]?.Action).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      const logGroup = refId((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup);
      expect(asList(logs[0]?.Resource)).toEqual([{ 'Fn::GetAtt': [logGroup, 'Arn'] }]);
    },
  );

  it('gives the notFound function ($default) no DynamoDB, SES or KMS permission, nor the key', () => {
    const { fn } = functionOf(template, '$default');
    const statements = statementsOf(template, fn);
    for (const service of ['dynamodb', 'ses', 'kms']) expect(actionsOf(statements, service)).toEqual([]);
    expect(statements).toEqual([]);
    expect(Object.keys(envOf(fn))).not.toContain('KMS_KEY_ID');
  });

  it('lets a kms route encrypt and decrypt with the secrets key only, and tells no other route the key', () => {
    const signer = fakeRoute({ operationId: 'fakeSigner', kms: SIGNS_TOKENS });
    const plain = fakeRoute({ operationId: 'fakePlain', path: '/fake/plain', table: ['Query'] });
    const t = synth({}, [signer, plain]);
    const [keyId] = Object.keys(resources(t, 'AWS::KMS::Key'));

    const { fn: signerFn } = functionOf(t, routeKey(signer, BASE_PATH));
    const kms = statementsOf(t, signerFn).filter((s) => asList(s.Action).some((a) => a.startsWith('kms:')));
    expect(kms).toHaveLength(1);
    expect(kms[0]).toMatchObject({ Effect: 'Allow' });
    expect(asList(kms[0]?.Action).sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    expect(asList(kms[0]?.Resource)).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
    expect(kms[0]?.Condition).toEqual({ StringEquals: { 'kms:EncryptionContext:purpose': 'jwt-signing' } });
    const signerEnv = (signerFn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(signerEnv.KMS_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });

    const { fn: plainFn } = functionOf(t, routeKey(plain, BASE_PATH));
    expect(actionsOf(statementsOf(t, plainFn), 'kms')).toEqual([]);
    expect(JSON.stringify(statementsOf(t, plainFn))).not.toContain(keyId);
    expect((plainFn.Properties.Environment as { Variables: Record<string, unknown> }).Variables).not.toHaveProperty(
      'KMS_KEY_ID',
    );
  });

  /** The kms statements of a function: `purpose → sorted actions`, each checked to be on the secrets key alone. */
  function kmsGrantsOf(t: Template, fn: Resource): Record<string, string[]> {
    const [keyId] = Object.keys(resources(t, 'AWS::KMS::Key'));
    const grants: Record<string, string[]> = {};
    for (const s of statementsOf(t, fn).filter((st) => asList(st.Action).some((a) => a.startsWith('kms:')))) {
      expect(s.Effect).toBe('Allow');
      expect(asList(s.Resource)).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
      const condition = s.Condition as { StringEquals?: Record<string, string> } | undefined;
      expect(Object.keys(condition ?? {})).toEqual(['StringEquals']);
      const purpose = condition?.StringEquals?.['kms:EncryptionContext:purpose'];
      if (purpose === undefined) throw new Error('a kms statement without a purpose condition');
      expect(grants[purpose], `one statement per purpose (${purpose})`).toBeUndefined();
      grants[purpose] = asList(s.Action).sort();
    }
    return grants;
  }

  it.each([
    // Signs tokens (decrypts the active signing key, makes one on first use); never reads a TOTP secret.
    ['signupVerify', { 'jwt-signing': ['kms:Decrypt', 'kms:Encrypt'] }],
    ['login', { 'jwt-signing': ['kms:Decrypt', 'kms:Encrypt'] }],
    // Signs, and derives refresh-token successors with the refresh-mac key (made on first use).
    ['refresh', { 'jwt-signing': ['kms:Decrypt', 'kms:Encrypt'], 'refresh-mac': ['kms:Decrypt', 'kms:Encrypt'] }],
    // The OpenID Provider's token endpoint: signs ID and access tokens, rotates refresh tokens as refresh does.
    ['oidcToken', { 'jwt-signing': ['kms:Decrypt', 'kms:Encrypt'], 'refresh-mac': ['kms:Decrypt', 'kms:Encrypt'] }],
    // Checks a TOTP code, then signs.
    ['loginVerify', { 'jwt-signing': ['kms:Decrypt', 'kms:Encrypt'], totp: ['kms:Decrypt'] }],
    // Stores a new TOTP secret: encrypts only.
    ['initTotp', { totp: ['kms:Encrypt'] }],
    // Check a TOTP code: decrypt only, and sign nothing.
    ['verifyTotp', { totp: ['kms:Decrypt'] }],
    ['disableTotp', { totp: ['kms:Decrypt'] }],
    ['changePassword', { totp: ['kms:Decrypt'] }],
    // A sign-in provider's secret: stored encrypted by the admin routes, read only by the callback that uses it.
    ['createSignInProvider', { 'sign-in-provider': ['kms:Encrypt'] }],
    ['updateSignInProvider', { 'sign-in-provider': ['kms:Encrypt'] }],
    ['providerCallback', { 'sign-in-provider': ['kms:Decrypt'] }],
    ['providerCallbackPost', { 'sign-in-provider': ['kms:Decrypt'] }],
    ['signInWithProvider', { 'jwt-signing': ['kms:Decrypt', 'kms:Encrypt'] }],
    // Proving it is you again with a provider checks the TOTP code of a TOTP user.
    ['reauthenticateWithProvider', { totp: ['kms:Decrypt'] }],
    // A webhook endpoint's signing secret: encrypted when made or rotated; only the deliverer decrypts it.
    ['createWebhookEndpoint', { webhook: ['kms:Encrypt'] }],
    ['rotateWebhookSecret', { webhook: ['kms:Encrypt'] }],
  ] as const)('grants %s KMS for exactly these encryption-context purposes: %o', (operationId, expected) => {
    const route = identityRouteList.find((r) => r.operationId === operationId);
    if (!route) throw new Error(`no route ${operationId}`);
    expect(kmsGrantsOf(template, functionOf(template, routeKey(route, BASE_PATH)).fn)).toEqual(expected);
  });

  it('grants KMS to no route but those, and tells only them the key', () => {
    const withKms = identityRouteList.filter((route) => {
      const { fn } = functionOf(template, routeKey(route, BASE_PATH));
      const hasKms = Object.keys(kmsGrantsOf(template, fn)).length > 0;
      expect(Object.keys(envOf(fn)).includes('KMS_KEY_ID'), route.operationId).toBe(hasKms);
      return hasKms;
    });
    expect(withKms.map((r) => r.operationId).sort()).toEqual(
      [
        'changePassword',
        'disableTotp',
        'initTotp',
        'login',
        'loginVerify',
        // The OpenID Provider's token endpoint signs ID and access tokens and rotates refresh tokens.
        'oidcToken',
        // Registering a client for RS256 (or changing one to it) publishes the RS256 key first.
        'createOidcClient',
        'updateOidcClient',
        // TOTP (or backup) codes with the password or e-mail code: totp:decrypt.
        'reauthenticate',
        'refresh',
        // A passkey signs the user in: the tokens are signed there.
        'signInWithPasskey',
        // Sign-in providers: their secrets encrypted when saved, decrypted at the callback; the sign-in signs.
        'createSignInProvider',
        'updateSignInProvider',
        'providerCallback',
        'providerCallbackPost',
        // Webhook endpoints: their signing secrets encrypted when made or rotated.
        'createWebhookEndpoint',
        'rotateWebhookSecret',
        'signInWithProvider',
        'reauthenticateWithProvider',
        'signupVerify',
        'verifyTotp',
      ].sort(),
    );
  });

  it('reads and creates signing keys (Query, PutItem) only on routes that sign tokens', () => {
    const initTotp = fakeRoute({
      operationId: 'fakeTotpInit',
      tenant: 'none',
      table: ['UpdateItem'],
      kms: ['totp:encrypt'],
    });
    const signer = fakeRoute({
      operationId: 'fakeSigner',
      path: '/fake/signer',
      tenant: 'none',
      table: [],
      kms: SIGNS_TOKENS,
    });
    const t = synth({}, [initTotp, signer]);
    expect(actionsOf(statementsOf(t, functionOf(t, routeKey(initTotp, BASE_PATH)).fn), 'dynamodb')).toEqual([
      'dynamodb:UpdateItem',
    ]);
    expect(actionsOf(statementsOf(t, functionOf(t, routeKey(signer, BASE_PATH)).fn), 'dynamodb')).toEqual([
      'dynamodb:PutItem',
      'dynamodb:Query',
    ]);
  });

  it('grants a route that does not Query the table itself only, not its indexes', () => {
    const writer = fakeRoute({ operationId: 'fakeWriter', tenant: 'headers', table: ['PutItem', 'UpdateItem'] });
    const t = synth({}, [writer]);
    const statements = statementsOf(t, functionOf(t, routeKey(writer, BASE_PATH)).fn);
    expect(actionsOf(statements, 'dynamodb')).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    const [tableStatement] = statements.filter((s) => asList(s.Action).some((a) => a.startsWith('dynamodb:')));
    expect(asList(tableStatement?.Resource)).toHaveLength(1);
    expect(JSON.stringify(tableStatement?.Resource)).not.toContain('/index/');
  });

  it('lets an e-mail route send only as the sender address or its domain, with the configuration set, and no other route send at all', () => {
    const mailer = fakeRoute({ operationId: 'fakeMailer', ses: true });
    const quiet = fakeRoute({ operationId: 'fakeQuiet', path: '/fake/quiet', table: [], tenant: 'none' });
    const t = synth({ senderDomain: '', senderEmail: 'auth@mail.example.org' }, [mailer, quiet]);
    const mailerStatements = statementsOf(t, functionOf(t, routeKey(mailer, BASE_PATH)).fn);
    const ses = mailerStatements.filter((s) => asList(s.Action).some((a) => a.startsWith('ses:')));
    expect(ses).toHaveLength(1);
    expect(asList(ses[0]?.Action)).toEqual(['ses:SendEmail']);
    const arns = JSON.stringify(ses[0]?.Resource);
    expect(arns).toContain(':identity/mail.example.org"');
    expect(arns).toContain(':identity/auth@mail.example.org"');
    expect(arns).toContain(':configuration-set/",{"Ref":"MailConfigurationSet');
    expect(asList(ses[0]?.Resource as unknown[])).toHaveLength(3);
    expect(envOf(functionOf(t, routeKey(mailer, BASE_PATH)).fn).SES_CONFIGURATION_SET).toEqual(expect.anything());
    expect(statementsOf(t, functionOf(t, routeKey(quiet, BASE_PATH)).fn)).toEqual([]);
  });

  it('rejects a route list with two rows for the same method and path', () => {
    const a = fakeRoute({ operationId: 'fakeA' });
    const b = fakeRoute({ operationId: 'fakeB' });
    expect(() => synth({}, [a, b])).toThrow(/Duplicate route POST \/api\/v1\/fake\/login/);
  });
});

describe('IdentityStack: table', () => {
  it('is built from shared/store/table.ts: keys, GSIs, TTL, on-demand, PITR', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.nonKeyAttributes] },
      })),
    });
    const [table] = Object.values(resources(template, 'AWS::DynamoDB::Table'));
    if (!table) throw new Error('No table');
    const attributes = table.Properties.AttributeDefinitions as { AttributeName: string; AttributeType: string }[];
    expect(attributes.every((a) => a.AttributeType === 'S')).toBe(true);
    expect(table.Properties.GlobalSecondaryIndexes).toHaveLength(TABLE.indexes.length);
  });

  it.each([
    ['retain', 'Retain'],
    ['destroy', 'Delete'],
  ])('follows the removalPolicy context %s → DeletionPolicy %s', (policy, deletion) => {
    const [table] = Object.values(resources(synth({ removalPolicy: policy }), 'AWS::DynamoDB::Table'));
    expect(table?.DeletionPolicy).toBe(deletion);
  });

  it.each([
    ['retain', true],
    ['destroy', false],
  ])('has deletion protection with the removalPolicy context %s: %s', (policy, on) => {
    const [table] = Object.values(resources(synth({ removalPolicy: policy }), 'AWS::DynamoDB::Table'));
    expect(table?.Properties.DeletionProtectionEnabled).toBe(on);
  });

  it('has deletion protection and PITR by default (cdk.json)', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('keeps the table by default (cdk.json) and rejects an unknown removal policy', () => {
    expect(Object.values(resources(template, 'AWS::DynamoDB::Table'))[0]?.DeletionPolicy).toBe('Retain');
    expect(() => synth({ removalPolicy: 'snapshot' })).toThrow(/removalPolicy.*"retain" or "destroy"/);
  });
});

describe('IdentityStack: secrets key', () => {
  it('is one symmetric KMS key with yearly rotation, under an alias, its id an output', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    const [[keyId, key]] = Object.entries(resources(template, 'AWS::KMS::Key')) as [[string, Resource]];
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(key.Properties.KeyUsage ?? 'ENCRYPT_DECRYPT').toBe('ENCRYPT_DECRYPT');
    template.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: 'alias/Identity/secrets',
      TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
    expect(template.findOutputs('KmsKeyId').KmsKeyId?.Value).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
  });

  it.each([
    ['retain', 'Retain'],
    ['destroy', 'Delete'],
  ])('follows the removalPolicy context %s → DeletionPolicy %s, as the table does', (policy, deletion) => {
    const [key] = Object.values(resources(synth({ removalPolicy: policy }), 'AWS::KMS::Key'));
    expect(key?.DeletionPolicy).toBe(deletion);
  });
});

describe('bundlingFor', () => {
  it('bundles ESM, minified, without source maps, leaving the runtime AWS SDK out', () => {
    const options = bundlingFor(fakeRoute({}));
    expect(options).toMatchObject({
      format: 'esm',
      minify: true,
      sourceMap: false,
      target: 'node22',
      externalModules: ['@aws-sdk/*'],
      mainFields: ['module', 'main'],
    });
    expect(options.banner).toContain('createRequire(import.meta.url)');
    expect(options.nodeModules).toBeUndefined();
    expect(options.environment).toBeUndefined();
  });

  it('bundles the SDK into a route a user waits on, leaving out only what loads on first use', () => {
    const external = bundlingFor(fakeRoute({ bundleSdk: true })).externalModules ?? [];
    expect(external).not.toContain('@aws-sdk/*');
    expect(external).not.toContain('@aws-sdk/client-dynamodb');
    expect(external).not.toContain('@aws-sdk/lib-dynamodb');
    // The environment's credentials (what a Lambda function has) are bundled; the chain's later providers are not.
    expect(external).not.toContain('@aws-sdk/credential-provider-env');
    // The SES client is imported on a login's first e-mail code, not at its cold start.
    expect(external).toEqual(
      expect.arrayContaining(['@aws-sdk/client-kms', '@aws-sdk/client-sesv2', '@aws-sdk/credential-provider-ini']),
    );
  });

  it('installs the linux arm64 argon2 binary into the bundle of an argon2 route', () => {
    const options = bundlingFor(fakeRoute({ argon2: true }));
    expect(options.nodeModules).toEqual(['@node-rs/argon2']);
    expect(options.environment).toMatchObject({
      npm_config_os: 'linux',
      npm_config_libc: 'glibc',
      npm_config_cpu: 'arm64',
    });
  });

  it('hashes at production’s argon2 cost: no function’s environment sets ARGON2_PARAMS (the tests’ cheap cost)', () => {
    const functions = Object.values(resources(template, 'AWS::Lambda::Function'));
    const argon2Functions = functions.filter((fn) => fn.Properties.MemorySize === 1024);
    expect(argon2Functions.length).toBeGreaterThanOrEqual(5);
    for (const fn of functions) {
      const variables = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
      expect(variables?.ARGON2_PARAMS).toBeUndefined();
    }
  });

  it('gives an argon2 route 1024 MB', () => {
    const route = fakeRoute({ argon2: true });
    const t = synth({}, [route]);
    expect(functionOf(t, routeKey(route, BASE_PATH)).fn.Properties.MemorySize).toBe(1024);
  });
});

describe('IdentityStack: edge limits', () => {
  const stageOf = (t: Template) => {
    const stages = Object.values(resources(t, 'AWS::ApiGatewayV2::Stage'));
    expect(stages).toHaveLength(1);
    return stages[0] as Resource;
  };

  it('throttles every route of the $default stage at the context burst and rate (cdk.json defaults)', () => {
    expect(stageOf(template).Properties.DefaultRouteSettings).toEqual({
      ThrottlingBurstLimit: cdkContext.apiThrottleBurstLimit,
      ThrottlingRateLimit: cdkContext.apiThrottleRateLimit,
    });
    expect(
      stageOf(synth({ apiThrottleRateLimit: 50, apiThrottleBurstLimit: 75 })).Properties.DefaultRouteSettings,
    ).toEqual({ ThrottlingBurstLimit: 75, ThrottlingRateLimit: 50 });
  });

  it('keeps the stage where createDefaultStage put it (same logical id), so a deployed stage is updated, not replaced', () => {
    const before = new Stack(new App(), 'Identity');
    new HttpApi(before, 'Api', { apiName: 'identity', createDefaultStage: true });
    expect(Object.keys(resources(template, 'AWS::ApiGatewayV2::Stage'))).toEqual(
      Object.keys(Template.fromStack(before).findResources('AWS::ApiGatewayV2::Stage')),
    );
  });

  it('throttles each session route (refresh, /users/me, discovery, key set…) and each argon2 route by its class', () => {
    const settings = stageOf(template).Properties.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    const expected: Record<string, unknown> = {};
    for (const route of identityRouteList) {
      const throttleClass = throttleClassOf(route);
      if (throttleClass === 'default') continue;
      const [rate, burst] =
        throttleClass === 'session'
          ? [cdkContext.apiThrottleSessionRateLimit, cdkContext.apiThrottleSessionBurstLimit]
          : [cdkContext.apiThrottleArgon2RateLimit, cdkContext.apiThrottleArgon2BurstLimit];
      expected[routeKey(route, BASE_PATH)] = { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst };
    }
    expect(settings).toEqual(expected);
    // Routes every page calls again and again get thousands a second, not the stage default; the hashing ones fewer.
    for (const key of ['POST /api/v1/auth/refresh', 'GET /api/v1/users/me', 'GET /api/v1/auth/discovery']) {
      expect(settings[key]?.ThrottlingRateLimit, key).toBeGreaterThanOrEqual(1000);
    }
    expect(settings['POST /api/v1/auth/login']?.ThrottlingRateLimit).toBeLessThan(
      cdkContext.apiThrottleRateLimit as number,
    );
    // A route setting names a route key: the stage waits for those routes, or CloudFormation refuses it.
    const dependsOn = asList((stageOf(template) as { DependsOn?: string | string[] }).DependsOn ?? []);
    const routeIds = Object.entries(resources(template, 'AWS::ApiGatewayV2::Route'))
      .filter(([, r]) => (r.Properties.RouteKey as string) in expected)
      .map(([id]) => id);
    expect(routeIds).toHaveLength(Object.keys(expected).length);
    for (const id of routeIds) expect(dependsOn).toContain(id);
    expect(
      (
        stageOf(synth({ apiThrottleSessionRateLimit: 7, apiThrottleSessionBurstLimit: 9 })).Properties
          .RouteSettings as Record<string, unknown>
      )['POST /api/v1/auth/refresh'],
    ).toEqual({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 });
  });

  it('refuses throttle settings that are not positive integers, or a burst below the rate', () => {
    expect(() => synth({ apiThrottleArgon2RateLimit: 80, apiThrottleArgon2BurstLimit: 40 })).toThrow(/at least/);
    expect(() => synth({ apiThrottleRateLimit: 0 })).toThrow(/apiThrottleRateLimit.*positive integer/);
    expect(() => synth({ apiThrottleBurstLimit: 'lots' })).toThrow(/apiThrottleBurstLimit.*positive integer/);
    expect(() => synth({ apiThrottleRateLimit: 300, apiThrottleBurstLimit: 200 })).toThrow(/at least/);
  });

  it('writes a JSON access log to a log group of its own: method, route key, status, latency, request id, source IP', () => {
    const settings = stageOf(template).Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    const groupId = refId(settings.DestinationArn);
    const group = resources(template, 'AWS::Logs::LogGroup')[groupId];
    expect(group?.Properties.RetentionInDays).toBe(cdkContext.logRetentionDays);
    const fnGroups = Object.values(resources(template, 'AWS::Lambda::Function')).map((fn) =>
      refId((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup),
    );
    expect(fnGroups).not.toContain(groupId);
    // Half the ingestion price; the functions' groups stay Standard, since only Standard turns EMF lines into metrics.
    expect(group?.Properties.LogGroupClass).toBe('INFREQUENT_ACCESS');
    const groups = resources(template, 'AWS::Logs::LogGroup');
    for (const id of fnGroups) expect(groups[id]?.Properties.LogGroupClass ?? 'STANDARD').toBe('STANDARD');

    const fields = JSON.parse(settings.Format) as Record<string, string>;
    expect(Object.values(fields)).toEqual(
      expect.arrayContaining([
        '$context.requestId',
        '$context.identity.sourceIp',
        '$context.httpMethod',
        '$context.routeKey',
        '$context.status',
        '$context.responseLatency',
      ]),
    );
    for (const value of Object.values(fields)) expect(value).toMatch(/^\$context\.[A-Za-z.]+$/);
  });

  it('never logs a query string, a path, a header, a token or a body', () => {
    const settings = stageOf(template).Properties.AccessLogSettings as { Format: string };
    const values = Object.values(JSON.parse(settings.Format) as Record<string, string>);
    for (const value of values) {
      expect(value).not.toMatch(/path|query|querystring|header|authorizer|userAgent|body|caller|user$|cognito/i);
    }
  });

  it('reserves no concurrency by default, so that a new account (a concurrency quota of 10) deploys', () => {
    // Lambda keeps 100 of an account's concurrency unreserved: any reservation fails where the quota is under 100 + it.
    expect(cdkContext.argon2ReservedConcurrency).toBe('none');
    for (const fn of Object.values(resources(template, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it.each(identityRouteList.map((r) => [routeKey(r, BASE_PATH), r] as const))(
    '%s: reserved concurrency (context argon2ReservedConcurrency) on argon2 functions only, when set',
    (key, route) => {
      const { fn } = functionOf(reserving, key);
      expect(fn.Properties.ReservedConcurrentExecutions).toBe(route.argon2 ? 10 : undefined);
    },
  );

  it('reserves what argon2ReservedConcurrency says, nothing with "none", and refuses anything else', () => {
    const route = fakeRoute({ argon2: true });
    const reservedOf = (context: Record<string, unknown>) =>
      functionOf(synth(context, [route]), routeKey(route, BASE_PATH)).fn.Properties.ReservedConcurrentExecutions;
    expect(identityRouteList.filter((r) => r.argon2).length).toBeGreaterThan(0);
    expect(reservedOf({ argon2ReservedConcurrency: 25 })).toBe(25);
    expect(reservedOf({ argon2ReservedConcurrency: 'none' })).toBeUndefined();
    expect(() => reservedOf({ argon2ReservedConcurrency: 0 })).toThrow(/argon2ReservedConcurrency.*"none"/);
  });
});
