import { CfnOutput, CrossStackReferences, Duration, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  type ResponseCustomHeader,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { BASE_PATH } from '#functions/routes.ts';
import { EDGE_SECRET_HEADER, VIEWER_IP_HEADER } from '#shared/http/client-ip.ts';
import { VIEWER_HOST_HEADER, WELL_KNOWN_ROUTES } from '#shared/http/viewer-origin.ts';
import { CACHE_CONTROL, WEB_SECURITY_HEADERS } from '../web/security-headers.ts';
import { readIdentityConfig } from './config.ts';
import { refuseToDeployExample } from './example.ts';
import { FIREWALL_REGION, type FirewallStack } from './firewall-stack.ts';
import { hostedPagesOrigin } from './identity-stack.ts';
import { acknowledgeWebAclReaderFindings, acknowledgeWebFindings } from './nag.ts';

/** The API's path pattern on the distribution: the identity routes all start with /api/v1. */
export const API_PATH_PATTERN = '/api/*';

/**
 * The issuer's discovery paths, `/.well-known/*` of a tenant's host: sent to the API like `/api/*`. Every tenant is
 * its own OpenID Provider whose issuer is its hosted origin, `https://<subdomain>.<webDomain>` (shared/oidc/README.md:
 * the sign-in pages and the browser's session cookie live there), and a client finds the provider's metadata at
 * `<issuer>/.well-known/openid-configuration` (OIDC Discovery 1.0) or `/.well-known/oauth-authorization-server`
 * (RFC 8414), so those two must answer at the root of the pages' origin.
 */
export const WELL_KNOWN_PATH_PATTERN = '/.well-known/*';

/** Each well-known path of a tenant's host and the API path the edge sends it to (WELL_KNOWN_ROUTES, under the base path). */
export const WELL_KNOWN_REWRITES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(WELL_KNOWN_ROUTES).map(([path, route]) => [path, `${BASE_PATH}${route}`]),
);

/**
 * Viewer-request function of `/api/*` and `/.well-known/*` (one function for both, the uri telling them apart:
 * CloudFront Functions are an account-wide quota, and one copy cannot drift from another):
 *
 * - the viewer's address in VIEWER_IP_HEADER and the host it asked for in VIEWER_HOST_HEADER, each over anything the
 *   viewer sent in it (the latter removed when the viewer sent no Host). With the edge secret CloudFront adds, the
 *   API takes the first as the client's address (shared/http/client-ip.ts) and the second as the tenant's OIDC
 *   issuer (shared/http/viewer-origin.ts): API Gateway sees its own Host, not the tenant's, since the origin request
 *   policy must leave Host out;
 * - on `/.well-known/*`, the paths of WELL_KNOWN_REWRITES go to their API route (the query string is kept: CloudFront
 *   holds it apart from the uri), and any other well-known path is answered 404 here, never reaching the API.
 */
export const API_VIEWER_REQUEST_CODE = `function handler(event) {
  var request = event.request;
  if (request.uri.indexOf('/.well-known/') === 0) {
    var rewrites = ${JSON.stringify(WELL_KNOWN_REWRITES)};
    if (!Object.prototype.hasOwnProperty.call(rewrites, request.uri)) {
      return { statusCode: 404, statusDescription: 'Not Found' };
    }
    request.uri = rewrites[request.uri];
  }
  request.headers['${VIEWER_IP_HEADER}'] = { value: event.viewer.ip };
  var host = request.headers.host;
  if (host) request.headers['${VIEWER_HOST_HEADER}'] = { value: host.value };
  else delete request.headers['${VIEWER_HOST_HEADER}'];
  return request;
}`;

/** The folder Vite writes hashed build files to (web/dist/assets/…): they never change. */
const HASHED_ASSETS = 'assets/*';

/**
 * Viewer-request function of the pages (CloudFront Functions, JS 2.0 runtime): the app is a single-page app, so
 * any path whose last segment has no `.` (`/sign-in`, `/console/users/u1`) is served `/index.html`; files
 * (`/assets/index-abc.js`, `/favicon.svg`) pass unchanged.
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.slice(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/**
 * The response headers policy's settings from WEB_SECURITY_HEADERS (web/security-headers.ts), the headers the
 * local server sends too: the ones CloudFront has a security setting for go there (it refuses them as custom
 * headers), every other one is a custom header. A value CloudFront cannot express fails synth.
 */
export function responseHeadersFrom(headers: Readonly<Record<string, string>>): {
  securityHeadersBehavior: ResponseSecurityHeadersBehavior;
  customHeaders: ResponseCustomHeader[];
} {
  const security: { -readonly [K in keyof ResponseSecurityHeadersBehavior]: ResponseSecurityHeadersBehavior[K] } = {};
  const customHeaders: ResponseCustomHeader[] = [];
  for (const [name, value] of Object.entries(headers)) {
    switch (name.toLowerCase()) {
      case 'content-security-policy':
        security.contentSecurityPolicy = { contentSecurityPolicy: value, override: true };
        break;
      case 'strict-transport-security': {
        const match = /^max-age=(\d+)((?:; *(?:includeSubDomains|preload))*)$/i.exec(value);
        if (!match?.[1]) throw new Error(`Cannot express ${name}: ${value}`);
        const flags = (match[2] ?? '').toLowerCase();
        security.strictTransportSecurity = {
          accessControlMaxAge: Duration.seconds(Number(match[1])),
          includeSubdomains: flags.includes('includesubdomains'),
          preload: flags.includes('preload'),
          override: true,
        };
        break;
      }
      case 'referrer-policy': {
        const referrerPolicy = Object.values(HeadersReferrerPolicy).find((p) => p === value);
        if (!referrerPolicy) throw new Error(`Cannot express ${name}: ${value}`);
        security.referrerPolicy = { referrerPolicy, override: true };
        break;
      }
      case 'x-frame-options': {
        const frameOption = Object.values(HeadersFrameOption).find((o) => o === value.toUpperCase());
        if (!frameOption) throw new Error(`Cannot express ${name}: ${value}`);
        security.frameOptions = { frameOption, override: true };
        break;
      }
      case 'x-content-type-options':
        // CloudFront sends this header with its one value, nosniff.
        if (value !== 'nosniff') throw new Error(`Cannot express ${name}: ${value}`);
        security.contentTypeOptions = { override: true };
        break;
      default:
        customHeaders.push({ header: name, value, override: true });
    }
  }
  return { securityHeadersBehavior: security, customHeaders };
}

export interface WebStackProps extends StackProps {
  /** The built pages (web/dist, from `npm run build:web`): index.html and the hashed files under assets/. */
  assetsPath: string;
  /**
   * Where the identity API answers (the Identity stack's apiHost: its custom domain, or its execute-api host),
   * served under /api/* on the pages' own origin.
   */
  apiHost: string;
  /** The Identity stack's edge secret: sent to the API as EDGE_SECRET_HEADER (infra/identity-stack.ts says why). */
  edgeSecret: ISecret;
  /** The stack of the distribution's web ACL (context waf), deployed first: its ARN is read from its parameter. */
  firewall?: FirewallStack;
}

/**
 * The hosted pages: the built web app in a private bucket behind CloudFront (origin access control), every
 * tenant at `https://<subdomain>.<webDomain>/`, with the identity API under `/api/*` of the same distribution
 * (the pages call it same-origin). That origin is also the tenant's OpenID Provider issuer (shared/oidc/README.md),
 * so its `/.well-known/*` discovery paths go to the API too, and the API learns which tenant's issuer a request
 * names from the viewer's host this distribution sends it. Its own stack: the Identity stack is close to our
 * 450-resource rule.
 */
export class WebStack extends Stack {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    // Strong references (Export / Fn::ImportValue): the API and the secret cannot go while the pages use them.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const config = readIdentityConfig(this.node);
    if (config.example) refuseToDeployExample(this);

    this.bucket = new Bucket(this, 'Assets', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: config.removalPolicy,
    });

    const { securityHeadersBehavior, customHeaders } = responseHeadersFrom(WEB_SECURITY_HEADERS);
    const responseHeadersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Hosted pages: the headers of web/security-headers.ts',
      securityHeadersBehavior,
      customHeadersBehavior: { customHeaders },
    });

    const spaRewrite = new EdgeFunction(this, 'SpaRewrite', {
      comment: 'Serves /index.html for every path without a file extension',
      code: FunctionCode.fromInline(SPA_REWRITE_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });

    const apiViewerRequest = new EdgeFunction(this, 'ApiViewerRequest', {
      comment: 'Sends the viewer address and host to the identity API; routes the issuer discovery paths',
      code: FunctionCode.fromInline(API_VIEWER_REQUEST_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });

    const apiOrigin = new HttpOrigin(props.apiHost, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // A CloudFormation dynamic reference: the value is in no template. CloudFront replaces a viewer's own header.
      customHeaders: { [EDGE_SECRET_HEADER]: props.edgeSecret.secretValue.unsafeUnwrap() },
    });

    // The web ACL is made in us-east-1 (infra/firewall-stack.ts), and CloudFormation has no reference across Regions:
    // its ARN is read from the parameter that stack writes there, when this resource is created or its name changes.
    const webAclId = props.firewall && this.readWebAclArn(props.firewall);

    const web = config.web;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Identity service: hosted pages and the identity API',
      defaultRootObject: 'index.html',
      ...(webAclId && { webAclId }),
      ...(web && {
        domainNames: [`*.${web.domain}`],
        certificate: Certificate.fromCertificateArn(this, 'Certificate', web.certificateArn),
        minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        [API_PATH_PATTERN]: {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Every viewer header (the tenant headers, Origin, the bearer, the viewer's address and host set above);
          // API Gateway needs its own Host.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy,
          functionAssociations: [{ function: apiViewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
        // The issuer's discovery document at the issuer's root (WELL_KNOWN_PATH_PATTERN says why), rewritten by the
        // same function to the API's route; read-only, so GET, HEAD and OPTIONS (CORS preflight) only.
        [WELL_KNOWN_PATH_PATTERN]: {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy,
          functionAssociations: [{ function: apiViewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
      },
    });

    // Hashed files first and never pruned: a page loaded before a deploy still finds the files it names.
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [Source.asset(props.assetsPath)],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: [HASHED_ASSETS],
      prune: false,
      cacheControl: [CacheControl.fromString(CACHE_CONTROL.asset)],
    });
    // Then the rest (index.html): revalidated on every load, so a deploy is seen at once.
    const pages = new BucketDeployment(this, 'DeployPages', {
      sources: [Source.asset(props.assetsPath)],
      destinationBucket: this.bucket,
      exclude: [HASHED_ASSETS],
      cacheControl: [CacheControl.fromString(CACHE_CONTROL.html)],
    });
    pages.node.addDependency(assets);

    acknowledgeWebFindings(this, {
      distribution: this.distribution,
      bucket: this.bucket,
      customDomain: !!web,
      webAcl: !!webAclId,
    });

    new CfnOutput(this, 'DistributionDomainName', {
      value: this.distribution.distributionDomainName,
      description: web
        ? `The CNAME target of *.${web.domain}`
        : 'The distribution; hosted pages need the webDomain and webCertificateArn context (README)',
    });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'IdentityUrl', {
      value: web
        ? `${hostedPagesOrigin(web.domain)}${BASE_PATH}`
        : `https://${this.distribution.distributionDomainName}${BASE_PATH}`,
      description: webAclId
        ? "The identity base URL: with the web ACL, the API answers here only ({subdomain}: a tenant's)"
        : "The identity API through the distribution ({subdomain}: a tenant's)",
    });
    new CfnOutput(this, 'HostedPagesUrl', {
      value: web ? `${hostedPagesOrigin(web.domain)}/` : 'none: set the webDomain and webCertificateArn context',
      description: "A tenant's hosted pages, {subdomain} standing for its subdomain",
    });
  }

  /** The web ACL's ARN, read from its parameter in us-east-1 at deploy time (an SSM GetParameter, nothing else). */
  private readWebAclArn(firewall: FirewallStack): string {
    this.addStackDependency(firewall, 'reads the ARN of the web ACL it makes');
    const read = new AwsCustomResource(this, 'WebAclArn', {
      onUpdate: {
        service: 'SSM',
        action: 'GetParameter',
        parameters: { Name: firewall.aclArnParameterName },
        region: FIREWALL_REGION,
        physicalResourceId: PhysicalResourceId.of(firewall.aclArnParameterName),
      },
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [firewall.aclArnParameterArn] }),
      installLatestAwsSdk: false,
    });
    acknowledgeWebAclReaderFindings(this);
    return read.getResponseField('Parameter.Value');
  }
}
