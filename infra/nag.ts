import { DefaultStackSynthesizer, type Stack, Validations } from 'aws-cdk-lib';
import type { HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { IGrantable, Role } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsCustomResource } from 'aws-cdk-lib/custom-resources';
import type { IConstruct } from 'constructs';
import type { RouteDef } from '#shared/http/route.ts';

/**
 * The cdk-nag findings we accept (the AwsSolutions and Serverless packs), each acknowledged on the one construct it is
 * about (a route, a function), never on a stack, with its reason. README (Security) lists
 * them; test/infra/cdk-nag.test.ts fails on any finding not acknowledged here, and on an
 * acknowledgment without a README row.
 */
export const NAG_REASONS = {
  /** APIG4 on a route anyone may call: public by design. */
  publicRoute:
    'Public by design (docs/http.md#tenant-headers): no caller identity to check at the gateway; the handler checks the tenant headers, Origin and rate limits.',
  /** APIG4 on a bearer or admin route: the handler authorizes. */
  handlerAuthorizes:
    "Authorization runs in the handler by design (README): a JWT authorizer pins aud to a fixed list, but a token's aud is its tenant's app, and it could not see a revoked session, current role grants or API keys.",
  /** Serverless-LambdaDLQ on every function. */
  synchronousInvocations:
    "Invoked synchronously only (API Gateway waits for the answer, and so does the caller): a dead-letter queue receives failed asynchronous invocations, which no route has; a failure is the request's 5xx answer, logged and counted (README, Operations).",
  /** Serverless-LambdaTracing on every function, with the context `tracing: off`. */
  tracingOff:
    "Active tracing turned off by the deployment (context tracing: off): its traces show each invocation's init and duration only, and its cost is the deployment's choice; the request metrics and summary lines stay (README, Operations).",
  /** L1 on every function. */
  pinnedRuntime:
    'nodejs22.x is pinned on purpose: bundles target node22, and all but the routes a user waits on at sign-in (which carry their own) use the AWS SDK v3 that runtime ships (bench/RESULTS.md measured it); a runtime upgrade is a change of its own, not a side effect of a CDK upgrade (NODEJS_LATEST).',
  /** IAM5 (`Resource::*`) on every function's role, with active tracing. */
  xrayResource:
    'X-Ray has no resource-level permissions: xray:PutTraceSegments and xray:PutTelemetryRecords, the two actions active tracing needs, take no resource but *; no other statement of the role has a wildcard.',
  /** SNS2 on the alarm topic (infra/monitoring.ts). */
  alarmTopicEncryption:
    "No KMS encryption of the alarm topic: its notifications carry no secret or personal data (alarm, metric, threshold, state), CloudWatch cannot publish to a topic under SNS's AWS managed key, and a customer managed key for this alone would cost a key a month and a key policy for CloudWatch.",
  /** SMG4 on the edge secret (infra/identity-stack.ts). */
  edgeSecretRotation:
    'No rotation of the edge secret: CloudFront reads it by a dynamic reference, resolved at deploy time only, so a rotated value would not reach it; rotating is a redeploy of the Web stack, and the secret only lets its holder name its own client IP and host, and (with the web ACL) call the API around it.',
  /** SNS2 on the SES events topic (infra/mail.ts). */
  sesEventsTopicEncryption:
    "No KMS encryption of the SES events topic: SES cannot publish to a topic under SNS's AWS managed key, and the events (a bounce or complaint, with the recipient's address) stay in SNS only until they are delivered to one function, over TLS (SNS3); a customer managed key for this alone would cost a key a month and a key policy for SES.",
  /** SQS3 on the SES events function's dead-letter queue (infra/mail.ts). */
  webhookDeadLetters:
    "A dead-letter queue itself (the webhook deliveries queue's, or the stream dispatcher's on-failure destination), watched by an alarm; a queue behind it would only hold what nobody reads from this one. Its functions take events from a stream and a queue, whose failures go there: they have no asynchronous invocations for a DLQ of their own.",
  deadLetterQueue:
    "It is a dead-letter queue itself: the SES events function's (Lambda's DLQ, which cdk-nag does not recognise as one); a queue behind it would only hold what nobody reads from this one.",
  /** IAM4 on the AWS Backup selection's role (infra/table.ts). */
  backupServiceRole:
    "AWS Backup's own service-role policy (AWSBackupServiceRolePolicyForBackup), as AWS documents it for a backup selection: AWS Backup assumes the role, not our code, and the selection names this table alone.",
  /** IAM5 on the sending functions' roles with the context sesSandbox. */
  sesSandboxRecipients:
    "In the SES sandbox (context sesSandbox) SES checks the sender's permission on each recipient's identity too, and the recipients are whichever addresses the deployment verified to test with: any identity of the account, until production access, when the context goes and the grant names the sender alone.",
  /** CFR1 on the distribution. */
  noGeoRestriction:
    "No geo restriction by default: a tenant's users may be anywhere, and which countries to refuse is each deployment's choice.",
  /** CFR2 on the distribution. */
  noWaf:
    'No WAF web ACL by default (about $8 a month, and $0.60 a million requests): the API stage throttles every route and the handlers rate-limit per tenant and client IP; the context waf: on adds one (infra/firewall-stack.ts).',
  /** CFR3 on the distribution, S1 on its bucket. */
  noStaticAccessLogs:
    "No access logs of the static pages: public build files, no user data, read by CloudFront alone (origin access control); every API request through the distribution is in the API's own access log.",
  /** CFR4 on the distribution when no webDomain is set. */
  defaultCertificate:
    'Default certificate only (no webDomain context): *.cloudfront.net takes no TLS policy, CloudFront sets it; with webDomain the distribution has its own certificate and TLSv1.2_2021.',
  /** IAM4 and the Serverless findings on the function of AwsCustomResource (aws-cdk-lib's) that reads the web ACL's ARN. */
  webAclReader:
    "aws-cdk-lib's AwsCustomResource function as CDK defines it: a deploy-time function (CloudFormation calls it, no viewer does) whose one permission besides its logs is ssm:GetParameter on the web ACL's parameter in us-east-1; its role, memory and settings come with aws-cdk-lib and change with it.",
  /** IAM4, IAM5 and L1 on the provider function of BucketDeployment (aws-cdk-lib's). */
  bucketDeploymentProvider:
    "aws-cdk-lib's BucketDeployment provider as CDK defines it: a deploy-time function (CloudFormation calls it, no viewer does) that copies the build from the CDK asset bucket into the pages bucket; its role, policy and runtime come with aws-cdk-lib and change with it.",
} as const;

/** The findings of one route's constructs that we accept (NAG_REASONS). */
export function acknowledgeRouteFindings({
  route,
  fn,
  role,
  apiRoutes,
  tracing,
}: {
  route: RouteDef;
  fn: NodejsFunction;
  role: Role;
  apiRoutes: readonly HttpRoute[];
  /** Active tracing: the role's X-Ray statement has the resource `*`. */
  tracing: boolean;
}): void {
  for (const apiRoute of apiRoutes) {
    Validations.of(apiRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: route.auth === 'none' ? NAG_REASONS.publicRoute : NAG_REASONS.handlerAuthorizes,
    });
  }
  Validations.of(fn).acknowledge(
    { id: 'AwsSolutions-L1', reason: NAG_REASONS.pinnedRuntime },
    { id: 'Serverless-LambdaLatestVersion', reason: NAG_REASONS.pinnedRuntime },
    { id: 'Serverless-LambdaDLQ', reason: NAG_REASONS.synchronousInvocations },
  );
  if (!tracing) Validations.of(fn).acknowledge({ id: 'Serverless-LambdaTracing', reason: NAG_REASONS.tracingOff });
  // This one finding only (`Resource::*`): a wildcard action, or another statement on `*`, is still a finding.
  if (tracing)
    Validations.of(role).acknowledge(
      { id: 'AwsSolutions-IAM5[Resource::*]', reason: NAG_REASONS.xrayResource },
      { id: 'Serverless-LambdaStarPermissions', reason: NAG_REASONS.xrayResource },
    );
}

/** The SES events topic (SNS2), its function's dead-letter queue (SQS3) and the function's pinned runtime and X-Ray. */
export function acknowledgeMailFindings({
  topic,
  deadLetters,
  fn,
  tracing,
}: {
  topic: Topic;
  deadLetters: Queue;
  fn: NodejsFunction;
  tracing: boolean;
}): void {
  Validations.of(topic).acknowledge({ id: 'AwsSolutions-SNS2', reason: NAG_REASONS.sesEventsTopicEncryption });
  Validations.of(deadLetters).acknowledge(
    { id: 'AwsSolutions-SQS3', reason: NAG_REASONS.deadLetterQueue },
    { id: 'Serverless-SQSRedrivePolicy', reason: NAG_REASONS.deadLetterQueue },
  );
  Validations.of(fn).acknowledge(
    { id: 'AwsSolutions-L1', reason: NAG_REASONS.pinnedRuntime },
    { id: 'Serverless-LambdaLatestVersion', reason: NAG_REASONS.pinnedRuntime },
  );
  if (!tracing) Validations.of(fn).acknowledge({ id: 'Serverless-LambdaTracing', reason: NAG_REASONS.tracingOff });
  if (tracing && fn.role)
    Validations.of(fn.role).acknowledge(
      { id: 'AwsSolutions-IAM5[Resource::*]', reason: NAG_REASONS.xrayResource },
      { id: 'Serverless-LambdaStarPermissions', reason: NAG_REASONS.xrayResource },
    );
}

/** IAM5 on a sending function's role while the account is in the SES sandbox (NAG_REASONS.sesSandboxRecipients). */
export function acknowledgeSandboxSendingFindings(role: Role): void {
  Validations.of(role).acknowledge(
    {
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      reason: NAG_REASONS.sesSandboxRecipients,
    },
    { id: 'Serverless-LambdaStarPermissions', reason: NAG_REASONS.sesSandboxRecipients },
  );
}

/** The webhooks' dead-letter queues and functions (infra/webhooks.ts). */
export function acknowledgeWebhookFindings({
  deadLetters,
  functions,
  tracing,
}: {
  deadLetters: Queue[];
  functions: NodejsFunction[];
  tracing: boolean;
}): void {
  for (const queue of deadLetters) {
    Validations.of(queue).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: NAG_REASONS.webhookDeadLetters },
      { id: 'Serverless-SQSRedrivePolicy', reason: NAG_REASONS.webhookDeadLetters },
    );
  }
  for (const fn of functions) {
    Validations.of(fn).acknowledge(
      { id: 'AwsSolutions-L1', reason: NAG_REASONS.pinnedRuntime },
      { id: 'Serverless-LambdaLatestVersion', reason: NAG_REASONS.pinnedRuntime },
      // An event source's failures go to the dead-letter queues above (the stream's on-failure destination, the
      // deliveries queue's redrive), not to an asynchronous-invocation destination this function never uses.
      { id: 'Serverless-LambdaDLQ', reason: NAG_REASONS.webhookDeadLetters },
    );
    if (!tracing) Validations.of(fn).acknowledge({ id: 'Serverless-LambdaTracing', reason: NAG_REASONS.tracingOff });
    if (tracing && fn.role)
      Validations.of(fn.role).acknowledge(
        { id: 'AwsSolutions-IAM5[Resource::*]', reason: NAG_REASONS.xrayResource },
        { id: 'Serverless-LambdaStarPermissions', reason: NAG_REASONS.xrayResource },
      );
  }
}

/** IAM4 on the role AWS Backup assumes for the table's backups (NAG_REASONS.backupServiceRole). */
export function acknowledgeBackupRoleFindings(principal: IGrantable['grantPrincipal']): void {
  Validations.of(principal as unknown as IConstruct).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
    reason: NAG_REASONS.backupServiceRole,
  });
}

/** SNS2 on the alarm topic (NAG_REASONS.alarmTopicEncryption). */
export function acknowledgeAlarmTopicFindings(topic: Topic): void {
  Validations.of(topic).acknowledge({ id: 'AwsSolutions-SNS2', reason: NAG_REASONS.alarmTopicEncryption });
}

/** SMG4 on the edge secret (NAG_REASONS.edgeSecretRotation). */
export function acknowledgeEdgeSecretFindings(secret: Secret): void {
  Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: NAG_REASONS.edgeSecretRotation });
}

/** The findings of the Web stack we accept: on its distribution, its bucket and BucketDeployment's provider. */
export function acknowledgeWebFindings(
  stack: Stack,
  {
    distribution,
    bucket,
    customDomain,
    webAcl,
  }: { distribution: Distribution; bucket: Bucket; customDomain: boolean; webAcl: boolean },
): void {
  const acknowledge = (scope: Validations, ids: readonly string[], reason: string) =>
    scope.acknowledge(...ids.map((id) => ({ id: `AwsSolutions-${id}`, reason })));
  const scopeAcknowledge = (scope: Validations, ids: readonly string[], reason: string) =>
    scope.acknowledge(...ids.map((id) => ({ id: `Serverless-${id}`, reason })));
  const onDistribution = Validations.of(distribution);
  acknowledge(onDistribution, ['CFR1'], NAG_REASONS.noGeoRestriction);
  if (!webAcl) acknowledge(onDistribution, ['CFR2'], NAG_REASONS.noWaf);
  acknowledge(onDistribution, ['CFR3'], NAG_REASONS.noStaticAccessLogs);
  if (!customDomain) acknowledge(onDistribution, ['CFR4'], NAG_REASONS.defaultCertificate);
  acknowledge(Validations.of(bucket), ['S1'], NAG_REASONS.noStaticAccessLogs);
  // The provider is a singleton function of the stack, named by CDK (`Custom::CDKBucketDeployment<uuid>`). Its IAM
  // findings are acknowledged one by one, so that a grant CDK adds one day is a new finding.
  const providers = stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (providers.length === 0) throw new Error('No BucketDeployment provider found: acknowledge its findings anew');
  const bucketId = stack.getLogicalId(bucket.node.defaultChild as CfnBucket);
  const cdkAssets = `cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-<AWS::AccountId>-<AWS::Region>`;
  const serverless = ['LambdaDLQ', 'LambdaLatestVersion', 'LambdaStarPermissions', 'LambdaTracing'];
  for (const provider of providers) {
    scopeAcknowledge(Validations.of(provider), serverless, NAG_REASONS.bucketDeploymentProvider);
  }
  const findings = [
    'L1',
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    ...['GetObject*', 'GetBucket*', 'List*', 'DeleteObject*', 'Abort*'].map((a) => `IAM5[Action::s3:${a}]`),
    `IAM5[Resource::arn:<AWS::Partition>:s3:::${cdkAssets}/*]`,
    `IAM5[Resource::<${bucketId}.Arn>/*]`,
  ];
  for (const provider of providers) {
    acknowledge(Validations.of(provider), findings, NAG_REASONS.bucketDeploymentProvider);
  }
}

/**
 * The findings of aws-cdk-lib's AwsCustomResource function, which reads the web ACL's ARN in us-east-1 at deploy time
 * (infra/web-stack.ts): a singleton of the stack, named by CDK after its uuid.
 */
export function acknowledgeWebAclReaderFindings(stack: Stack): void {
  const id = `AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replaceAll('-', '')}`;
  const provider = stack.node.tryFindChild(id);
  if (!provider) throw new Error(`No AwsCustomResource provider ${id} found: acknowledge its findings anew`);
  const onProvider = Validations.of(provider);
  onProvider.acknowledge(
    ...['LambdaDLQ', 'LambdaDefaultMemorySize', 'LambdaTracing'].map((rule) => ({
      id: `Serverless-${rule}`,
      reason: NAG_REASONS.webAclReader,
    })),
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: NAG_REASONS.webAclReader,
    },
  );
}
