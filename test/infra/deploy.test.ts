import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { FIREWALL_RULES, type FirewallStack } from '#infra/firewall-stack.ts';
import { addStacks } from '#infra/stacks.ts';
import { ERRORS } from '#shared/errors.ts';
import { errorFromAnswer } from '../../client/src/errors.ts';
import { cdkContext } from './support/context.ts';
import { flatTemplate } from './support/flat-template.ts';

/**
 * What a real deployment needs beyond the templates' shape: a sender the stack can verify and whose
 * DNS records it prints, the SES events that suppress bad addresses, an issuer that survives the API, backups, and
 * an example deployment that cannot be deployed by mistake.
 */

const WEB_DIST = fileURLToPath(new URL('./fixtures/web-dist', import.meta.url));
/** A deployment's own context: not the example one (test/infra/support/context.ts). */
const OWN = { ...cdkContext, example: false, senderDomain: 'mail.plants.shop', senderEmail: '' };

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: unknown };

type Synthesised = ReturnType<typeof addStacks> & { identityTemplate: Template; webTemplate: Template };
/** One app per context: the tests only read what it synthesises. */
const synthesised = new Map<string, Synthesised>();

function synth(context: Record<string, unknown>): Synthesised {
  const key = JSON.stringify(context);
  let found = synthesised.get(key);
  if (!found) {
    const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
    const stacks = addStacks(app, { webAssetsPath: WEB_DIST });
    found = { ...stacks, identityTemplate: flatTemplate(stacks.identity), webTemplate: flatTemplate(stacks.web) };
    synthesised.set(key, found);
  }
  return found;
}

const resources = (t: Template, type: string) => t.findResources(type) as Record<string, Resource>;
const only = (t: Template, type: string): [string, Resource] => {
  const entries = Object.entries(resources(t, type));
  expect(entries, type).toHaveLength(1);
  return entries[0] as [string, Resource];
};

describe('the sender', () => {
  it('refuses to synthesise without one, saying what to set', () => {
    expect(() => synth({ ...OWN, senderDomain: '' })).toThrow(/Context "senderDomain" is not set: .*-c senderDomain=/);
  });

  it.each(['example.com', 'mail.example.org', 'shop.test', 'no-reply.invalid'])(
    'refuses %s, a domain reserved for examples, unless the deployment is an example',
    (domain) => {
      expect(() => synth({ ...OWN, senderDomain: domain })).toThrow(/reserved for examples.*Set "senderDomain"/);
      expect(() => synth({ ...OWN, senderDomain: '', senderEmail: `auth@${domain}` })).toThrow(/reserved for examples/);
      expect(() => synth({ ...OWN, example: true, senderDomain: domain })).not.toThrow();
    },
  );

  it('refuses a sender address outside the sender domain', () => {
    expect(() => synth({ ...OWN, senderEmail: 'auth@elsewhere.shop' })).toThrow(/must be an address at "senderDomain"/);
  });

  const { identityTemplate: t } = synth(OWN);

  it('is the domain’s SES identity, made by the stack with Easy DKIM and a custom MAIL FROM domain', () => {
    const [, identity] = only(t, 'AWS::SES::EmailIdentity');
    expect(identity.Properties).toMatchObject({
      EmailIdentity: 'mail.plants.shop',
      MailFromAttributes: { MailFromDomain: 'bounce.mail.plants.shop', BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
    });
    expect(identity.Properties.DkimAttributes?.SigningEnabled ?? true).toBe(true);
    expect(identity.Properties.ConfigurationSetAttributes).toBeDefined();
  });

  it('prints every DNS record to add: three DKIM CNAMEs, the MAIL FROM MX and SPF, DMARC', () => {
    const outputs = Object.entries(t.findOutputs('*'))
      .filter(([id]) => id.startsWith('SenderDnsRecord'))
      .map(([, o]) => JSON.stringify(o.Value));
    expect(outputs).toHaveLength(6);
    expect(outputs.filter((o) => o.includes(' CNAME ') && o.includes('DkimDNSTokenName'))).toHaveLength(3);
    expect(outputs.some((o) => o.includes('bounce.mail.plants.shop MX 10 feedback-smtp.'))).toBe(true);
    expect(outputs.some((o) => o.includes('bounce.mail.plants.shop TXT \\"v=spf1 include:amazonses.com ~all\\"'))).toBe(
      true,
    );
    expect(outputs.some((o) => o.includes('_dmarc.mail.plants.shop TXT'))).toBe(true);
  });

  it('sends every mail from no-reply@ the domain, with the configuration set, and may send as nothing else', () => {
    const mailers = Object.values(resources(t, 'AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.Environment.Variables.SES_CONFIGURATION_SET !== undefined,
    );
    expect(mailers.length).toBeGreaterThanOrEqual(9);
    for (const fn of mailers)
      expect(fn.Properties.Environment.Variables.SENDER_EMAIL).toBe('no-reply@mail.plants.shop');
  });

  it('may send to any identity of the account only while the account is in the SES sandbox (sesSandbox)', () => {
    const sesResources = (tpl: Template) =>
      Object.values(resources(tpl, 'AWS::IAM::Role'))
        .flatMap((role) => role.Properties.Policies ?? [])
        .flatMap((policy: any) => policy.PolicyDocument.Statement)
        .filter((statement: any) => statement.Action === 'ses:SendEmail')
        .map((statement: any) => JSON.stringify(statement.Resource));
    const everyIdentity = ':identity/*"';
    expect(sesResources(t).length).toBeGreaterThanOrEqual(9);
    expect(sesResources(t).filter((r) => r.includes(everyIdentity))).toEqual([]);
    const sandbox = sesResources(synth({ ...OWN, sesSandbox: true }).identityTemplate);
    expect(sandbox.length).toBeGreaterThanOrEqual(9);
    for (const r of sandbox) expect(r).toContain(everyIdentity);
  });

  it('takes an address of a domain verified elsewhere (senderEmail alone): no identity made, no DNS records', () => {
    const { identityTemplate } = synth({ ...OWN, senderDomain: '', senderEmail: 'auth@verified.shop' });
    identityTemplate.resourceCountIs('AWS::SES::EmailIdentity', 0);
    expect(Object.keys(identityTemplate.findOutputs('*')).filter((id) => id.startsWith('SenderDnsRecord'))).toEqual([]);
  });
});

describe('bounces and complaints', () => {
  const { identityTemplate: t } = synth(OWN);

  it('go from the configuration set to a TLS-only topic, which SES of this configuration set alone may publish to', () => {
    const [setId, set] = only(t, 'AWS::SES::ConfigurationSet');
    expect(set.Properties.Name).toBe('Identity-mail');
    const [, destination] = only(t, 'AWS::SES::ConfigurationSetEventDestination');
    expect(destination.Properties.ConfigurationSetName).toEqual({ Ref: setId });
    expect(destination.Properties.EventDestination.MatchingEventTypes.sort()).toEqual(
      ['bounce', 'complaint', 'deliveryDelay', 'reject'].sort(),
    );
    const topic = destination.Properties.EventDestination.SnsDestination.TopicARN;
    const policies = Object.values(resources(t, 'AWS::SNS::TopicPolicy')).filter(
      (p) => JSON.stringify(p.Properties.Topics) === JSON.stringify([topic]),
    );
    const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const allow = statements.find((s: any) => s.Effect === 'Allow');
    expect(allow.Principal).toEqual({ Service: 'ses.amazonaws.com' });
    expect(JSON.stringify(allow.Condition)).toContain('configuration-set/');
  });

  it('reach the SES events function, which may put suppressions in the table and nothing else, with a dead-letter queue', () => {
    const [fnId, fn] = Object.entries(resources(t, 'AWS::Lambda::Function')).find(([, f]) =>
      String(f.Properties.Description).startsWith('SES bounce'),
    ) as [string, Resource];
    const [, subscription] = Object.entries(resources(t, 'AWS::SNS::Subscription')).find(
      ([, s]) => s.Properties.Protocol === 'lambda',
    ) as [string, Resource];
    expect(subscription.Properties.Endpoint).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    expect(subscription.Properties.RedrivePolicy).toBeDefined();
    const role = resources(t, 'AWS::IAM::Role')[fn.Properties.Role['Fn::GetAtt'][0]] as Resource;
    const actions = role.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement).flatMap((s: any) =>
      Array.isArray(s.Action) ? s.Action : [s.Action],
    );
    expect(actions.filter((a: string) => !a.startsWith('logs:') && !a.startsWith('xray:')).sort()).toEqual([
      'dynamodb:PutItem',
      'sqs:SendMessage',
    ]);
    expect(fn.Properties.Environment.Variables.EDGE_SECRET_ARN).toBeUndefined();
  });
});

describe('a stable issuer (context apiDomain)', () => {
  const certificate = 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789';
  const withDomain = synth({ ...OWN, apiDomain: 'api.plants.shop', apiCertificateArn: certificate });

  it('maps the API to its own domain and turns the execute-api endpoint off', () => {
    const t = withDomain.identityTemplate;
    const [domainId, domain] = only(t, 'AWS::ApiGatewayV2::DomainName');
    expect(domain.Properties).toMatchObject({
      DomainName: 'api.plants.shop',
      DomainNameConfigurations: [{ CertificateArn: certificate, EndpointType: 'REGIONAL' }],
    });
    const [, mapping] = only(t, 'AWS::ApiGatewayV2::ApiMapping');
    expect(mapping.Properties.DomainName).toEqual({ Ref: domainId });
    const [, api] = only(t, 'AWS::ApiGatewayV2::Api');
    expect(api.Properties.DisableExecuteApiEndpoint).toBe(true);
    expect(JSON.stringify(t.findOutputs('ApiDomainTarget'))).toContain('RegionalDomainName');
  });

  it('is the issuer and base URL of every function, the Plants stack’s and CloudFront’s origin', () => {
    const t = withDomain.identityTemplate;
    for (const fn of Object.values(resources(t, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables.ISSUER_URL).toBe('https://api.plants.shop/api/v1');
    }
    expect(t.findOutputs('ApiUrl').ApiUrl?.Value).toBe('https://api.plants.shop/api/v1');
    const [, distribution] = only(withDomain.webTemplate, 'AWS::CloudFront::Distribution');
    const domains = distribution.Properties.DistributionConfig.Origins.map((o: any) => o.DomainName);
    expect(domains).toContain('api.plants.shop');
    const plants = flatTemplate(withDomain.plants);
    for (const fn of Object.values(resources(plants, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables.ISSUER_URL).toBe('https://api.plants.shop/api/v1');
    }
  });

  it('is not there by default: the execute-api endpoint stays on', () => {
    const { identityTemplate: t } = synth(OWN);
    t.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    expect(only(t, 'AWS::ApiGatewayV2::Api')[1].Properties.DisableExecuteApiEndpoint).toBe(false);
  });

  it('needs both settings and a certificate ARN', () => {
    expect(() => synth({ ...OWN, apiDomain: 'api.plants.shop' })).toThrow(/go together/);
    expect(() => synth({ ...OWN, apiDomain: 'api.plants.shop', apiCertificateArn: 'nope' })).toThrow(/ACM certificate/);
  });
});

describe('a web ACL per client address and per tenant (context waf)', () => {
  const WEB = {
    webDomain: 'id.plants.shop',
    webCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
  };
  const guarded = synth({ ...OWN, ...WEB, waf: 'on', wafIpRequestsPerMinute: 600, wafTenantRequestsPerMinute: 20000 });
  const firewall = guarded.firewall as FirewallStack;
  const acl = () => only(flatTemplate(firewall), 'AWS::WAFv2::WebACL')[1].Properties;
  const rule = (name: string) => acl().Rules.find((r: any) => r.Name === name);

  it('is a CloudFront web ACL, in us-east-1 whatever the deployment’s Region, deployed before the Web stack', () => {
    expect(firewall.region).toBe('us-east-1');
    expect(acl()).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(guarded.web.dependencies).toContain(firewall);
    expect(guarded.identity.region).not.toBe('us-east-1');
  });

  it('counts each client address on every request, over one minute', () => {
    expect(rule(FIREWALL_RULES.perClientAddress).Statement).toEqual({
      RateBasedStatement: { AggregateKeyType: 'IP', Limit: 600, EvaluationWindowSec: 60 },
    });
  });

  it('counts each tenant by its x-app-id on the API, and by its own host on the API and the discovery paths', () => {
    const byAppId = rule(FIREWALL_RULES.perTenantAppId).Statement.RateBasedStatement;
    expect(byAppId).toMatchObject({ AggregateKeyType: 'CUSTOM_KEYS', Limit: 20000, EvaluationWindowSec: 60 });
    expect(byAppId.CustomKeys).toEqual([
      { Header: { Name: 'x-app-id', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } },
    ]);
    expect(byAppId.ScopeDownStatement.ByteMatchStatement).toMatchObject({
      FieldToMatch: { UriPath: {} },
      PositionalConstraint: 'STARTS_WITH',
      SearchString: '/api/',
    });
    const byHost = rule(FIREWALL_RULES.perTenantHost).Statement.RateBasedStatement;
    expect(byHost.CustomKeys).toEqual([
      { Header: { Name: 'host', TextTransformations: [{ Priority: 0, Type: 'LOWERCASE' }] } },
    ]);
    // Only a tenant's own host (`<subdomain>.<webDomain>`): the distribution's cloudfront.net name is every tenant's.
    const [host, paths] = byHost.ScopeDownStatement.AndStatement.Statements;
    expect(host.ByteMatchStatement).toMatchObject({
      PositionalConstraint: 'ENDS_WITH',
      SearchString: '.id.plants.shop',
    });
    expect(paths.OrStatement.Statements.map((s: any) => s.ByteMatchStatement.SearchString)).toEqual([
      '/api/',
      '/.well-known/',
    ]);
  });

  it('blocks with the API’s own 429 problem and a Retry-After, which the pages and the client read as RATE_LIMITED', () => {
    for (const r of acl().Rules) {
      expect(r.Action.Block.CustomResponse).toEqual({
        ResponseCode: 429,
        CustomResponseBodyKey: 'rateLimited',
        // Retry-After on every 429, and no CORS header: CORS answers echo only allowed origins, never `*`.
        ResponseHeaders: [{ Name: 'retry-after', Value: '60' }],
      });
    }
    const body = JSON.parse(acl().CustomResponseBodies.rateLimited.Content);
    expect(body).toMatchObject({ status: 429, code: 'RATE_LIMITED', type: 'about:blank' });
    expect(ERRORS[body.code as keyof typeof ERRORS]).toBe(429);
    expect(errorFromAnswer(429, body, 60)).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfter: 60 });
  });

  it('is attached to the distribution by its ARN, read at deploy time from the parameter the Firewall stack writes', () => {
    const [parameterId, parameter] = only(flatTemplate(firewall), 'AWS::SSM::Parameter');
    expect(parameter.Properties).toMatchObject({ Name: '/Firewall/web-acl-arn' });
    expect(parameter.Properties.Value).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
    expect(parameterId).toBeTruthy();
    const web = guarded.webTemplate;
    const [readerId, reader] = only(web, 'Custom::AWS');
    const call = JSON.parse(reader.Properties.Create);
    expect(call).toMatchObject({
      service: 'SSM',
      action: 'GetParameter',
      parameters: { Name: '/Firewall/web-acl-arn' },
      region: 'us-east-1',
    });
    const [, distribution] = only(web, 'AWS::CloudFront::Distribution');
    expect(distribution.Properties.DistributionConfig.WebACLId).toEqual({
      'Fn::GetAtt': [readerId, 'Parameter.Value'],
    });
    // The reader may read that one parameter, and nothing else.
    const policies = Object.values(resources(web, 'AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('ssm:'),
    );
    expect(policies).toHaveLength(1);
    expect(JSON.stringify(policies[0]?.Properties.PolicyDocument.Statement)).toBe(
      JSON.stringify([
        {
          Action: 'ssm:GetParameter',
          Effect: 'Allow',
          Resource: {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':ssm:us-east-1:',
                { Ref: 'AWS::AccountId' },
                ':parameter/Firewall/web-acl-arn',
              ],
            ],
          },
        },
      ]),
    );
  });

  it('makes every identity function refuse a request that went around CloudFront (the API’s own domain)', () => {
    const routeFunctions = Object.values(resources(guarded.identityTemplate, 'AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.Environment?.Variables?.EDGE_SECRET_ARN,
    );
    expect(routeFunctions.length).toBeGreaterThan(50);
    for (const fn of routeFunctions) expect(fn.Properties.Environment.Variables.EDGE_ONLY).toBe('true');
  });

  it('prints where the API is then called: a tenant’s hosted origin, under /api/v1', () => {
    expect(guarded.webTemplate.findOutputs('IdentityUrl').IdentityUrl?.Value).toBe(
      'https://{subdomain}.id.plants.shop/api/v1',
    );
  });

  it('has no host rule without webDomain (no tenant has a host of its own then)', () => {
    const bare = synth({ ...OWN, waf: 'on' });
    const rules = only(flatTemplate(bare.firewall as FirewallStack), 'AWS::WAFv2::WebACL')[1].Properties.Rules;
    expect(rules.map((r: any) => r.Name)).toEqual([FIREWALL_RULES.perClientAddress, FIREWALL_RULES.perTenantAppId]);
  });

  it('is not there by default: no Firewall stack, no web ACL, and the API answers its own domain', () => {
    const plain = synth({ ...OWN, ...WEB });
    expect(plain.firewall).toBeUndefined();
    const [, distribution] = only(plain.webTemplate, 'AWS::CloudFront::Distribution');
    expect(distribution.Properties.DistributionConfig.WebACLId).toBeUndefined();
    plain.webTemplate.resourceCountIs('Custom::AWS', 0);
    for (const fn of Object.values(resources(plain.identityTemplate, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment?.Variables?.EDGE_ONLY).toBeUndefined();
    }
  });

  it('refuses limits AWS WAF would refuse, saying which', () => {
    expect(() => synth({ ...OWN, waf: 'yes' })).toThrow(/"waf" must be "on" or "off"/);
    expect(() => synth({ ...OWN, waf: 'on', wafIpRequestsPerMinute: 5 })).toThrow(/from 10 to 2000000000 \(AWS WAF\)/);
    expect(() => synth({ ...OWN, waf: 'on', wafTenantRequestsPerMinute: 'lots' })).toThrow(/positive integer/);
  });
});

describe("the deployment's name in mails' From", () => {
  const senderNames = (t: Template) =>
    new Set(
      Object.values(resources(t, 'AWS::Lambda::Function')).map(
        (fn) => fn.Properties.Environment?.Variables?.SENDER_NAME as string | undefined,
      ),
    );

  it('is the sender domain unless set (no SENDER_NAME), and SENDER_NAME in every function when set', () => {
    expect(senderNames(synth(OWN).identityTemplate)).toEqual(new Set([undefined]));
    const named = synth({ ...OWN, senderName: 'Plant ID' }).identityTemplate;
    const functions = Object.values(resources(named, 'AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.Environment?.Variables?.SENDER_EMAIL !== undefined,
    );
    expect(functions.length).toBeGreaterThan(1);
    for (const fn of functions) expect(fn.Properties.Environment.Variables.SENDER_NAME).toBe('Plant ID');
  });

  it('refuses a name too long or with control characters', () => {
    expect(() => synth({ ...OWN, senderName: 'x'.repeat(65) })).toThrow(/"senderName" must be at most 64/);
    expect(() => synth({ ...OWN, senderName: 'Plant\r\nBcc: x' })).toThrow(/"senderName" must be at most 64/);
  });
});

describe('the signup limits', () => {
  // Every route's function has them (test/infra/identity-stack.test.ts): the first one's say what all get.
  const signupFunction = (t: Template) =>
    Object.values(resources(t, 'AWS::Lambda::Function')).find(
      (fn) => fn.Properties.Environment?.Variables?.SIGNUPS_PER_IP_PER_HOUR !== undefined,
    );

  it('gives the functions 20 open signups per IP an hour and a signup mail budget of 5,000 a day by default', () => {
    const env = signupFunction(synth(OWN).identityTemplate)?.Properties.Environment.Variables;
    expect(env).toMatchObject({
      SIGNUPS_PER_IP_PER_HOUR: '20',
      SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT: '5000',
      MAIL_DAILY_BUDGET_PER_TENANT: '10000',
    });
  });

  it('takes both from the context, and refuses what is not a positive integer', () => {
    const set = synth({ ...OWN, signupsPerIpPerHour: 100, signupMailDailyBudgetPerTenant: '20000' });
    expect(signupFunction(set.identityTemplate)?.Properties.Environment.Variables).toMatchObject({
      SIGNUPS_PER_IP_PER_HOUR: '100',
      SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT: '20000',
    });
    expect(() => synth({ ...OWN, signupsPerIpPerHour: 0 })).toThrow(/"signupsPerIpPerHour" must be a positive integer/);
    expect(() => synth({ ...OWN, signupMailDailyBudgetPerTenant: 'lots' })).toThrow(
      /"signupMailDailyBudgetPerTenant" must be a positive integer/,
    );
  });

  it("leaves the tenant copies at the functions' 5 seconds by default, and takes 0 to 60 from the context", () => {
    expect(signupFunction(synth(OWN).identityTemplate)?.Properties.Environment.Variables).not.toHaveProperty(
      'TENANT_CACHE_SECONDS',
    );
    const fresh = synth({ ...OWN, tenantCacheSeconds: 0 });
    expect(signupFunction(fresh.identityTemplate)?.Properties.Environment.Variables).toMatchObject({
      TENANT_CACHE_SECONDS: '0',
    });
    expect(() => synth({ ...OWN, tenantCacheSeconds: 61 })).toThrow(
      /"tenantCacheSeconds" must be an integer from 0 to 60/,
    );
    expect(() => synth({ ...OWN, tenantCacheSeconds: 'soon' })).toThrow(/"tenantCacheSeconds"/);
  });
});

describe('recovery', () => {
  it('backs the table up daily, keeps each backup 7 days, in a vault that outlives the stack', () => {
    const { identityTemplate: t } = synth(OWN);
    const [, plan] = only(t, 'AWS::Backup::BackupPlan');
    const [rule] = plan.Properties.BackupPlan.BackupPlanRule;
    expect(rule).toMatchObject({ ScheduleExpression: 'cron(0 3 * * ? *)', Lifecycle: { DeleteAfterDays: 7 } });
    expect(rule.CopyActions).toBeUndefined();
    const [tableId] = only(t, 'AWS::DynamoDB::Table');
    const [, selection] = only(t, 'AWS::Backup::BackupSelection');
    expect(JSON.stringify(selection.Properties.BackupSelection.Resources)).toContain(tableId);
    const vault = Object.values(t.toJSON().Resources).find((r: any) => r.Type === 'AWS::Backup::BackupVault') as any;
    expect(vault.DeletionPolicy).toBe('Retain');
  });

  it('copies each backup to another Region’s or account’s vault when backupCopyVaultArn names one', () => {
    const vault = 'arn:aws:backup:us-west-2:123456789012:backup-vault:identity-copies';
    const { identityTemplate: t } = synth({ ...OWN, backupCopyVaultArn: vault });
    const [rule] = only(t, 'AWS::Backup::BackupPlan')[1].Properties.BackupPlan.BackupPlanRule;
    expect(rule.CopyActions).toEqual([{ DestinationBackupVaultArn: vault, Lifecycle: { DeleteAfterDays: 7 } }]);
  });

  it('keeps the backups and their copies backupRetentionDays, and refuses what is not 1 to 3,650', () => {
    const vault = 'arn:aws:backup:us-west-2:123456789012:backup-vault:identity-copies';
    const { identityTemplate: t } = synth({ ...OWN, backupCopyVaultArn: vault, backupRetentionDays: 35 });
    const [rule] = only(t, 'AWS::Backup::BackupPlan')[1].Properties.BackupPlan.BackupPlanRule;
    expect(rule.Lifecycle).toEqual({ DeleteAfterDays: 35 });
    expect(rule.CopyActions).toEqual([{ DestinationBackupVaultArn: vault, Lifecycle: { DeleteAfterDays: 35 } }]);
    expect(() => synth({ ...OWN, backupRetentionDays: 0 })).toThrow(/"backupRetentionDays" must be a positive integer/);
    expect(() => synth({ ...OWN, backupRetentionDays: 3651 })).toThrow(/"backupRetentionDays" must be from 1 to 3650/);
  });

  it('makes no backup plan with backup "off", and refuses a copy without one', () => {
    synth({ ...OWN, backup: 'off' }).identityTemplate.resourceCountIs('AWS::Backup::BackupPlan', 0);
    expect(() => synth({ ...OWN, backup: 'off', backupCopyVaultArn: 'arn:aws:backup:us-west-2:1:x' })).toThrow();
  });

  it('uses a restored table by name (tableName), keeping its own out of the template', () => {
    const { identityTemplate: t } = synth({ ...OWN, tableName: 'identity-restored-2026-11-27' });
    t.resourceCountIs('AWS::DynamoDB::Table', 0);
    for (const fn of Object.values(resources(t, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables.TABLE_NAME).toBe('identity-restored-2026-11-27');
    }
    expect(JSON.stringify(only(t, 'AWS::Backup::BackupSelection')[1])).toContain('table/identity-restored-2026-11-27');
  });

  it('uses a key made elsewhere by its ARN (kmsKeyArn: a replica in a second Region), and makes none', () => {
    const replica = 'arn:aws:kms:us-west-2:123456789012:key/mrk-0123456789abcdef0123456789abcdef';
    const { identityTemplate: t } = synth({ ...OWN, kmsKeyArn: replica, tableName: 'identity-copy' });
    t.resourceCountIs('AWS::KMS::Key', 0);
    const signers = Object.values(resources(t, 'AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.Environment.Variables.KMS_KEY_ID !== undefined,
    );
    expect(signers.length).toBeGreaterThan(5);
    for (const fn of signers) expect(fn.Properties.Environment.Variables.KMS_KEY_ID).toBe(replica);
    expect(JSON.stringify(resources(t, 'AWS::IAM::Role'))).toContain(replica);
    expect(() => synth({ ...OWN, kmsKeyArn: replica, multiRegionKey: true })).toThrow(/cannot go with "kmsKeyArn"/);
    expect(() => synth({ ...OWN, kmsKeyArn: 'alias/nope' })).toThrow(/ARN of a KMS key/);
  });

  it('makes the secrets key a multi-Region primary key with multiRegionKey', () => {
    const multi = only(synth({ ...OWN, multiRegionKey: true }).identityTemplate, 'AWS::KMS::Key')[1];
    expect(multi.Properties.MultiRegion).toBe(true);
    expect(only(synth(OWN).identityTemplate, 'AWS::KMS::Key')[1].Properties.MultiRegion).toBeUndefined();
  });
});

describe('alarms that someone hears', () => {
  it('warns at synth when no alarmEmail subscribes anyone to the alarm topic', () => {
    const warnings = (context: Record<string, unknown>) =>
      Annotations.fromStack(synth(context).identity)
        .findWarning('*', Match.stringLikeRegexp('No alarmEmail'))
        .map((w) => w.entry.data);
    expect(warnings(OWN)).toHaveLength(1);
    expect(warnings({ ...OWN, alarmEmail: 'ops@plants.shop' })).toEqual([]);
  });
});

describe('an example deployment (`npm run synth`: -c example=true)', () => {
  it('refuses to deploy: every stack has a CloudFormation rule that never holds, saying why', () => {
    const example = synth({ ...cdkContext, waf: 'on' });
    for (const stack of [example.identity, example.plants, example.web, example.firewall as FirewallStack]) {
      const rules = (flatTemplate(stack).toJSON().Rules ?? {}) as Record<string, any>;
      const rule = rules.NotAnExampleDeployment;
      expect(rule?.Assertions[0].Assert).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'example'] });
      expect(rule?.Assertions[0].AssertDescription).toMatch(/-c example=true.*your own senderDomain/);
    }
  });

  it('has no such rule in a deployment of its own', () => {
    const own = synth(OWN);
    for (const stack of [own.identity, own.plants, own.web]) {
      expect(flatTemplate(stack).toJSON().Rules?.NotAnExampleDeployment).toBeUndefined();
    }
  });
});
