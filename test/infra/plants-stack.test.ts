import { isDeepStrictEqual } from 'node:util';
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { plantCorsRoutes, plantRouteList, plantRoutes } from '#functions/plants/routes.ts';
import { BASE_PATH } from '#functions/routes.ts';
import { IdentityStack } from '#infra/identity-stack.ts';
import { JWT_AUTHORIZER_VARIABLE, ORIGIN_PARTITIONS, PlantsStack } from '#infra/plants-stack.ts';
import { serviceTable } from '#infra/table.ts';
import { routeKey } from '#shared/http/route.ts';
import { keys } from '#shared/store/keys.ts';
import { TABLE } from '#shared/store/table.ts';
import { cdkContext } from './support/context.ts';
import { flatTemplate } from './support/flat-template.ts';
import { testApp } from './support/synth.ts';

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

const IDENTITY_BASE_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/api/v1';

function synth(context: Record<string, unknown> = {}): Template {
  const app = testApp(context);
  // A stand-in for the Identity stack's table (the CDK app test below wires the real one).
  const identityTable = serviceTable(new Stack(app, 'Identity'), 'Table', RemovalPolicy.RETAIN);
  return Template.fromStack(new PlantsStack(app, 'Plants', { identityBaseUrl: IDENTITY_BASE_URL, identityTable }));
}

const template = synth();

function resources(t: Template, type: string): Record<string, Resource> {
  return t.findResources(type) as Record<string, Resource>;
}

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

function refId(value: unknown): string {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = v.Ref ?? v['Fn::GetAtt']?.[0];
  if (id === undefined) throw new Error(`Not a reference: ${JSON.stringify(value)}`);
  return id;
}

/** Follows route key → API route → integration → Lambda function. */
function functionOf(t: Template, key: string): Resource {
  const route = Object.values(resources(t, 'AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === key);
  if (!route) throw new Error(`No route ${key}`);
  const target = route.Properties.Target as { 'Fn::Join': [string, unknown[]] };
  const integration = resources(t, 'AWS::ApiGatewayV2::Integration')[refId(target['Fn::Join'][1][1])];
  if (!integration) throw new Error(`No integration for ${key}`);
  const fn = resources(t, 'AWS::Lambda::Function')[refId(integration.Properties.IntegrationUri)];
  if (!fn) throw new Error(`No function for ${key}`);
  return fn;
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

/** The one statement active tracing adds to every role (context `tracing`): X-Ray takes no resource but `*`. */
const XRAY_STATEMENT = {
  Effect: 'Allow',
  Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
  Resource: '*',
};
const isXray = (s: Statement) => isDeepStrictEqual(s, XRAY_STATEMENT);

/** A function's statements but the one that writes its own log group and the X-Ray one (every function has them). */
function statementsOf(t: Template, fn: Resource): Statement[] {
  return allStatementsOf(t, fn).filter((s) => !asList(s.Action).every((a) => a.startsWith('logs:')) && !isXray(s));
}

/** The statement that lets a CORS function read the identity's ORIGIN partitions, and only them. */
const readsOrigins = (identityTableArn: unknown) => ({
  Effect: 'Allow',
  Action: 'dynamodb:Query',
  Resource: identityTableArn,
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORIGIN#*'] } },
});

const envOf = (fn: Resource) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
const tableId = () => Object.keys(resources(template, 'AWS::DynamoDB::Table'))[0];

describe('PlantsStack: HTTP API', () => {
  it('has its own HTTP API, with exactly one route per plant route list item and no base path', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'plants', ProtocolType: 'HTTP' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true });
    const keys = Object.values(resources(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys.sort()).toEqual(plantRouteList.map((r) => routeKey(r, '')).sort());
    expect(keys).toContain('POST /plants');
    expect(keys).toContain('GET /openapi.json');
    expect(keys).toContain('OPTIONS /{proxy+}');
    expect(keys).toContain('$default');
  });

  it('throttles every route of its $default stage and writes a JSON access log, as the identity API does', () => {
    const [stage] = Object.values(resources(template, 'AWS::ApiGatewayV2::Stage'));
    expect(stage?.Properties.DefaultRouteSettings).toEqual({
      ThrottlingBurstLimit: cdkContext.apiThrottleBurstLimit,
      ThrottlingRateLimit: cdkContext.apiThrottleRateLimit,
    });
    const settings = stage?.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    const group = resources(template, 'AWS::Logs::LogGroup')[refId(settings.DestinationArn)];
    expect(group?.Properties.RetentionInDays).toBe(cdkContext.logRetentionDays);
    expect(group?.Properties.LogGroupClass).toBe('INFREQUENT_ACCESS');
    const fields = Object.values(JSON.parse(settings.Format) as Record<string, string>);
    expect(fields).toEqual(expect.arrayContaining(['$context.requestId', '$context.routeKey', '$context.status']));
    expect(fields.join(' ')).not.toMatch(/path|query|header|authorizer|userAgent|body/i);
  });

  it('has a $default route, integrated with the plantsNotFound function, for every method and path no other route matches', () => {
    const fn = functionOf(template, '$default');
    expect(fn).toBe(functionOf(template, routeKey(plantRoutes.plantsNotFound, '')));
    expect(fn.Properties.Description).toBe('$default (plantsNotFound)');
  });

  it('has no authorizer: the handler checks the token (a JWT authorizer cannot pin a per-tenant audience)', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
    for (const route of Object.values(resources(template, 'AWS::ApiGatewayV2::Route'))) {
      expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    }
  });

  it('outputs its base URL and table name', () => {
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual(['ApiUrl', 'TableName']);
  });
});

describe('PlantsStack: functions', () => {
  it('has one function per route, each with its own log group', () => {
    template.resourceCountIs('AWS::Lambda::Function', plantRouteList.length);
    // And the API's access log.
    template.resourceCountIs('AWS::Logs::LogGroup', plantRouteList.length + 1);
    for (const group of Object.values(resources(template, 'AWS::Logs::LogGroup'))) {
      expect(group.Properties.RetentionInDays).toBe(cdkContext.logRetentionDays);
    }
  });

  it.each(plantRouteList.map((r) => [routeKey(r, ''), r] as const))(
    '%s runs on nodejs22.x arm64 and knows the issuer, its JWKS, its own table and URL (and, CORS routes only, the identity table)',
    (key, route) => {
      const fn = functionOf(template, key);
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 256 });
      const env = envOf(fn);
      const cors = plantCorsRoutes.includes(route.operationId);
      expect(Object.keys(env).sort()).toEqual(
        [
          'ISSUER_URL',
          'JWKS_URL',
          'PLANTS_TABLE_NAME',
          'PLANTS_URL',
          'SERVICE_NAME',
          ...(cors ? ['TABLE_NAME'] : []),
        ].sort(),
      );
      // The request metrics' `service` dimension: the stack's name (the namespace, PlantStore, is the handler's own).
      expect(env.SERVICE_NAME).toBe('Plants');
      if (cors) expect(JSON.stringify(env.TABLE_NAME)).toContain('Fn::ImportValue');
      expect(env.ISSUER_URL).toBe(IDENTITY_BASE_URL);
      expect(env.JWKS_URL).toBe(`${IDENTITY_BASE_URL}/.well-known/jwks.json`);
      expect(env.PLANTS_TABLE_NAME).toEqual({ Ref: tableId() });
    },
  );

  it('takes the issuer from the issuerUrl context when set; the keys are still read from the identity API', () => {
    const env = envOf(functionOf(synth({ issuerUrl: 'https://id.example.com/api/v1' }), 'POST /plants'));
    expect(env.ISSUER_URL).toBe('https://id.example.com/api/v1');
    expect(env.JWKS_URL).toBe(`${IDENTITY_BASE_URL}/.well-known/jwks.json`);
  });
});

describe('PlantsStack: IAM', () => {
  it('has no wildcard in any IAM action', () => {
    const documents = [
      ...Object.values(resources(template, 'AWS::IAM::Policy')).map((p) => p.Properties.PolicyDocument),
      ...Object.values(resources(template, 'AWS::IAM::Role')).map((r) => r.Properties.AssumeRolePolicyDocument),
    ] as { Statement: Statement[] }[];
    const actions = documents.flatMap((d) => d.Statement.flatMap((s) => asList(s.Action)));
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((a) => a.includes('*'))).toEqual([]);
  });

  it('lets createPlant call dynamodb:PutItem on its own table, Query the ORIGIN partitions of the identity table, and nothing else', () => {
    const statements = statementsOf(template, functionOf(template, routeKey(plantRoutes.createPlant, '')));
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatchObject({ Effect: 'Allow' });
    expect(asList(statements[0]?.Action)).toEqual(['dynamodb:PutItem']);
    expect(asList(statements[0]?.Resource)).toEqual([{ 'Fn::GetAtt': [tableId(), 'Arn'] }]);
    expect(statements[1]).toEqual(readsOrigins(expect.objectContaining({ 'Fn::ImportValue': expect.anything() })));
  });

  it('lets the preflight function Query the ORIGIN partitions of the identity table (not its indexes), and nothing else', () => {
    const statements = statementsOf(template, functionOf(template, routeKey(plantRoutes.plantsPreflight, '')));
    expect(statements).toEqual([readsOrigins(expect.objectContaining({ 'Fn::ImportValue': expect.anything() }))]);
    expect(JSON.stringify(statements)).not.toContain('/index/');
  });

  it('names in ORIGIN_PARTITIONS the partitions the ORIGIN items are written to', () => {
    expect(ORIGIN_PARTITIONS).toBe('ORIGIN#*');
    const { pk } = keys.originAllowed('https://shop.example', { app: 'app_1', mid: 'mid_1' });
    expect(pk.startsWith(ORIGIN_PARTITIONS.slice(0, -1))).toBe(true);
    expect(keys.originPartition('https://shop.example')).toBe(pk);
  });

  it('gives the OpenAPI function no permission at all (but writing its log group and sending traces)', () => {
    const fn = functionOf(template, routeKey(plantRoutes.getPlantsOpenapi, ''));
    expect(statementsOf(template, fn)).toEqual([]);
    const [logs, xray, ...rest] = allStatementsOf(template, fn);
    expect(rest).toEqual([]);
    expect(asList(logs?.Action).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    expect(xray).toEqual(XRAY_STATEMENT);
  });

  it.each(plantRouteList.map((r) => [routeKey(r, ''), r] as const))(
    '%s may send traces to X-Ray (its one statement on `*`), and has no other wildcard resource',
    (key) => {
      const fn = functionOf(template, key);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      const all = allStatementsOf(template, fn);
      expect(all.filter(isXray)).toHaveLength(1);
      const others = all.filter((s) => !isXray(s));
      expect(others.flatMap((s) => asList(s.Action)).filter((a) => a.startsWith('xray:') || a.includes('*'))).toEqual(
        [],
      );
      expect(asList(others.flatMap((s) => asList(s.Resource)))).not.toContain('*');
    },
  );

  it('gives the $default function (plantsNotFound) no permission at all: no DynamoDB, SES or KMS', () => {
    const statements = statementsOf(template, functionOf(template, '$default'));
    expect(JSON.stringify(statements)).not.toMatch(/dynamodb:|ses:|kms:/);
    expect(statements).toEqual([]);
  });
});

describe('PlantsStack: table', () => {
  it('is its own table, built from shared/store/table.ts, on demand with PITR and deletion protection', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('drops deletion protection only with the removalPolicy context destroy (so that cdk destroy can delete it)', () => {
    const [table] = Object.values(resources(synth({ removalPolicy: 'destroy' }), 'AWS::DynamoDB::Table'));
    expect(table?.Properties.DeletionProtectionEnabled).toBe(false);
  });

  it.each([
    ['retain', 'Retain'],
    ['destroy', 'Delete'],
  ])('follows the removalPolicy context %s → DeletionPolicy %s', (policy, deletion) => {
    const [table] = Object.values(resources(synth({ removalPolicy: policy }), 'AWS::DynamoDB::Table'));
    expect(table?.DeletionPolicy).toBe(deletion);
  });
});

describe('the CDK app: Identity and Plants', () => {
  it("wires the plant store to the identity API's URL and, for CORS, its table's ORIGIN partitions: nothing else of it, and not its key", () => {
    const app = testApp();
    const identity = new IdentityStack(app, 'Identity');
    const plants = new PlantsStack(app, 'Plants', {
      identityBaseUrl: `${identity.api.apiEndpoint}${BASE_PATH}`,
      identityTable: identity.table,
    });
    const t = Template.fromStack(plants);
    const env = JSON.stringify(envOf(functionOf(t, 'POST /plants')));
    expect(env).toContain('Fn::ImportValue');
    expect(env).toContain('/api/v1/.well-known/jwks.json');
    const roles = Object.values(resources(t, 'AWS::IAM::Role'));
    expect(JSON.stringify(resources(t, 'AWS::IAM::Policy'))).not.toContain('Fn::ImportValue');
    expect(JSON.stringify(roles)).not.toMatch(/kms:|ses:/);
    // Whatever reaches the identity (an import) is the ORIGIN read, in the CORS functions' roles only.
    const identityStatements = Object.values(resources(t, 'AWS::Lambda::Function')).flatMap((fn) =>
      statementsOf(t, fn).filter((s) => JSON.stringify(s.Resource).includes('Fn::ImportValue')),
    );
    expect(identityStatements).toHaveLength(plantCorsRoutes.length);
    // The import is the identity table's ARN.
    const outputs = flatTemplate(identity).toJSON().Outputs as Record<
      string,
      { Value: unknown; Export?: { Name: string } }
    >;
    const [tableLogicalId] = Object.keys(flatTemplate(identity).findResources('AWS::DynamoDB::Table'));
    for (const s of identityStatements) {
      expect(s).toEqual(readsOrigins(expect.anything()));
      const exportName = (s.Resource as { 'Fn::ImportValue': string })['Fn::ImportValue'];
      const exported = Object.values(outputs).find((o) => o.Export?.Name === exportName);
      expect(exported?.Value).toEqual({ 'Fn::GetAtt': [tableLogicalId, 'Arn'] });
    }
    expect(plants.dependencies).toContain(identity);
  });
});

describe('PlantsStack: the JWT authorizer (plantsJwtIssuer, plantsJwtAudience)', () => {
  const ISSUER = 'https://shop.id.example.com';
  const AUDIENCE = ['cli_abcdefghjkmnpqrstvwx', 'cli_0123456789abcdefghjk'];
  const withAuthorizer = synth({ plantsJwtIssuer: ISSUER, plantsJwtAudience: AUDIENCE });
  const tokenRoutes = plantRouteList.filter((r) => r.tenant === 'token');
  const routeOf = (t: Template, key: string) =>
    Object.values(resources(t, 'AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === key);

  it('guards only the token routes (POST /plants)', () => {
    expect(tokenRoutes.map((r) => routeKey(r, ''))).toEqual(['POST /plants']);
  });

  it('has one JWT authorizer: the issuer, the audience, the identity source $request.header.Authorization', () => {
    withAuthorizer.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    const [[id, authorizer]] = Object.entries(resources(withAuthorizer, 'AWS::ApiGatewayV2::Authorizer')) as [
      [string, Resource],
    ];
    expect(id).toEqual(expect.any(String));
    const [apiId] = Object.keys(resources(withAuthorizer, 'AWS::ApiGatewayV2::Api'));
    expect(authorizer.Properties).toEqual({
      ApiId: { Ref: apiId },
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: { Issuer: ISSUER, Audience: AUDIENCE },
      Name: 'JwtAuthorizer',
    });
  });

  it('puts it on POST /plants (AuthorizationType JWT, its AuthorizerId, no scopes) and on no other route', () => {
    const [authorizerId] = Object.keys(resources(withAuthorizer, 'AWS::ApiGatewayV2::Authorizer'));
    for (const route of Object.values(resources(withAuthorizer, 'AWS::ApiGatewayV2::Route'))) {
      if (route.Properties.RouteKey === 'POST /plants') {
        expect(route.Properties).toMatchObject({ AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } });
        expect(route.Properties.AuthorizationScopes).toBeUndefined();
      } else {
        expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
        expect(route.Properties.AuthorizerId).toBeUndefined();
      }
    }
  });

  it(`tells the guarded function to take its caller from the authorizer's claims (${JWT_AUTHORIZER_VARIABLE}=true), and no other`, () => {
    for (const route of plantRouteList) {
      const env = envOf(functionOf(withAuthorizer, routeKey(route, '')));
      const before = envOf(functionOf(template, routeKey(route, '')));
      if (route.tenant === 'token') {
        expect(env).toEqual({ ...before, [JWT_AUTHORIZER_VARIABLE]: 'true' });
      } else {
        expect(env).toEqual(before);
      }
    }
  });

  it('changes nothing else: the same resources but the authorizer, and the same grants', () => {
    const count = (t: Template) => Object.keys(t.toJSON().Resources ?? {}).length;
    expect(count(withAuthorizer)).toBe(count(template) + 1);
    // The CloudFormation resource limit rule (test/infra/resource-limits.test.ts): at most 450.
    expect(count(withAuthorizer)).toBeLessThanOrEqual(450);
    const policies = (t: Template) => JSON.stringify(resources(t, 'AWS::IAM::Role'));
    expect(policies(withAuthorizer)).toBe(policies(template));
  });

  it('is absent without the context: no authorizer, every route NONE, no such variable (as in the tests above)', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
    expect(routeOf(template, 'POST /plants')?.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    for (const fn of Object.values(resources(template, 'AWS::Lambda::Function'))) {
      expect(envOf(fn)[JWT_AUTHORIZER_VARIABLE]).toBeUndefined();
    }
  });

  it('takes the audience as a comma-separated string too (-c plantsJwtAudience=a,b)', () => {
    const t = synth({ plantsJwtIssuer: ISSUER, plantsJwtAudience: ` ${AUDIENCE.join(' , ')} ` });
    t.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      JwtConfiguration: { Issuer: ISSUER, Audience: AUDIENCE },
    });
  });

  it.each([
    [{ plantsJwtIssuer: ISSUER }, /go together/],
    [{ plantsJwtAudience: AUDIENCE }, /go together/],
    [{ plantsJwtIssuer: 'http://shop.id.example.com', plantsJwtAudience: AUDIENCE }, /https URL/],
    [{ plantsJwtIssuer: 'https://shop.id.example.com?x=1', plantsJwtAudience: AUDIENCE }, /https URL/],
    [{ plantsJwtIssuer: 'not a url', plantsJwtAudience: AUDIENCE }, /https URL/],
    [{ plantsJwtIssuer: ISSUER, plantsJwtAudience: ['cli one'] }, /client ids/],
    [{ plantsJwtIssuer: ISSUER, plantsJwtAudience: [42] }, /client ids/],
    [{ plantsJwtIssuer: ISSUER, plantsJwtAudience: { a: 1 } }, /plantsJwtAudience/],
  ])('refuses the context %j', (context, message) => {
    expect(() => synth(context)).toThrow(message);
  });
});
