import { CfnOutput, CrossStackReferences, Duration, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
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
import type { Construct } from 'constructs';
import { EDGE_SECRET_HEADER, VIEWER_IP_HEADER } from '#shared/http/client-ip.ts';
import { CACHE_CONTROL, WEB_SECURITY_HEADERS } from '../web/security-headers.ts';
import { readIdentityConfig } from './config.ts';
import { hostedPagesOrigin } from './identity-stack.ts';
import { acknowledgeWebFindings } from './nag.ts';

/** The API's path pattern on the distribution: the identity routes all start with /api/v1. */
export const API_PATH_PATTERN = '/api/*';

/**
 * Viewer-request function of `/api/*`: the viewer's address in VIEWER_IP_HEADER, over anything the viewer sent
 * in it. With the edge secret CloudFront adds, the API takes it as the client's (shared/http/client-ip.ts).
 */
export const VIEWER_IP_CODE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_IP_HEADER}'] = { value: event.viewer.ip };
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
  /** The identity HTTP API (the Identity stack's), served under /api/* on the pages' own origin. */
  api: IHttpApi;
  /** The Identity stack's edge secret: sent to the API as EDGE_SECRET_HEADER (infra/identity-stack.ts says why). */
  edgeSecret: ISecret;
}

/**
 * The hosted pages: the built web app in a private bucket behind CloudFront (origin access control), every
 * tenant at `https://<subdomain>.<webDomain>/`, with the identity API under `/api/*` of the same distribution
 * (the pages call it same-origin). Its own stack: the Identity stack is close to our 450-resource rule.
 */
export class WebStack extends Stack {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    // Strong references (Export / Fn::ImportValue): the API and the secret cannot go while the pages use them.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const config = readIdentityConfig(this.node);

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

    const viewerIp = new EdgeFunction(this, 'ViewerIp', {
      comment: 'Sends the viewer address to the identity API',
      code: FunctionCode.fromInline(VIEWER_IP_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });

    const stack = Stack.of(this);
    const apiOrigin = new HttpOrigin(`${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // A CloudFormation dynamic reference: the value is in no template. CloudFront replaces a viewer's own header.
      customHeaders: { [EDGE_SECRET_HEADER]: props.edgeSecret.secretValue.unsafeUnwrap() },
    });

    const web = config.web;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Identity service: hosted pages and the identity API',
      defaultRootObject: 'index.html',
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
          // Every viewer header (the tenant headers, Origin, the bearer, the viewer's address set above); API
          // Gateway needs its own Host.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy,
          functionAssociations: [{ function: viewerIp, eventType: FunctionEventType.VIEWER_REQUEST }],
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

    acknowledgeWebFindings(this, { distribution: this.distribution, bucket: this.bucket, customDomain: !!web });

    new CfnOutput(this, 'DistributionDomainName', {
      value: this.distribution.distributionDomainName,
      description: web
        ? `The CNAME target of *.${web.domain}`
        : 'The distribution; hosted pages need the webDomain and webCertificateArn context (README)',
    });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'HostedPagesUrl', {
      value: web ? `${hostedPagesOrigin(web.domain)}/` : 'none: set the webDomain and webCertificateArn context',
      description: "A tenant's hosted pages, {subdomain} standing for its subdomain",
    });
  }
}
