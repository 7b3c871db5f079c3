import * as v from 'valibot';
import { type FieldError, fail } from '../../errors.ts';
import type { HttpRequest } from '../request-state.ts';

function fieldErrors(issues: readonly v.BaseIssue<unknown>[], whole: string): FieldError[] {
  return issues.map((issue) => {
    const path = issue.path?.map((item) => String(item.key)).join('.') || whole;
    // An unknown key shows as "expected never": say what it means.
    const message = issue.kind === 'schema' && issue.expected === 'never' ? 'is not a known field' : issue.message;
    return { path, message };
  });
}

/**
 * valibot validation of body, query and path parameters against the route's
 * schemas. Every bad field is named (400 VALIDATION_FAILED), none stops at the first.
 */
export function validateInput(request: HttpRequest): void {
  const state = request.internal.state;
  const { route } = state;
  const errors: FieldError[] = [];
  const check = (schema: v.GenericSchema | undefined, input: unknown, whole: string) => {
    if (!schema) return undefined;
    const result = v.safeParse(schema, input);
    if (result.success) return result.output;
    errors.push(...fieldErrors(result.issues, whole));
    return undefined;
  };
  // valibot takes an array for an object; a body must be a JSON object, and nothing else gets near the schema.
  const isObject = typeof state.json === 'object' && state.json !== null && !Array.isArray(state.json);
  if (route.body && !isObject) {
    errors.push({ path: 'body', message: state.json === undefined ? 'is required' : 'must be a JSON object' });
  } else {
    state.body = check(route.body, state.json, 'body');
  }
  state.query = check(route.query, request.event.queryStringParameters ?? {}, 'query');
  state.params = check(route.params, request.event.pathParameters ?? {}, 'path');
  if (errors.length > 0) {
    throw fail('VALIDATION_FAILED', {
      detail: errors.map((e) => `${e.path}: ${e.message}`).join('; '),
      errors,
    });
  }
}
