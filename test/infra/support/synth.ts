import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { IdentityStack } from '#infra/identity-stack.ts';
import { cdkContext } from './context.ts';
import { flatTemplate } from './flat-template.ts';

/** An app with cdk.json's context and `context`; an empty bundling-stacks list skips esbuild (templates only). */
export function testApp(context: Record<string, unknown> = {}): App {
  return new App({ context: { ...cdkContext, ...context, 'aws:cdk:bundling-stacks': [] } });
}

const identityTemplates = new Map<string, Template>();

/**
 * The Identity stack's flat template (support/flat-template.ts) with `context`, synthesised once per context in a
 * worker: the infra files share a module graph (vitest.config.ts), and several read the same templates. The tests
 * only read a template; one that fails to synthesise is not kept, so that each caller sees the error.
 */
export function identityTemplate(context: Record<string, unknown> = {}): Template {
  const key = JSON.stringify(context);
  let template = identityTemplates.get(key);
  if (!template) {
    template = flatTemplate(new IdentityStack(testApp(context), 'Identity'));
    identityTemplates.set(key, template);
  }
  return template;
}
