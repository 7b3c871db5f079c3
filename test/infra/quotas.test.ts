import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { identityRouteList } from '#functions/routes.ts';
import { addStacks } from '#infra/stacks.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { cdkContext } from './support/context.ts';

/**
 * CloudFormation's quotas, held for every template the app synthesises (nested ones included), as `cdk deploy`
 * uploads them. The quotas page: https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html
 * - Resources: 500 per template. Ours is 450, so that a template is split before a deployment fails.
 * - Dynamic references: 60 per template (`{{resolve:…}}`, Secrets Manager and SSM alike).
 * - Template body: 1 MB from an S3 object (CDK uploads every template to the bootstrap bucket).
 * - Outputs: 200 per template; parameters: 200 per template.
 * And Lambda's: https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html
 * - Environment variables: 4 KB per function, every key and value together.
 */
const QUOTAS = {
  resources: 450,
  dynamicReferences: 60,
  bytes: 1_000_000,
  outputs: 200,
  parameters: 200,
} as const;
type Quota = keyof typeof QUOTAS;
const FUNCTION_ENVIRONMENT_BYTES = 4 * 1024;
/** What the split (README, Deploying to AWS) leaves every template at, with today's routes. */
const SPLIT_TARGET_RESOURCES = 300;
/** How many more routes must still fit, in the fullest area, before another split is needed. */
const ROUTES_THAT_MUST_FIT = 60;

/**
 * A value CloudFormation resolves at deploy time (a Ref or GetAtt: an ARN, a name, a URL) counted at this length.
 * The longest ones the functions get are ARNs of about 100 characters (a Secrets Manager secret's, a KMS key's).
 */
const RESOLVED_VALUE_BOUND = 256;

const WEB_DIST = fileURLToPath(new URL('./fixtures/web-dist', import.meta.url));

type Template = {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  Outputs?: Record<string, unknown>;
  Parameters?: Record<string, unknown>;
};
type Measured = { file: string; text: string; template: Template } & Record<Quota, number>;

const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/** Every template of the app as `cdk synth` writes it (bundling skipped: templates only), with what the quotas count. */
function synthesise(identityRoutes?: readonly RouteDef[]): Measured[] {
  const outdir = mkdtempSync(join(tmpdir(), 'quotas-'));
  outdirs.push(outdir);
  // With the optional web ACL (waf: on), so that its stack and the Web stack's reader of its ARN are held too.
  const app = new App({ outdir, context: { ...cdkContext, waf: 'on', 'aws:cdk:bundling-stacks': [] } });
  addStacks(app, { webAssetsPath: WEB_DIST, ...(identityRoutes && { identityRoutes }) });
  const assembly = app.synth();
  return readdirSync(assembly.directory)
    .filter((file) => file.endsWith('.template.json'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(assembly.directory, file), 'utf8');
      const template = JSON.parse(text) as Template;
      return {
        file,
        text,
        template,
        resources: Object.keys(template.Resources ?? {}).length,
        dynamicReferences: text.match(/\{\{resolve:/g)?.length ?? 0,
        bytes: Buffer.byteLength(text),
        outputs: Object.keys(template.Outputs ?? {}).length,
        parameters: Object.keys(template.Parameters ?? {}).length,
      };
    });
}

/** The length of a value once resolved: strings as they are, intrinsics at RESOLVED_VALUE_BOUND, joins part by part. */
function resolvedLength(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join)
    return join[1].reduce<number>((sum, part) => sum + resolvedLength(part), 0) + join[0].length * (join[1].length - 1);
  return RESOLVED_VALUE_BOUND;
}

const today = synthesise();

describe('CloudFormation quotas, every template (nested ones included)', () => {
  it('synthesises the four stacks and the Identity stack’s nested ones', () => {
    const files = today.map((t) => t.file);
    expect(files).toEqual(
      expect.arrayContaining([
        'Firewall.template.json',
        'Identity.template.json',
        'Plants.template.json',
        'Web.template.json',
      ]),
    );
    expect(
      files.filter((file) => file.startsWith('Identity') && file.endsWith('.nested.template.json')).length,
    ).toBeGreaterThan(1);
  });

  it.each(today.map((t) => [t.file, t] as const))('%s is within every quota', (_, t) => {
    for (const quota of Object.keys(QUOTAS) as Quota[]) {
      expect(t[quota], `${quota} of ${t.file}`).toBeLessThanOrEqual(QUOTAS[quota]);
    }
  });

  it.each(today.map((t) => [t.file, t] as const))(`%s has fewer than ${SPLIT_TARGET_RESOURCES} resources`, (_, t) => {
    expect(t.resources).toBeGreaterThan(0);
    expect(t.resources).toBeLessThan(SPLIT_TARGET_RESOURCES);
  });

  it('gives every function an environment within Lambda’s 4 KB', () => {
    let functions = 0;
    for (const t of today) {
      for (const [id, resource] of Object.entries(t.template.Resources ?? {})) {
        if (resource.Type !== 'AWS::Lambda::Function') continue;
        functions++;
        const variables = (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)
          ?.Variables;
        const size = Object.entries(variables ?? {}).reduce(
          (sum, [key, value]) => sum + Buffer.byteLength(key) + resolvedLength(value),
          0,
        );
        expect(size, `${t.file} ${id}`).toBeLessThanOrEqual(FUNCTION_ENVIRONMENT_BYTES);
      }
    }
    expect(functions).toBeGreaterThanOrEqual(identityRouteList.length);
  });

  it('counts a dynamic reference wherever it is written (the check itself)', () => {
    // The Web stack's CloudFront origin header reads the edge secret by one.
    const web = today.find((t) => t.file === 'Web.template.json');
    expect(web?.dynamicReferences).toBe(1);
  });
});

/**
 * How many more routes fit before any template reaches a quota: the app synthesised again with extra routes in the
 * fullest area (a route's resources: its function, role and log group in its area's nested stack; its API route,
 * integration and invoke permission in the Identity stack; two alarms per ten functions in the monitoring stack),
 * and for each template and quota the room left divided by what one route costs there.
 */
describe('room to grow', () => {
  const EXTRA = 10;
  const byTag = new Map<string, number>();
  for (const route of identityRouteList) byTag.set(route.tag, (byTag.get(route.tag) ?? 0) + 1);
  const [fullestTag = ''] = [...byTag.entries()].sort((a, b) => b[1] - a[1]).map(([tag]) => tag);
  const extra: RouteDef[] = Array.from({ length: EXTRA }, (_, i) => ({
    operationId: `roomToGrow${i}`,
    method: 'POST',
    path: `/room-to-grow/${i}`,
    entry: 'test/infra/fixtures/noop-handler.ts',
    summary: 'a route that is not there yet',
    tag: fullestTag,
    tenant: 'headers',
    auth: 'admin',
    status: 200,
    table: ['GetItem', 'PutItem'],
    ses: true,
    kms: ['totp:encrypt'],
  }));
  const grown = synthesise([...identityRouteList, ...extra]);

  it(`leaves room for at least ${ROUTES_THAT_MUST_FIT} more routes in the fullest area`, () => {
    const rows: string[] = [];
    let fit = Number.POSITIVE_INFINITY;
    for (const before of today) {
      const after = grown.find((t) => t.file === before.file);
      if (!after) throw new Error(`${before.file} is gone with more routes`);
      for (const quota of Object.keys(QUOTAS) as Quota[]) {
        const perRoute = (after[quota] - before[quota]) / EXTRA;
        if (perRoute <= 0) continue;
        const room = Math.floor((QUOTAS[quota] - before[quota]) / perRoute);
        rows.push(`  ${before.file}: ${quota} ${before[quota]} of ${QUOTAS[quota]}, ${perRoute} a route: ${room} more`);
        fit = Math.min(fit, room);
      }
    }
    console.log(
      `Routes that still fit (${identityRouteList.length} today; new ones in the fullest area, "${fullestTag}", ${byTag.get(fullestTag)} routes): ${fit}\n${rows.join('\n')}`,
    );
    expect(fit).toBeGreaterThanOrEqual(ROUTES_THAT_MUST_FIT);
  });
});
