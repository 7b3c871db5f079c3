import { type CfnResource, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

type Json = unknown;
type TemplateJson = {
  Resources?: Record<string, { Type: string; Properties?: Record<string, Json> }>;
  Parameters?: Record<string, Json>;
  Outputs?: Record<string, { Value: Json }>;
  [section: string]: Json;
};

/** The nested stacks of a stack, at any depth. */
export function nestedStacksOf(stack: Stack): NestedStack[] {
  return stack.node.findAll().filter((c): c is NestedStack => c !== stack && NestedStack.isNestedStack(c));
}

/**
 * A stack and its nested stacks as one template, as if nothing were nested: every resource of every template, a
 * nested template's parameters replaced by what the parent passes, and a parent's `Fn::GetAtt [<nested>,
 * Outputs.X]` replaced by that output's value. The tests of what a deployment does (IAM, environment, wiring) read
 * it; the tests of CloudFormation's quotas read each template as it is (test/infra/quotas.test.ts).
 */
export function flatTemplate(stack: Stack): Template {
  const root = Template.fromStack(stack).toJSON() as TemplateJson;
  const nested = new Map<string, { template: TemplateJson; parameters: Record<string, Json> }>();
  for (const child of nestedStacksOf(stack)) {
    const resource = child.nestedStackResource as CfnResource;
    const parent = Stack.of(resource);
    const id = parent.getLogicalId(resource);
    const parentTemplate = parent === stack ? root : (Template.fromStack(parent).toJSON() as TemplateJson);
    const parameters = (parentTemplate.Resources?.[id]?.Properties?.Parameters ?? {}) as Record<string, Json>;
    nested.set(id, { template: Template.fromStack(child).toJSON() as TemplateJson, parameters });
  }

  // A value as the root sees it: nested outputs followed into their templates, nested parameters into their values.
  const inRoot = (value: Json): Json => rewrite(value, (node) => nestedOutput(node));
  const nestedOutput = (node: Record<string, Json>): Json | undefined => {
    const getAtt = node['Fn::GetAtt'];
    if (!Array.isArray(getAtt) || typeof getAtt[1] !== 'string' || !getAtt[1].startsWith('Outputs.')) return undefined;
    const stackOf = nested.get(getAtt[0] as string);
    const output = stackOf?.template.Outputs?.[getAtt[1].slice('Outputs.'.length)];
    if (!stackOf || !output) throw new Error(`No nested output ${JSON.stringify(getAtt)}`);
    return inNested(stackOf.parameters, output.Value);
  };
  const inNested = (parameters: Record<string, Json>, value: Json): Json =>
    rewrite(value, (node) => {
      const ref = node.Ref;
      if (typeof ref === 'string' && ref in parameters) return inRoot(parameters[ref]);
      return nestedOutput(node);
    });

  const resources: Record<string, Json> = {};
  for (const [id, resource] of Object.entries(root.Resources ?? {})) {
    if (nested.has(id)) continue;
    resources[id] = inRoot(resource);
  }
  for (const { template, parameters } of nested.values()) {
    for (const [id, resource] of Object.entries(template.Resources ?? {})) {
      if (nested.has(id)) continue;
      if (id in resources) throw new Error(`Logical id ${id} is in two templates`);
      resources[id] = inNested(parameters, resource);
    }
  }
  return Template.fromJSON({
    ...root,
    Resources: resources,
    Outputs: inRoot(root.Outputs ?? {}) as Record<string, Json>,
  });
}

/** `value` with every object node that `replace` answers replaced (depth first, the answer not visited again). */
function rewrite(value: Json, replace: (node: Record<string, Json>) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const node = value as Record<string, Json>;
  const replaced = replace(node);
  if (replaced !== undefined) return replaced;
  return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, rewrite(item, replace)]));
}
