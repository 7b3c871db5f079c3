import middy, { type MiddyfiedHandler } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { GenericSchema, InferOutput } from 'valibot';
import type { Authenticators, Principal, UserPrincipal } from '../auth/principal.ts';
import { vaultLimitedTo } from '../crypto/key-vault.ts';
import { type Deps, depsWithStore, processDeps, processRequestLog } from '../deps.ts';
import { type AppError, type ErrorCode, fail, isAppError } from '../errors.ts';
import { chooseLanguage, tenantDefaultLanguage } from '../i18n/languages.ts';
import { describeError, jsonLogger, withFields } from '../log.ts';
import type { Mailer } from '../mail/message.ts';
import { type Counter, IDENTITY_METRICS_NAMESPACE, outcomeOf, takeDirectReadFallbacks } from '../metrics.ts';
import type { StoreClient } from '../store/client.ts';
import { isThrottled } from '../store/errors.ts';
import type { TenantRef } from '../store/keys.ts';
import { type ItemKey, withPrefetch } from '../store/prefetch.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { TokenPrincipal, TokenVerifier } from '../tokens/resource-server.ts';
import { clientIp, type EdgeSecretConfig, edgeTrust, refuseUnlessFromEdge } from './client-ip.ts';
import { invocationDeps } from './invocation-deps.ts';
import { authenticate } from './middleware/auth.ts';
import { checkBodySize } from './middleware/body-limit.ts';
import { checkOrigin, corsHeaders } from './middleware/cors.ts';
import { parseJsonBody } from './middleware/json-body.ts';
import { resolveTenant } from './middleware/tenant.ts';
import { validateInput } from './middleware/validate.ts';
import { PROBLEM_CONTENT_TYPE, problemOf } from './problem.ts';
import { Reply } from './reply.ts';
import { requestSignals, writeRequestLines } from './request-metrics.ts';
import {
  type ClientInfo,
  type HttpEvent,
  type HttpRequest,
  type HttpResult,
  header,
  type IssuerTenant,
  type RequestState,
  type ServiceDeps,
} from './request-state.ts';
import type { RouteDef } from './route.ts';

/** The identity's deps, told apart from another service's (the plant store's) by the service they name. */
function isIdentity(deps: ServiceDeps): deps is Deps {
  return 'service' in deps && deps.service === 'identity';
}

/** Where the identity's functions find the edge secret (shared/http/client-ip.ts); another service's deps have none. */
const NO_EDGE: EdgeSecretConfig = { edgeSecret: undefined, edgeSecretArn: undefined, edgeOnly: false };
const edgeConfigOf = (deps: ServiceDeps): EdgeSecretConfig => (isIdentity(deps) ? deps.config : NO_EDGE);

type Parsed<S> = S extends GenericSchema ? InferOutput<S> : undefined;

/** What a route's implementation receives: validated input and what the stages established. */
export interface HandlerInput<R extends RouteDef> {
  body: Parsed<R['body']>;
  query: Parsed<R['query']>;
  params: Parsed<R['params']>;
  /** The merchant; for a `token` route, the tenant named by the token's `app`/`mid`. */
  tenant: R['tenant'] extends 'none' ? undefined : R['tenant'] extends 'token' ? TenantRef : Merchant;
  /**
   * The caller: a user on `bearer` routes (the auth stage takes API keys on admin routes only), a
   * user or an API key on `admin` routes; for a `token` route, the access token's claims.
   */
  auth: R['auth'] extends 'none'
    ? undefined
    : R['tenant'] extends 'token'
      ? TokenPrincipal
      : R['auth'] extends 'bearer'
        ? UserPrincipal
        : Principal;
  /** The caller's IP and User-Agent, as API Gateway saw them, and the language it reads. */
  client: ClientInfo;
  request: {
    requestId: string;
    origin: string | undefined;
    /**
     * The body as sent (UTF-8 text), for the rare check that needs the JSON
     * source rather than its parsed value: JSON.parse rounds numbers silently.
     */
    rawBody: string | undefined;
    /** The query string as sent (OAuth refuses a parameter sent twice, which the parsed query hides). */
    rawQuery: string;
    /** A request header (OAuth's client authentication and userinfo read `Authorization`). */
    header(name: string): string | undefined;
  };
}

type Output<R extends RouteDef> = R['response'] extends GenericSchema
  ? // A route with two outcomes may return nothing: it answers 204 (RouteDef.alsoNoContent).
    InferOutput<R['response']> | Reply | (R['alsoNoContent'] extends true ? undefined : never)
  : unknown;

export type RouteImpl<R extends RouteDef, D extends ServiceDeps = Deps> = (
  input: HandlerInput<R>,
  deps: D,
) => Promise<Output<R>> | Output<R>;

/** An error answer: its media type and body. */
export interface ErrorAnswer {
  contentType: string;
  body: unknown;
}

/** RFC 9457 problem details (docs/http.md#errors): how the identity service answers errors, and the default. */
export function problemAnswer(error: AppError): ErrorAnswer {
  return { contentType: PROBLEM_CONTENT_TYPE, body: problemOf(error) };
}

/** Headers on every answer: nothing here is cacheable, and nothing is to be sniffed as another type. */
const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function respond(
  request: HttpRequest<ServiceDeps>,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const contentType: Record<string, string> =
    body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' };
  request.response = {
    statusCode: status,
    // CORS reads only the tenant and Origin the stages found, never the deps.
    headers: { ...BASE_HEADERS, ...corsHeaders(request as HttpRequest), ...contentType, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/**
 * Turns any error into the service's error answer (RFC 9457 problem+json
 * unless the service documents another body). Our AppErrors show their code;
 * anything else is a bare 500 INTERNAL (or 503 UNAVAILABLE for an overloaded
 * dependency), and only the log, keyed by request id, says what happened.
 */
function onError(request: HttpRequest<ServiceDeps>, errorAnswer: (error: AppError) => ErrorAnswer): ErrorCode {
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
    shown = isThrottled(error) ? fail('UNAVAILABLE', { headers: { 'retry-after': '1' } }) : fail('INTERNAL');
  }
  const { contentType, body } = errorAnswer(shown);
  respond(request, shown.status, body, { ...retryAfterOf(shown), ...shown.headers, 'content-type': contentType });
  return shown.code;
}

/**
 * What the operator sees of every request: one line in the function's log that is also its metrics
 * (shared/http/request-metrics.ts), with the request id, route, tenant, outcome and the user it concerned. Explicit
 * fields only (shared/log.ts): never a body, a header, a token or an e-mail address. The README's Operations
 * section has a Logs Insights query on these fields.
 */
function reportRequest(
  request: HttpRequest<ServiceDeps>,
  route: RouteDef,
  metricsNamespace: string,
  code: ErrorCode | undefined,
): void {
  const state = request.internal.state;
  const status = request.response?.statusCode ?? 500;
  // Two counters every route can cause, known from the answer alone.
  const counters: Counter[] = [...(state?.signals.counters ?? [])];
  if (status === 429) counters.push('RateLimited');
  if (code === 'REAUTHENTICATION_REQUIRED') counters.push('ReauthRequired');
  for (let fallbacks = takeDirectReadFallbacks(); fallbacks > 0; fallbacks--) counters.push('DirectReadFallback');
  const tenant = state?.token ?? state?.tenant;
  const principal = state?.principal;
  // The deps may be what failed (a bad environment): its 500 still counts where the alarms read it.
  writeRequestLines(state?.deps.requestLog ?? processRequestLog(), metricsNamespace, {
    requestId: state?.requestId ?? request.context.awsRequestId,
    route: route.operationId,
    status,
    outcome: outcomeOf(status),
    code,
    latencyMs: state ? Math.round((performance.now() - state.startedAt) * 10) / 10 : 0,
    app: tenant?.app,
    mid: tenant?.mid,
    userId: state?.signals.userId ?? (principal?.kind === 'user' ? principal.userId : state?.token?.sub),
    apiKeyId: principal?.kind === 'apiKey' ? principal.keyId : undefined,
    ip: state?.ip,
    counters,
    mailsFailed: state?.signals.mailsFailed ?? [],
    timestamp: Date.now(),
  });
}

/** Seconds to wait, for a 429 or 503 whose thrower named none: every such answer says when to retry. */
const DEFAULT_RETRY_AFTER: Partial<Record<number, string>> = { 429: '60', 503: '1' };

function retryAfterOf(error: AppError): Record<string, string> {
  const seconds = DEFAULT_RETRY_AFTER[error.status];
  const named = Object.keys(error.headers ?? {}).some((name) => name.toLowerCase() === 'retry-after');
  return seconds === undefined || named ? {} : { 'retry-after': seconds };
}

export interface HttpHandlerOptions<D extends ServiceDeps = Deps> {
  /**
   * The deps a function builds from its environment (once per cold start): the identity service's process deps
   * unless given (tests; a service with deps of its own). An invocation whose context brings deps runs with those
   * (ContextWithDeps).
   */
  deps?: () => D;
  /**
   * What the route makes of the deps: the routes a user waits on read directly (deps.ts withDirectReadsDeps, passed
   * by their handlers so that no other bundle carries it).
   */
  depsForRoute?: (deps: Deps) => Deps;
  /** The credential checks; required for bearer and admin routes (except `tenant: 'token'` ones). */
  authenticators?: Authenticators;
  /** The bearer check of a resource server, with the invocation's deps; required for `tenant: 'token'` routes. */
  verifyToken?: (token: string, deps: D) => ReturnType<TokenVerifier>;
  /** The mailer's factory; required for routes flagged `ses`. */
  mailer?: (deps: Deps) => Mailer;
  /** The error answer: RFC 9457 problem+json unless a service documents another body (the plant store, OAuth's). */
  errorBody?: (error: AppError) => ErrorAnswer;
  /** How a `tenant: 'issuer'` route finds its tenant (shared/oidc/issuer.ts); required for those routes. */
  issuer?: IssuerTenant;
  /** A last step on a success answer (GET /users gzips a large one: shared/http/gzip-answer.ts). */
  encodeAnswer?: (event: HttpEvent, answer: HttpResult) => HttpResult;
  /** The CloudWatch namespace of the route's metrics (shared/metrics.ts): the identity service's unless given. */
  metricsNamespace?: string;
}

type Handler = MiddyfiedHandler<HttpEvent, HttpResult, Error, Context>;

/** A route of a service with deps of its own: no tenant headers, no identity credential checks, no mail. */
type ServiceRoute = RouteDef & { tenant: 'none' | 'token' };
/** httpHandler's options for a service with deps of its own (the plant store): its deps are required. */
export type ServiceHandlerOptions<D extends ServiceDeps> = Omit<
  HttpHandlerOptions<D>,
  'authenticators' | 'mailer' | 'deps' | 'depsForRoute'
> & { deps: () => D };

/**
 * The one way to build a Lambda handler for a route. Stages, in order: body
 * size (413), content type (415), JSON (400 MALFORMED_JSON), tenant (400
 * TENANT_REQUIRED, 404 TENANT_NOT_FOUND), Origin (403 ORIGIN_NOT_ALLOWED),
 * authentication (401/403), validation (400 VALIDATION_FAILED), then `impl`,
 * whose result is sent with the route's status. Errors are answered as
 * `errorBody` says (problem+json by default).
 */
export function httpHandler<R extends RouteDef>(
  route: R,
  impl: RouteImpl<R>,
  options?: HttpHandlerOptions & {
    /**
     * Keys the route reads first, prefetched in the tenant's BatchGetItem (a
     * round trip fewer): keys from the valid body and the tenant (and the process's store, for
     * what its caches lack). Each answers the request's first read of its key (store/prefetch.ts
     * getItem); nothing else changes.
     */
    prefetch?: (body: Parsed<R['body']>, tenant: TenantRef, store: StoreClient) => ItemKey[];
  },
): Handler;
/** A service with deps of its own (the plant store): its routes take no tenant headers and no identity credentials. */
export function httpHandler<R extends ServiceRoute, D extends ServiceDeps>(
  route: R,
  impl: RouteImpl<R, D>,
  options: ServiceHandlerOptions<D>,
): Handler;
export function httpHandler(
  route: RouteDef,
  impl: (input: never, deps: never) => unknown,
  options: Omit<HttpHandlerOptions<ServiceDeps>, 'verifyToken'> & {
    // A method: each signature's verifyToken takes its own service's deps, which this one hands it.
    verifyToken?(token: string, deps: ServiceDeps): ReturnType<TokenVerifier>;
    prefetch?: (body: never, tenant: TenantRef, store: StoreClient) => ItemKey[];
  } = {},
): Handler {
  // Only the first signature leaves out `deps`, and its deps are the identity's.
  const getDeps = options.deps ?? processDeps;
  const { verifyToken } = options;
  const errorAnswer = options.errorBody ?? problemAnswer;
  const metricsNamespace = options.metricsNamespace ?? IDENTITY_METRICS_NAMESPACE;
  // What only OpenID Provider routes need is passed by their handlers, so no other bundle carries it.
  if (route.tenant === 'issuer' && !options.issuer) throw new Error(`${route.operationId}: pass the issuer lookup`);
  if (route.oauth && !options.errorBody) throw new Error(`${route.operationId}: pass OAuth's error body (errorBody)`);
  if (route.tenant === 'token') {
    if (route.auth !== 'bearer' || !options.verifyToken) throw new Error(`${route.operationId}: bearer, verifyToken`);
  } else if (
    route.auth !== 'none' &&
    !(route.auth === 'admin' ? options.authenticators?.apiKey : options.authenticators)
  ) {
    // An admin route takes API keys too: identityAuthenticators.
    throw new Error(`${route.operationId} is a ${route.auth} route: pass authenticators to httpHandler`);
  }
  if (route.ses && !options.mailer) throw new Error(`${route.operationId} sends mail: pass the mailer to httpHandler`);
  // The route's deps, built once per function's deps: once per cold start on Lambda, once per stack locally.
  const built = new WeakMap<ServiceDeps, ServiceDeps>();
  const depsOf = (context: Context): ServiceDeps => {
    const base = invocationDeps(context, getDeps);
    const known = built.get(base);
    if (known) return known;
    // A service with deps of its own (the plant store) has no key vault, no mailer and no direct reads.
    let deps: ServiceDeps = base;
    if (isIdentity(base)) {
      const identity = options.depsForRoute ? options.depsForRoute(base) : base;
      const routeDeps: Deps = {
        ...identity,
        // The key vault as this route's IAM allows it on AWS (its row's kms grants), locally too.
        vault: vaultLimitedTo(identity.vault, route.kms ?? []),
        // A mailer is only ever given with the identity's deps (the second signature takes none).
        ...(options.mailer ? { mailer: options.mailer(identity) } : {}),
      };
      deps = routeDeps;
    }
    built.set(base, deps);
    return deps;
  };
  // The stages that read identity deps (tenant lookups, the identity credential checks) do nothing for the
  // routes of a service with deps of its own: those routes have tenant `none` or `token` (second signature).
  const stages: ((request: HttpRequest) => void | Promise<void>)[] = [
    checkBodySize,
    parseJsonBody,
    resolveTenant,
    checkOrigin,
    authenticate,
    validateInput,
  ];

  // middy hands the base handler only (event, context): the stages' state reaches it keyed by its event.
  const states = new WeakMap<HttpEvent, RequestState<ServiceDeps>>();

  const run = async (event: HttpEvent): Promise<HttpResult> => {
    const state = states.get(event);
    if (!state) throw new Error('request state missing');
    const http = event.requestContext?.http;
    const token = state.token;
    // Reads made with the tenant answer the route's first GetItem of each of their keys.
    const base =
      state.prefetched && isIdentity(state.deps)
        ? depsWithStore(state.deps, withPrefetch(state.deps.store, state.prefetched))
        : state.deps;
    // What the domain logs names its request, as the errors answered here do; what it counts is this request's.
    const deps = { ...base, log: withFields(base.log, { requestId: state.requestId }), signals: state.signals };
    const result = await (impl as (input: HandlerInput<RouteDef>, deps: ServiceDeps) => unknown)(
      {
        body: state.body,
        query: state.query,
        params: state.params,
        tenant: token ? { app: token.app, mid: token.mid } : state.tenant,
        auth: token ?? state.principal,
        client: {
          ip: state.ip,
          userAgent: http?.userAgent ?? '',
          // Read once per request, on every route alike: a mail's path costs no more than another's.
          language: chooseLanguage({
            acceptLanguage: header(event, 'accept-language'),
            fallback: tenantDefaultLanguage(state.tenant),
          }),
        },
        request: {
          requestId: state.requestId,
          origin: state.origin,
          rawBody: rawBodyOf(event),
          rawQuery: event.rawQueryString ?? '',
          header: (name: string) => header(event, name.toLowerCase()),
        },
      } as HandlerInput<RouteDef>,
      deps,
    );
    return result as HttpResult;
  };

  return middy<HttpEvent, HttpResult, Error, Context>()
    .use({
      before: async (request) => {
        const startedAt = performance.now();
        const req = request as HttpRequest<ServiceDeps>;
        const deps = depsOf(request.context);
        const edgeConfig = edgeConfigOf(deps);
        const edge = await edgeTrust(request.event, edgeConfig, (error) =>
          deps.log.error('edge secret not read; viewer headers not believed', {
            errorName: error instanceof Error ? error.name : typeof error,
          }),
        );
        req.internal.state = {
          startedAt,
          signals: requestSignals(),
          edge,
          ip: clientIp(request.event, edge),
          route,
          deps,
          authenticators: options.authenticators,
          verifyToken: verifyToken && ((token: string) => verifyToken(token, deps)),
          issuerTenant: options.issuer,
          prefetch: options.prefetch as RequestState['prefetch'],
          requestId: request.event.requestContext?.requestId ?? request.context.awsRequestId,
          origin: header(request.event, 'origin'),
          json: undefined,
          tenant: undefined,
          principal: undefined,
          token: undefined,
          body: undefined,
          query: undefined,
          params: undefined,
        };
        states.set(request.event, req.internal.state);
        refuseUnlessFromEdge(edge, edgeConfig, route);
        for (const stage of stages) await stage(req as HttpRequest);
      },
      after: (request) => {
        const req = request as HttpRequest<ServiceDeps>;
        const result: unknown = request.response;
        // A route with two outcomes answers 204 when its service returned nothing (RouteDef.alsoNoContent).
        const status = route.alsoNoContent && result === undefined ? 204 : route.status;
        const noBody = status === 204 || status === 302;
        if (result instanceof Reply) {
          respond(req, status, noBody ? undefined : result.body, result.headers);
        } else {
          respond(req, status, noBody ? undefined : result);
        }
        if (options.encodeAnswer && request.response) {
          request.response = options.encodeAnswer(request.event, request.response);
        }
        reportRequest(req, route, metricsNamespace, undefined);
      },
      onError: (request) => {
        const req = request as HttpRequest<ServiceDeps>;
        reportRequest(req, route, metricsNamespace, onError(req, errorAnswer));
      },
    })
    .handler(run);
}

/** The body text as sent; a base64 body (not UTF-8 text, per API Gateway) was refused by the JSON stage if it mattered. */
function rawBodyOf(event: HttpEvent): string | undefined {
  if (event.body === undefined) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}
