import type { Context } from 'aws-lambda';
import type { ServiceDeps } from './request-state.ts';

/**
 * A Lambda context that brings the deps to run with. The local gateway runs the functions of its stack in one process
 * (local/gateway.ts), and the tests run several stacks in one (a module graph per worker, not per file): each stack
 * builds its deps once from its own settings and hands them to its functions with each invocation. Lambda's context
 * brings none: a function builds its deps from its environment once per cold start (deps.ts processDeps).
 */
export interface ContextWithDeps extends Context {
  deps?: ServiceDeps;
}

/** The invocation's deps: those its context brings, else the function's own. */
export function invocationDeps<D extends ServiceDeps>(context: object | undefined, own: () => D): D {
  return ((context as Pick<ContextWithDeps, 'deps'> | undefined)?.deps as D | undefined) ?? own();
}
