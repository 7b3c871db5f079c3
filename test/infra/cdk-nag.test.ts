import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { NAG_REASONS } from '#infra/nag.ts';
import { addStacks } from '#infra/stacks.ts';
import { testApp } from './support/synth.ts';

/**
 * cdk-nag's AwsSolutions and Serverless packs over the stacks and their nested stacks, wired as
 * infra/app.ts wires them: any error or
 * warning not acknowledged (infra/nag.ts, each on the construct it is about, with a reason) fails.
 * cdk-nag and the stacks share the one aws-cdk-lib in node_modules (its `instanceof CfnResource`
 * checks would find nothing otherwise): the last test proves the pack sees what it should.
 */

/** The built pages stand-in (web/dist is built by `npm run build:web`, not by the tests). */
const WEB_DIST = fileURLToPath(new URL('./fixtures/web-dist', import.meta.url));

function allStacks(context: Record<string, unknown> = {}): App {
  const app = testApp(context);
  addStacks(app, { webAssetsPath: WEB_DIST });
  return app;
}

/** The hosted pages' own domain and certificate (CloudFront's TLS policy is ours then). */
const WEB_DOMAIN_CONTEXT = {
  webDomain: 'id.example.com',
  webCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
};

/** `error AwsSolutions-IAM5[…] Identity/RoutesAuth/LoginRole/Resource`, one line per finding, of both packs. */
function findingsOf(scope: IConstruct): string[] {
  return [new AwsSolutionsChecks(), new ServerlessChecks()].flatMap((pack) =>
    pack
      .validateScope(scope)
      .violations.flatMap((v) => v.violatingResources.map((r) => `${v.severity} ${v.ruleName} ${r.constructPath}`)),
  );
}

/** Every acknowledgment in the tree: rule id → its reasons. */
function acknowledgments(scope: IConstruct): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const node of scope.node.findAll()) {
    for (const entry of node.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        const rule = id.replace(/^annotation::/i, '');
        found.set(rule, (found.get(rule) ?? new Set()).add(reason));
      }
    }
  }
  return found;
}

describe('cdk-nag (AwsSolutions and Serverless) on the Identity, Plants and Web stacks', () => {
  const app = allStacks();

  it('finds no error and no warning that is not acknowledged', () => {
    expect(findingsOf(app)).toEqual([]);
  });

  it('acknowledges only the listed findings, each with a written reason, on the construct it is about (never a stack)', () => {
    const reasons = new Set<string>(Object.values(NAG_REASONS));
    const found = acknowledgments(app);
    expect([...found.keys()].sort()).toEqual(
      [
        'AwsSolutions-APIG4',
        'AwsSolutions-CFR1',
        'AwsSolutions-CFR2',
        'AwsSolutions-CFR3',
        'AwsSolutions-CFR4',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        // The role AWS Backup assumes for the table's daily backup (infra/table.ts).
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
        'AwsSolutions-IAM5[Action::s3:Abort*]',
        'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
        'AwsSolutions-IAM5[Action::s3:GetBucket*]',
        'AwsSolutions-IAM5[Action::s3:GetObject*]',
        'AwsSolutions-IAM5[Action::s3:List*]',
        'AwsSolutions-IAM5[Resource::<Assets9A31D427.Arn>/*]',
        'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
        // X-Ray's two actions take no resource but `*`: on each function's role (active tracing).
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-L1',
        'AwsSolutions-S1',
        'AwsSolutions-SMG4',
        // The alarm topic (infra/monitoring.ts) and the SES events topic (infra/mail.ts): no KMS encryption.
        'AwsSolutions-SNS2',
        // The SES events function's dead-letter queue has none of its own (infra/mail.ts).
        'AwsSolutions-SQS3',
        'Serverless-SQSRedrivePolicy',
        // Serverless: synchronous invocations need no DLQ; the pinned runtime; X-Ray's `*`; the deploy-time provider.
        'Serverless-LambdaDLQ',
        // The webhook deliveries queue's mapping: SQS's redrive policy is its failure destination (infra/webhooks.ts).
        'Serverless-LambdaEventSourceMappingDestination',
        'Serverless-LambdaLatestVersion',
        'Serverless-LambdaStarPermissions',
        'Serverless-LambdaTracing',
      ].sort(),
    );
    for (const set of found.values()) for (const reason of set) expect(reasons).toContain(reason);
    for (const stack of app.node.children.filter((c): c is Stack => c instanceof Stack)) {
      expect(stack.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)).toEqual([]);
    }
  });

  it('lists every acknowledged rule and reason in a README table (Security; Hosted pages on AWS)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const all = [...acknowledgments(app), ...acknowledgments(allStacks({ waf: 'on', ...WEB_DOMAIN_CONTEXT }))];
    for (const [finding, set] of all) {
      // One row per rule: `AwsSolutions-IAM5[Action::s3:List*]` is in the row of AwsSolutions-IAM5.
      const rule = finding.replace(/\[.*\]$/, '');
      const rows = readme.split('\n').filter((line) => line.trimStart().startsWith(`| \`${rule}\``));
      expect(rows, `README row for ${rule}`).not.toEqual([]);
      for (const reason of set) {
        expect(
          rows.some((row) => row.includes(reason.split(':')[0] ?? reason)),
          `${rule}: ${reason}`,
        ).toBe(true);
      }
    }
  });

  it('needs no TLS acknowledgment (CFR4) when the pages have their own domain and certificate', () => {
    const withDomain = allStacks(WEB_DOMAIN_CONTEXT);
    expect(findingsOf(withDomain)).toEqual([]);
    expect([...acknowledgments(withDomain).keys()]).not.toContain('AwsSolutions-CFR4');
  });

  it('finds nothing unacknowledged while the account is in the SES sandbox (any recipient identity, sesSandbox)', () => {
    const sandbox = allStacks({ sesSandbox: true });
    expect(findingsOf(sandbox)).toEqual([]);
    expect([
      ...(acknowledgments(sandbox).get(
        'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      ) ?? []),
    ]).toEqual([NAG_REASONS.sesSandboxRecipients]);
  });

  it('finds nothing unacknowledged with the web ACL (waf: on), and then needs no CFR2 (no WAF) acknowledgment', () => {
    const guarded = allStacks({ waf: 'on', ...WEB_DOMAIN_CONTEXT });
    expect(findingsOf(guarded)).toEqual([]);
    const found = acknowledgments(guarded);
    expect([...found.keys()]).not.toContain('AwsSolutions-CFR2');
    // aws-cdk-lib's function that reads the ACL's ARN at deploy time: acknowledged on it, with its reason.
    expect([...(found.get('Serverless-LambdaDefaultMemorySize') ?? [])]).toEqual([NAG_REASONS.webAclReader]);
  });

  it('needs no X-Ray acknowledgment (IAM5 on `*`) with tracing off, and still finds nothing', () => {
    const untraced = allStacks({ tracing: 'off' });
    expect(findingsOf(untraced)).toEqual([]);
    // Only the webhook dispatcher's dynamodb:ListStreams is left on `*`: no X-Ray reason.
    expect([...(acknowledgments(untraced).get('AwsSolutions-IAM5[Resource::*]') ?? [])]).toEqual([
      NAG_REASONS.listStreams,
    ]);
    expect([...(acknowledgments(untraced).get('Serverless-LambdaTracing') ?? [])]).toContain(NAG_REASONS.tracingOff);
  });

  it('passes synth with the pack registered as a validation plugin', () => {
    const synthApp = allStacks();
    Validations.of(synthApp).addPlugins(new AwsSolutionsChecks(), new ServerlessChecks());
    expect(() => synthApp.synth()).not.toThrow();
  });

  it('fails synth on a finding nobody acknowledged (the pack sees the resources)', () => {
    const bad = new App();
    new Queue(new Stack(bad, 'Bad'), 'Queue');
    expect(findingsOf(bad)).toContain('error AwsSolutions-SQS4 Bad/Queue/Resource');
    Validations.of(bad).addPlugins(new AwsSolutionsChecks());
    expect(() => bad.synth()).toThrow(/AwsSolutions-SQS4/);
  });
});
