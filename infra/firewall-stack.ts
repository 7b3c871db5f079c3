import { Aws, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { fail } from '#shared/errors.ts';
import { APP_ID_HEADER } from '#shared/http/middleware/tenant.ts';
import { problemOf } from '#shared/http/problem.ts';
import { readIdentityConfig } from './config.ts';
import { refuseToDeployExample } from './example.ts';

/** CloudFront takes a web ACL made in us-east-1 only (scope CLOUDFRONT), wherever the other stacks deploy. */
export const FIREWALL_REGION = 'us-east-1';

/** The rate-based rules count over one minute (WAF's shortest window: a flood is stopped soonest). */
export const FIREWALL_WINDOW_SECONDS = 60;

/** What a request over a limit gets: the API's own 429 problem, so the pages and the client read it the same way. */
const FIREWALL_RATE_LIMITED = problemOf(fail('RATE_LIMITED', 'Too many requests: try again after Retry-After.'));

/** The web ACL's rules, by name: one client address, and one tenant named two ways. */
export const FIREWALL_RULES = {
  perClientAddress: 'PerClientAddress',
  perTenantAppId: 'PerTenantAppId',
  perTenantHost: 'PerTenantHost',
} as const;

/**
 * The web ACL (AWS WAF) of the hosted pages' distribution, made when the context `waf` is `on`. HTTP APIs take no web
 * ACL, so the ACL goes on CloudFront, in front of the pages and of the API under `/api/*` and `/.well-known/*`, and
 * the identity functions then refuse every request that did not come through CloudFront (EDGE_ONLY,
 * shared/http/client-ip.ts): the API's own domain cannot be used to go around it.
 *
 * Three rate-based rules, each blocking with the API's own 429 problem and a Retry-After:
 * - per client address, on every request;
 * - per tenant named by its `x-app-id` header, on the API;
 * - per tenant named by its host (`<subdomain>.<webDomain>`, its issuer), on the API and the discovery paths:
 *   a client of the OpenID Provider sends no `x-app-id`.
 * So one tenant's flood is counted against that tenant, and cannot use up a limit another tenant's users share.
 *
 * Its own stack, always in us-east-1, named `Firewall`: one ACL per account, whatever Region the deployment is in.
 * It writes the ACL's ARN to an SSM parameter of that Region, which the Web stack reads (infra/web-stack.ts):
 * CloudFormation has no reference across Regions.
 */
export class FirewallStack extends Stack {
  readonly webAcl: CfnWebACL;
  /** The SSM parameter (in us-east-1) that holds the ACL's ARN. */
  readonly aclArnParameterName: string;

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, { ...props, env: { region: FIREWALL_REGION } });
    const config = readIdentityConfig(this.node);
    if (config.example) refuseToDeployExample(this);
    const limits = config.waf;
    if (!limits) throw new Error('The Firewall stack is made with the context waf: on only');

    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const block: CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: 'rateLimited',
          // No CORS header: CORS answers echo only a tenant's allowed origins, which a fixed answer cannot know. An
          // app on another origin sees the block as a failed request; the pages, same-origin, read the problem.
          responseHeaders: [{ name: 'retry-after', value: String(FIREWALL_WINDOW_SECONDS) }],
        },
      },
    };
    const pathStartsWith = (prefix: string): CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'STARTS_WITH',
        searchString: prefix,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });
    const rateRule = (
      name: string,
      priority: number,
      limit: number,
      key: Pick<CfnWebACL.RateBasedStatementProperty, 'aggregateKeyType' | 'customKeys'>,
      scopeDown?: CfnWebACL.StatementProperty,
    ): CfnWebACL.RuleProperty => ({
      name,
      priority,
      action: block,
      statement: {
        rateBasedStatement: {
          limit,
          evaluationWindowSec: FIREWALL_WINDOW_SECONDS,
          ...key,
          ...(scopeDown && { scopeDownStatement: scopeDown }),
        },
      },
      visibilityConfig: visibility(name),
    });
    const headerKey = (name: string, transform: 'NONE' | 'LOWERCASE') => ({
      aggregateKeyType: 'CUSTOM_KEYS',
      customKeys: [{ header: { name, textTransformations: [{ priority: 0, type: transform }] } }],
    });

    const rules: CfnWebACL.RuleProperty[] = [
      // The viewer's own address: CloudFront hands WAF the connection's, which no header can change.
      rateRule(FIREWALL_RULES.perClientAddress, 0, limits.ipRequestsPerMinute, { aggregateKeyType: 'IP' }),
      // A request without the header is not counted here (WAF counts a request only when it has every key).
      rateRule(
        FIREWALL_RULES.perTenantAppId,
        1,
        limits.tenantRequestsPerMinute,
        headerKey(APP_ID_HEADER, 'NONE'),
        pathStartsWith('/api/'),
      ),
    ];
    // A tenant's host ends in `.<webDomain>` (its issuer); without webDomain no tenant has a host of its own.
    const webDomain = config.web?.domain;
    if (webDomain) {
      rules.push(
        rateRule(FIREWALL_RULES.perTenantHost, 2, limits.tenantRequestsPerMinute, headerKey('host', 'LOWERCASE'), {
          andStatement: {
            statements: [
              {
                byteMatchStatement: {
                  fieldToMatch: { singleHeader: { Name: 'host' } },
                  positionalConstraint: 'ENDS_WITH',
                  searchString: `.${webDomain}`,
                  textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
                },
              },
              { orStatement: { statements: [pathStartsWith('/api/'), pathStartsWith('/.well-known/')] } },
            ],
          },
        }),
      );
    }

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${this.stackName}-hosted-pages`,
      description:
        'Identity service: rate limits per client address and per tenant, in front of the hosted pages and the API',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      customResponseBodies: {
        rateLimited: { contentType: 'APPLICATION_JSON', content: JSON.stringify(FIREWALL_RATE_LIMITED) },
      },
      rules,
      visibilityConfig: visibility(`${this.stackName}-hosted-pages`),
    });

    this.aclArnParameterName = `/${this.stackName}/web-acl-arn`;
    new StringParameter(this, 'WebAclArnParameter', {
      parameterName: this.aclArnParameterName,
      stringValue: this.webAcl.attrArn,
      description: 'The web ACL of the hosted pages distribution (read by the Web stack, in its own Region)',
    });

    new CfnOutput(this, 'WebAclArn', {
      value: this.webAcl.attrArn,
      description: 'The hosted pages web ACL: its metrics (AWS/WAFV2, one per rule) are in us-east-1',
    });
  }

  /** The ARN of the parameter, for the Web stack's read. */
  get aclArnParameterArn(): string {
    return `arn:${Aws.PARTITION}:ssm:${FIREWALL_REGION}:${Aws.ACCOUNT_ID}:parameter${this.aclArnParameterName}`;
  }
}
