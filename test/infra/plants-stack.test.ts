import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { plantRouteList, plantRoutes } from '#functions/plants/routes.ts';
import { BASE_PATH } from '#functions/routes.ts';
import { IdentityStack } from '#infra/identity-stack.ts';
import { PlantsStack } from '#infra/plants-stack.ts';
import { routeKey } from '#shared/http/route.ts';
import { TABLE } from '#shared/store/table.ts';

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const cdkContext: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'),
).context;

const IDENTITY_BASE_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/api/v1';

function synth(context: Record<string, unknown> = {}): Template {
  // An empty bundling-stacks list skips esbuild: these tests look at the template only.
  const app = new App({ context: { ...cdkContext, ...context, 'aws:cdk:bundling-stacks': [] } });
  return Template.fromStack(new PlantsStack(app, 'Plants', { identityBaseUrl: IDENTITY_BASE_URL }));
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

function statementsOf(t: Template, fn: Resource): Statement[] {
  const roleId = refId(fn.Properties.Role);
  return Object.values(resources(t, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => refId(r) === roleId))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

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
    expect(keys).toContain('$default');
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
    template.resourceCountIs('AWS::Logs::LogGroup', plantRouteList.length);
    for (const group of Object.values(resources(template, 'AWS::Logs::LogGroup'))) {
      expect(group.Properties.RetentionInDays).toBe(cdkContext.logRetentionDays);
    }
  });

  it.each(plantRouteList.map((r) => [routeKey(r, ''), r] as const))(
    '%s runs on nodejs22.x arm64 and knows the issuer, its JWKS, its own table and URL, and nothing of the identity',
    (key) => {
      const fn = functionOf(template, key);
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 256 });
      const env = envOf(fn);
      expect(Object.keys(env).sort()).toEqual(['ISSUER_URL', 'JWKS_URL', 'PLANTS_TABLE_NAME', 'PLANTS_URL']);
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

  it('lets createPlant call dynamodb:PutItem on its own table only, and nothing else', () => {
    const statements = statementsOf(template, functionOf(template, routeKey(plantRoutes.createPlant, '')));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow' });
    expect(asList(statements[0]?.Action)).toEqual(['dynamodb:PutItem']);
    expect(asList(statements[0]?.Resource)).toEqual([{ 'Fn::GetAtt': [tableId(), 'Arn'] }]);
  });

  it('gives the OpenAPI function no permission at all', () => {
    const fn = functionOf(template, routeKey(plantRoutes.getPlantsOpenapi, ''));
    expect(statementsOf(template, fn)).toEqual([]);
  });

  it('gives the $default function (plantsNotFound) no permission at all: no DynamoDB, SES or KMS', () => {
    const statements = statementsOf(template, functionOf(template, '$default'));
    expect(JSON.stringify(statements)).not.toMatch(/dynamodb:|ses:|kms:/);
    expect(statements).toEqual([]);
  });
});

describe('PlantsStack: table', () => {
  it('is its own table, built from shared/store/table.ts, on demand with PITR', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
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
  it("wires the plant store to the identity API's URL only: no grant on the identity's table or key", () => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
    const identity = new IdentityStack(app, 'Identity');
    const plants = new PlantsStack(app, 'Plants', {
      identityBaseUrl: `${identity.api.apiEndpoint}${BASE_PATH}`,
    });
    const t = Template.fromStack(plants);
    const env = JSON.stringify(envOf(functionOf(t, 'POST /plants')));
    expect(env).toContain('Fn::ImportValue');
    expect(env).toContain('/api/v1/.well-known/jwks.json');
    const policies = JSON.stringify(resources(t, 'AWS::IAM::Policy'));
    expect(policies).not.toContain('Fn::ImportValue');
    expect(policies).not.toMatch(/kms:|ses:/);
    expect(plants.dependencies).toContain(identity);
  });
});
