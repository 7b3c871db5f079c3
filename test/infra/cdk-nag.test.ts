import { readFileSync } from 'node:fs';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { BASE_PATH } from '#functions/routes.ts';
import { IdentityStack } from '#infra/identity-stack.ts';
import { NAG_REASONS } from '#infra/nag.ts';
import { PlantsStack } from '#infra/plants-stack.ts';

/**
 * cdk-nag's AwsSolutions pack over both stacks, wired as infra/app.ts wires them: any error or
 * warning not acknowledged (infra/nag.ts, each on the construct it is about, with a reason) fails.
 * cdk-nag and the stacks share the one aws-cdk-lib in node_modules (its `instanceof CfnResource`
 * checks would find nothing otherwise): the last test proves the pack sees what it should.
 */

const cdkContext: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'),
).context;

function bothStacks(): App {
  // An empty bundling-stacks list skips esbuild: the rules read the templates only.
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
  const identity = new IdentityStack(app, 'Identity');
  new PlantsStack(app, 'Plants', {
    identityBaseUrl: `${identity.api.apiEndpoint}${BASE_PATH}`,
    identityTable: identity.table,
  });
  return app;
}

/** `error AwsSolutions-IAM5[…] Identity/LoginRole/Resource`, one line per finding. */
function findingsOf(scope: IConstruct): string[] {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.severity} ${v.ruleName} ${r.constructPath}`),
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

describe('cdk-nag AwsSolutions on the Identity and Plants stacks', () => {
  const app = bothStacks();

  it('finds no error and no warning that is not acknowledged', () => {
    expect(findingsOf(app)).toEqual([]);
  });

  it('acknowledges only the listed findings, each with a written reason, on the construct it is about (never a stack)', () => {
    const reasons = new Set<string>(Object.values(NAG_REASONS));
    const found = acknowledgments(app);
    expect([...found.keys()].sort()).toEqual(['AwsSolutions-APIG4', 'AwsSolutions-L1']);
    for (const set of found.values()) for (const reason of set) expect(reasons).toContain(reason);
    for (const stack of app.node.children.filter((c): c is Stack => c instanceof Stack)) {
      expect(stack.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)).toEqual([]);
    }
  });

  it("lists every acknowledged rule and reason in README's security section", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const [rule, set] of acknowledgments(app)) {
      const row = readme.split('\n').find((line) => line.trimStart().startsWith(`| \`${rule}\``));
      expect(row, `README row for ${rule}`).toBeDefined();
      for (const reason of set) expect(row).toContain(reason.split(':')[0]);
    }
  });

  it('passes synth with the pack registered as a validation plugin', () => {
    const synthApp = bothStacks();
    Validations.of(synthApp).addPlugins(new AwsSolutionsChecks());
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
