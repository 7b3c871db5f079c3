import { fileURLToPath } from 'node:url';
import { Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { describe, expect, it } from 'vitest';
import { addStacks } from '#infra/stacks.ts';
import {
  API_PATH_PATTERN,
  API_VIEWER_REQUEST_CODE,
  responseHeadersFrom,
  WELL_KNOWN_PATH_PATTERN,
  WELL_KNOWN_REWRITES,
} from '#infra/web-stack.ts';
import { EDGE_SECRET_HEADER, VIEWER_IP_HEADER } from '#shared/http/client-ip.ts';
import { VIEWER_HOST_HEADER } from '#shared/http/viewer-origin.ts';
import { CACHE_CONTROL, WEB_SECURITY_HEADERS } from '../../web/security-headers.ts';
import { flatTemplate } from './support/flat-template.ts';
import { testApp } from './support/synth.ts';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[]; DeletionPolicy?: string };

/** The built pages stand-in (web/dist is built by `npm run build:web`, not by the tests). */
const WEB_DIST = fileURLToPath(new URL('./fixtures/web-dist', import.meta.url));

const WEB_DOMAIN_CONTEXT = {
  webDomain: 'id.example.com',
  webCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
};

/** Identity and Web wired as infra/app.ts wires them. */
function synth(context: Record<string, unknown> = {}): { web: Template; identity: Template } {
  const app = testApp(context);
  const { identity, web } = addStacks(app, { webAssetsPath: WEB_DIST });
  return { web: Template.fromStack(web), identity: flatTemplate(identity) };
}

const { web, identity } = synth();

function resources(t: Template, type: string): Record<string, Resource> {
  return t.findResources(type) as Record<string, Resource>;
}

function only(t: Template, type: string): Resource {
  const all = Object.values(resources(t, type));
  expect(all).toHaveLength(1);
  return all[0] as Resource;
}

const distributionConfig = (t: Template) => only(t, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;

/** The Identity stack's resource behind a Fn::ImportValue of the Web stack (the export's value is a Ref to it). */
function exportedResource(importValue: unknown): string {
  const name = (importValue as { 'Fn::ImportValue': string })['Fn::ImportValue'];
  const output = Object.values(identity.toJSON().Outputs as Record<string, any>).find((o) => o.Export?.Name === name);
  if (!output) throw new Error(`No export ${name}`);
  return output.Value.Ref;
}

/** A CloudFront function evaluated as CloudFront runs it: a script defining `handler(event)`. */
function cloudFrontFunction(code: string): (event: any) => any {
  return new Function(`${code}\nreturn handler;`)();
}

/** The API's viewer-request function as deployed (the one that names the viewer's address). */
function apiFunction(t: Template): [string, Resource] {
  const found = Object.entries(resources(t, 'AWS::CloudFront::Function')).find(([, f]) =>
    String(f.Properties.FunctionCode).includes(VIEWER_IP_HEADER),
  );
  if (!found) throw new Error('No function sets the viewer address');
  return found;
}

/** A viewer request as CloudFront hands it to a function: lower-cased header names, each `{ value }`. */
function viewerRequest(uri: string, headers: Record<string, string> = {}, querystring: Record<string, unknown> = {}) {
  return {
    viewer: { ip: '203.0.113.7' },
    request: {
      method: 'GET',
      uri,
      querystring,
      headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { value }])),
      cookies: {},
    },
  };
}

/** The pages' viewer-request function (the one that serves index.html). */
function viewerRequestHandler(t: Template): (event: { request: { uri: string } }) => { uri: string } {
  const fn = Object.values(resources(t, 'AWS::CloudFront::Function')).find((f) =>
    String(f.Properties.FunctionCode).includes('/index.html'),
  );
  return cloudFrontFunction(fn?.Properties.FunctionCode as string);
}

describe('WebStack: bucket', () => {
  it('is private: public access blocked, SSL enforced, S3-managed encryption, kept by default (cdk.json)', () => {
    const bucket = only(web, 'AWS::S3::Bucket');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([
      { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
    ]);
    expect(bucket.DeletionPolicy).toBe('Retain');
    const statements = only(web, 'AWS::S3::BucketPolicy').Properties.PolicyDocument.Statement as any[];
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('is read by the distribution alone, through origin access control (no OAI)', () => {
    const oac = only(web, 'AWS::CloudFront::OriginAccessControl').Properties.OriginAccessControlConfig;
    expect(oac).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' });
    const [distributionId] = Object.keys(resources(web, 'AWS::CloudFront::Distribution'));
    const [oacId] = Object.keys(resources(web, 'AWS::CloudFront::OriginAccessControl'));
    const s3Origin = (distributionConfig(web).Origins as any[]).find((o) => o.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
    expect(s3Origin.S3OriginConfig.OriginAccessIdentity).toBe('');

    const statements = only(web, 'AWS::S3::BucketPolicy').Properties.PolicyDocument.Statement as any[];
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({ Action: 's3:GetObject', Principal: { Service: 'cloudfront.amazonaws.com' } });
    expect(JSON.stringify(allows[0].Condition)).toContain(`{"Ref":"${distributionId}"}`);
  });

  it('gets the hashed files first (immutable, never pruned), then the rest (no-cache, pruned)', () => {
    const deployments = Object.entries(resources(web, 'Custom::CDKBucketDeployment'));
    const [assetsEntry, pagesEntry] = [
      deployments.find(([, d]) => d.Properties.Include?.includes('assets/*')),
      deployments.find(([, d]) => d.Properties.Exclude?.includes('assets/*')),
    ];
    if (!assetsEntry || !pagesEntry) throw new Error('Expected two deployments');
    expect(assetsEntry[1].Properties).toMatchObject({
      Exclude: ['*'],
      Prune: false,
      SystemMetadata: { 'cache-control': CACHE_CONTROL.asset },
    });
    expect(pagesEntry[1].Properties).toMatchObject({
      Prune: true,
      SystemMetadata: { 'cache-control': CACHE_CONTROL.html },
    });
    expect(pagesEntry[1].DependsOn).toContain(assetsEntry[0]);
  });
});

describe('WebStack: pages behaviour', () => {
  it('redirects to https, caches (optimized) and rewrites paths on viewer request', () => {
    const behaviour = distributionConfig(web).DefaultCacheBehavior;
    const functionId = Object.entries(resources(web, 'AWS::CloudFront::Function')).find(([, f]) =>
      String(f.Properties.FunctionCode).includes('/index.html'),
    )?.[0];
    expect(behaviour).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      FunctionAssociations: [
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ],
    });
    for (const fn of Object.values(resources(web, 'AWS::CloudFront::Function'))) {
      expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    }
  });

  it.each(['/', '/sign-in', '/account', '/console/users/x', '/console/users/x/'])(
    'serves /index.html for %s (a page of the single-page app)',
    (uri) => {
      expect(viewerRequestHandler(web)({ request: { uri } }).uri).toBe('/index.html');
    },
  );

  it.each(['/assets/index-abc.js', '/assets/index-abc.css', '/favicon.svg', '/index.html'])(
    'leaves %s as it is (a file)',
    (uri) => {
      expect(viewerRequestHandler(web)({ request: { uri } }).uri).toBe(uri);
    },
  );
});

describe('WebStack: API behaviour', () => {
  const config = distributionConfig(web);
  const behaviour = (config.CacheBehaviors as any[]).find((b) => b.PathPattern === API_PATH_PATTERN);
  const origin = (config.Origins as any[]).find((o) => o.Id === behaviour?.TargetOriginId);

  it('sends /api/* uncached, every method, every viewer header but Host, over https', () => {
    expect(API_PATH_PATTERN).toBe('/api/*');
    expect(behaviour).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    });
    expect([...behaviour.AllowedMethods].sort()).toEqual(
      ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'].sort(),
    );
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
  });

  it("targets the identity HTTP API's execute-api domain", () => {
    const [, parts] = origin.DomainName['Fn::Join'] as [string, unknown[]];
    expect(parts.slice(1)).toEqual(['.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]);
    const apiId = exportedResource(parts[0]);
    expect(resources(identity, 'AWS::ApiGatewayV2::Api')[apiId]?.Properties.ProtocolType).toBe('HTTP');
  });

  it('sets the viewer address and host headers in a viewer-request function, over whatever the viewer sent', () => {
    const [, fn] = apiFunction(web);
    expect(fn.Properties.FunctionCode).toBe(API_VIEWER_REQUEST_CODE);
    expect(fn.Properties.FunctionCode).toContain(VIEWER_HOST_HEADER);
    const handler = cloudFrontFunction(fn.Properties.FunctionCode);
    const request = handler(
      viewerRequest('/api/v1/auth/login', {
        host: 'shop.id.example.com',
        [VIEWER_IP_HEADER]: '10.0.0.1',
        [VIEWER_HOST_HEADER]: 'victim.example.com',
      }),
    );
    expect(request.uri).toBe('/api/v1/auth/login');
    expect(request.headers[VIEWER_IP_HEADER]).toEqual({ value: '203.0.113.7' });
    expect(request.headers[VIEWER_HOST_HEADER]).toEqual({ value: 'shop.id.example.com' });
    const associated = behaviour.FunctionAssociations as { EventType: string }[];
    expect(associated.map((a) => a.EventType)).toEqual(['viewer-request']);
  });

  it('removes a viewer host the viewer sent itself when it sent no Host', () => {
    const handler = cloudFrontFunction(apiFunction(web)[1].Properties.FunctionCode);
    const request = handler(viewerRequest('/api/v1/health', { [VIEWER_HOST_HEADER]: 'victim.example.com' }));
    expect(request.headers).not.toHaveProperty(VIEWER_HOST_HEADER);
    expect(request.headers[VIEWER_IP_HEADER]).toEqual({ value: '203.0.113.7' });
  });

  it('leaves the API’s own well-known paths (the JWKS under /api/v1) as they are', () => {
    const handler = cloudFrontFunction(apiFunction(web)[1].Properties.FunctionCode);
    const request = handler(viewerRequest('/api/v1/.well-known/jwks.json', { host: 'shop.id.example.com' }));
    expect(request.uri).toBe('/api/v1/.well-known/jwks.json');
  });

  it("adds the Identity stack's generated edge secret as a header, by a dynamic reference (no value in a template)", () => {
    const headers = origin.OriginCustomHeaders as { HeaderName: string; HeaderValue: any }[];
    expect(headers.map((h) => h.HeaderName)).toEqual([EDGE_SECRET_HEADER]);
    const [, parts] = (headers[0] as { HeaderValue: any }).HeaderValue['Fn::Join'] as [string, unknown[]];
    expect(parts[0]).toBe('{{resolve:secretsmanager:');
    expect(parts[2]).toBe(':SecretString:::}}');
    const secretId = exportedResource(parts[1]);
    const secret = resources(identity, 'AWS::SecretsManager::Secret')[secretId];
    expect(secret?.Properties.GenerateSecretString).toBeDefined();
    expect(secret?.Properties.SecretString).toBeUndefined();
  });

  it('gives every route function the same secret by its ARN (EDGE_SECRET_ARN), never its value, and leave to read it', () => {
    const [secretId] = Object.keys(resources(identity, 'AWS::SecretsManager::Secret'));
    const roles = resources(identity, 'AWS::IAM::Role');
    // Every function an API route invokes: the integrations' targets (the SES events function serves no request).
    const routeFunctionIds = new Set(
      Object.values(resources(identity, 'AWS::ApiGatewayV2::Integration')).map(
        (integration) => integration.Properties.IntegrationUri['Fn::GetAtt'][0],
      ),
    );
    expect(routeFunctionIds.size).toBeGreaterThan(60);
    const functions = Object.entries(resources(identity, 'AWS::Lambda::Function'));
    for (const [, fn] of functions.filter(([id]) => !routeFunctionIds.has(id))) {
      expect(fn.Properties.Environment.Variables.EDGE_SECRET_ARN).toBeUndefined();
    }
    for (const [, fn] of functions.filter(([id]) => routeFunctionIds.has(id))) {
      const variables = fn.Properties.Environment.Variables;
      expect(variables.EDGE_SECRET_ARN).toEqual({ Ref: secretId });
      expect(variables.EDGE_SECRET).toBeUndefined();
      expect(JSON.stringify(variables)).not.toContain('{{resolve:');
      const role = roles[fn.Properties.Role['Fn::GetAtt'][0]];
      const statements = role?.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
      const secretStatements = statements.filter((st: any) => JSON.stringify(st.Action).includes('secretsmanager:'));
      expect(secretStatements).toEqual([
        { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: secretId } },
      ]);
    }
  });
});

describe('WebStack: the issuer’s discovery paths (/.well-known/*)', () => {
  const config = distributionConfig(web);
  const behaviours = config.CacheBehaviors as any[];
  const wellKnown = behaviours.find((b) => b.PathPattern === WELL_KNOWN_PATH_PATTERN);
  const api = behaviours.find((b) => b.PathPattern === API_PATH_PATTERN);
  const handler = cloudFrontFunction(apiFunction(web)[1].Properties.FunctionCode);

  it('sends /.well-known/* to the API origin, uncached, GET, HEAD and OPTIONS, every viewer header but Host', () => {
    expect(WELL_KNOWN_PATH_PATTERN).toBe('/.well-known/*');
    expect(wellKnown).toMatchObject({
      TargetOriginId: api.TargetOriginId,
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      ResponseHeadersPolicyId: api.ResponseHeadersPolicyId,
    });
    expect([...wellKnown.AllowedMethods].sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('runs the API’s viewer-request function: one function for both behaviours', () => {
    const [functionId] = apiFunction(web);
    for (const behaviour of [wellKnown, api]) {
      expect(behaviour.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ]);
    }
    // The pages' function and this one: nothing else.
    expect(Object.keys(resources(web, 'AWS::CloudFront::Function'))).toHaveLength(2);
  });

  it.each([
    ['/.well-known/openid-configuration', '/api/v1/oidc/openid-configuration'],
    ['/.well-known/oauth-authorization-server', '/api/v1/oidc/openid-configuration'],
    ['/.well-known/webauthn', '/api/v1/passkeys/related-origins'],
  ])('rewrites %s to the API’s %s, keeping the query, with the viewer’s address and host', (uri, route) => {
    expect(WELL_KNOWN_REWRITES[uri]).toBe(route);
    const querystring = { foo: { value: 'bar' } };
    const request = handler(
      viewerRequest(uri, { host: 'shop.id.example.com', [VIEWER_HOST_HEADER]: 'victim.example.com' }, querystring),
    );
    expect(request.uri).toBe(route);
    expect(request.querystring).toEqual(querystring);
    expect(request.headers[VIEWER_HOST_HEADER]).toEqual({ value: 'shop.id.example.com' });
    expect(request.headers[VIEWER_IP_HEADER]).toEqual({ value: '203.0.113.7' });
    expect(request.headers.host).toEqual({ value: 'shop.id.example.com' });
  });

  it.each([
    '/.well-known/jwks.json',
    '/.well-known/openid-configuration/',
    '/.well-known/openid-configuration.json',
    '/.well-known/OPENID-CONFIGURATION',
    '/.well-known/security.txt',
    '/.well-known/webauthn/',
    '/.well-known/constructor',
    '/.well-known/hasOwnProperty',
    '/.well-known/__proto__',
    '/.well-known/../api/v1/auth/login',
    '/.well-known/',
  ])('answers 404 itself for %s (never reaching the API)', (uri) => {
    const answer = handler(viewerRequest(uri, { host: 'shop.id.example.com' }));
    expect(answer).toEqual({ statusCode: 404, statusDescription: 'Not Found' });
  });
});

describe('WebStack: security headers', () => {
  const policy = only(web, 'AWS::CloudFront::ResponseHeadersPolicy').Properties.ResponseHeadersPolicyConfig;

  it('sends exactly WEB_SECURITY_HEADERS (web/security-headers.ts), each overriding the origin', () => {
    const security = policy.SecurityHeadersConfig;
    const hsts = security.StrictTransportSecurity;
    const sent: Record<string, string> = {
      'content-security-policy': security.ContentSecurityPolicy.ContentSecurityPolicy,
      'strict-transport-security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
      'referrer-policy': security.ReferrerPolicy.ReferrerPolicy,
      'x-content-type-options': 'nosniff',
      'x-frame-options': security.FrameOptions.FrameOption,
    };
    expect(security.ContentTypeOptions).toBeDefined();
    expect(security.XSSProtection).toBeUndefined();
    for (const { Header, Value } of policy.CustomHeadersConfig.Items) sent[Header] = Value;
    expect(sent).toEqual(WEB_SECURITY_HEADERS);

    const overrides = [
      ...Object.values(security as Record<string, { Override: boolean }>).map((s) => s.Override),
      ...policy.CustomHeadersConfig.Items.map((h: { Override: boolean }) => h.Override),
    ];
    expect(overrides.every((o) => o === true)).toBe(true);
  });

  it('puts the policy on the pages, on the API and on the discovery paths', () => {
    const [policyId] = Object.keys(resources(web, 'AWS::CloudFront::ResponseHeadersPolicy'));
    const config = distributionConfig(web);
    expect(config.CacheBehaviors).toHaveLength(2);
    for (const behaviour of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(behaviour.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    }
  });

  it('refuses a header value CloudFront cannot send', () => {
    expect(() => responseHeadersFrom({ 'referrer-policy': 'everywhere' })).toThrow(/referrer-policy/);
    expect(() => responseHeadersFrom({ 'x-frame-options': 'ALLOW-FROM https://a.example' })).toThrow(/x-frame/);
    expect(() => responseHeadersFrom({ 'x-content-type-options': 'sniff' })).toThrow(/x-content-type/);
    expect(() => responseHeadersFrom({ 'strict-transport-security': 'max-age=abc' })).toThrow(/strict/);
  });
});

describe('WebStack: domain', () => {
  it('without webDomain: the cloudfront.net domain, no HOSTED_PAGES_ORIGIN, and an output saying what is missing', () => {
    const config = distributionConfig(web);
    expect(config.Aliases).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
    for (const fn of Object.values(resources(identity, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables).not.toHaveProperty('HOSTED_PAGES_ORIGIN');
    }
    const outputs = web.toJSON().Outputs;
    expect(outputs.HostedPagesUrl.Value).toMatch(/webDomain/);
    expect(outputs.DistributionDomainName.Description).toMatch(/webDomain/);
  });

  it('with webDomain and webCertificateArn: *.<webDomain> on that certificate (TLS 1.2), and HOSTED_PAGES_ORIGIN', () => {
    const withDomain = synth(WEB_DOMAIN_CONTEXT);
    const config = distributionConfig(withDomain.web);
    expect(config.Aliases).toEqual(['*.id.example.com']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: WEB_DOMAIN_CONTEXT.webCertificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    const fns = Object.values(resources(withDomain.identity, 'AWS::Lambda::Function'));
    expect(fns.length).toBeGreaterThan(0);
    for (const fn of fns) {
      expect(fn.Properties.Environment.Variables.HOSTED_PAGES_ORIGIN).toBe('https://{subdomain}.id.example.com');
    }
    expect(withDomain.web.toJSON().Outputs.HostedPagesUrl.Value).toBe('https://{subdomain}.id.example.com/');
  });

  it('outputs the distribution domain name and the bucket name', () => {
    const outputs = web.toJSON().Outputs;
    const [distributionId] = Object.keys(resources(web, 'AWS::CloudFront::Distribution'));
    const [bucketId] = Object.keys(resources(web, 'AWS::S3::Bucket'));
    expect(outputs.DistributionDomainName.Value).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
    expect(outputs.BucketName.Value).toEqual({ Ref: bucketId });
  });

  it.each([
    [{ webDomain: 'id.example.com' }, /go together/],
    [{ webCertificateArn: WEB_DOMAIN_CONTEXT.webCertificateArn }, /go together/],
    [{ ...WEB_DOMAIN_CONTEXT, webDomain: 'https://id.example.com' }, /webDomain/],
    [{ ...WEB_DOMAIN_CONTEXT, webDomain: 'localhost' }, /webDomain/],
    [
      {
        ...WEB_DOMAIN_CONTEXT,
        webCertificateArn: WEB_DOMAIN_CONTEXT.webCertificateArn.replace('us-east-1', 'eu-west-1'),
      },
      /us-east-1/,
    ],
  ])('refuses %j', (context, message) => {
    expect(() => synth(context)).toThrow(message);
  });
});
