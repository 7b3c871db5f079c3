import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { GenericSchema, InferOutput } from 'valibot';
import type { Authenticators, Principal } from '../auth/principal.ts';
import { type Deps, processDeps } from '../deps.ts';
import { describeError, jsonLogger } from '../log.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Merchant } from '../tenancy/types.ts';
import { type AppError, fail, isAppError } from './errors.ts';
import { authenticate } from './middleware/auth.ts';
import { checkBodySize } from './middleware/body-limit.ts';
import { checkOrigin, corsHeaders } from './middleware/cors.ts';
import { parseJsonBody } from './middleware/json-body.ts';
import { resolveTenant } from './middleware/tenant.ts';
import { validateInput } from './middleware/validate.ts';
import { PROBLEM_CONTENT_TYPE, problemOf } from './problem.ts';
import { Reply } from './reply.ts';
import { type HttpEvent, type HttpRequest, type HttpResult, header, type RequestState } from './request-state.ts';
import type { RouteDef } from './route.ts';

type Parsed<S> = S extends GenericSchema ? InferOutput<S> : undefined;

/** What a route's implementation receives: validated input and what the stages established. */
export interface HandlerInput<R extends RouteDef> {
  body: Parsed<R['body']>;
  query: Parsed<R['query']>;
  params: Parsed<R['params']>;
  tenant: R['tenant'] extends 'none' ? undefined : Merchant;
  auth: R['auth'] extends 'none' ? undefined : Principal;
  request: { requestId: string; sourceIp: string; userAgent: string; origin: string | undefined };
}

type Output<R extends RouteDef> = R['response'] extends GenericSchema ? InferOutput<R['response']> | Reply : unknown;

export type RouteImpl<R extends RouteDef> = (input: HandlerInput<R>, deps: Deps) => Promise<Output<R>> | Output<R>;

/** Headers on every answer: nothing here is cacheable, and nothing is to be sniffed as another type. */
const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** SDK errors that mean DynamoDB or SES is overloaded or down: 503, so clients retry. */
const UNAVAILABLE_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TooManyRequestsException',
]);

function isUnavailable(error: unknown): boolean {
  return error instanceof Error && UNAVAILABLE_ERRORS.has(error.name);
}

function respond(request: HttpRequest, status: number, body: unknown, headers: Record<string, string> = {}) {
  const contentType: Record<string, string> =
    body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' };
  request.response = {
    statusCode: status,
    headers: { ...BASE_HEADERS, ...corsHeaders(request), ...contentType, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/**
 * Turns any error into RFC 9457 problem+json. Our AppErrors show their code;
 * anything else is a bare 500 INTERNAL (or 503 UNAVAILABLE for an overloaded
 * dependency), and only the log, keyed by request id, says what happened.
 */
function onError(request: HttpRequest): void {
  const error = request.error;
  let shown: AppError;
  if (isAppError(error)) {
    shown = error;
  } else {
    const state = request.internal.state;
    // The deps may be what failed (a bad environment): the plain logger needs nothing.
    (state?.deps.log ?? jsonLogger).error('request failed', {
      requestId: state?.requestId ?? request.context.awsRequestId,
      operationId: state?.route.operationId,
      ...describeError(error),
    });
    shown = isUnavailable(error) ? fail('UNAVAILABLE', { headers: { 'retry-after': '1' } }) : fail('INTERNAL');
  }
  const problem = problemOf(shown);
  respond(request, shown.status, problem, { ...shown.headers, 'content-type': PROBLEM_CONTENT_TYPE });
}

export interface HttpHandlerOptions {
  /** Overrides the process deps (tests). */
  deps?: () => Deps;
  /** The credential checks; required for bearer and admin routes. */
  authenticators?: Authenticators;
  /** The mailer's factory; required for routes flagged `ses`. */
  mailer?: (deps: Deps) => Mailer;
}

/**
 * The one way to build a Lambda handler for a route. Stages, in order: body
 * size (413), content type (415), JSON (400 MALFORMED_JSON), tenant (400
 * TENANT_REQUIRED, 404 TENANT_NOT_FOUND), Origin (403 ORIGIN_NOT_ALLOWED),
 * authentication (401/403), validation (400 VALIDATION_FAILED), then `impl`,
 * whose result is sent with the route's status.
 */
export function httpHandler<R extends RouteDef>(route: R, impl: RouteImpl<R>, options: HttpHandlerOptions = {}) {
  const getDeps = options.deps ?? processDeps;
  if (route.auth !== 'none' && !options.authenticators) {
    throw new Error(`${route.operationId} is a ${route.auth} route: pass authenticators to httpHandler`);
  }
  if (route.ses && !options.mailer) throw new Error(`${route.operationId} sends mail: pass the mailer to httpHandler`);
  // Built once per function (cold start), on the first request.
  let withMailer: Deps | undefined;
  const depsOf = (): Deps => {
    const base = getDeps();
    if (!options.mailer) return base;
    if (withMailer?.store !== base.store) withMailer = { ...base, mailer: options.mailer(base) };
    return withMailer;
  };
  const stages: ((request: HttpRequest) => void | Promise<void>)[] = [
    checkBodySize,
    parseJsonBody,
    resolveTenant,
    checkOrigin,
    authenticate,
    validateInput,
  ];

  // middy hands the base handler only (event, context): the stages' state reaches it keyed by its event.
  const states = new WeakMap<HttpEvent, RequestState>();

  const run = async (event: HttpEvent): Promise<HttpResult> => {
    const state = states.get(event);
    if (!state) throw new Error('request state missing');
    const http = event.requestContext?.http;
    const result = await impl(
      {
        body: state.body,
        query: state.query,
        params: state.params,
        tenant: state.tenant,
        auth: state.principal,
        request: {
          requestId: state.requestId,
          sourceIp: http?.sourceIp ?? '',
          userAgent: http?.userAgent ?? '',
          origin: state.origin,
        },
      } as HandlerInput<R>,
      state.deps,
    );
    return result as HttpResult;
  };

  return middy<HttpEvent, HttpResult, Error, Context>()
    .use({
      before: async (request) => {
        const req = request as HttpRequest;
        const deps = depsOf();
        req.internal.state = {
          route,
          deps,
          authenticators: options.authenticators,
          requestId: request.event.requestContext?.requestId ?? request.context.awsRequestId,
          origin: header(request.event, 'origin'),
          json: undefined,
          tenant: undefined,
          principal: undefined,
          body: undefined,
          query: undefined,
          params: undefined,
        };
        states.set(request.event, req.internal.state);
        for (const stage of stages) await stage(req);
      },
      after: (request) => {
        const req = request as HttpRequest;
        const result: unknown = request.response;
        if (result instanceof Reply) {
          respond(req, route.status, route.status === 204 ? undefined : result.body, result.headers);
        } else {
          respond(req, route.status, route.status === 204 ? undefined : result);
        }
      },
      onError: (request) => onError(request as HttpRequest),
    })
    .handler(run);
}
