import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ContextWithDeps } from '#shared/http/invocation-deps.ts';
import type { ServiceDeps } from '#shared/http/request-state.ts';
import { DEFAULT_ROUTE, isDefaultRoute, memoryOf, type RouteDef, routeKey, timeoutOf } from '#shared/http/route.ts';
import { authorizerRefusal, type JwtAuthorize, type JwtAuthorizerContext } from './jwt-authorizer.ts';

/**
 * The local API Gateway (HTTP API, payload format 2.0). It routes with the
 * same route list as the CDK stack, builds the event AWS would build, and
 * invokes the same handler module Lambda runs. A request no route matches goes
 * to the `$default` route's handler, as on AWS. Answers of the gateway itself
 * (no route and no `$default` route, body over 10 MB, a handler that throws)
 * are AWS's, word for word.
 */

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export interface GatewayOptions {
  routes: readonly RouteDef[];
  /** Prefix of every route path, `/api/v1`. */
  basePath: string;
  /** Repository root that route `entry` paths are relative to. */
  root: string;
  /** Called after each request, for the console (never given headers, query or body). */
  onRequest?: (line: { method: string; path: string; status: number; ms: number }) => void;
  /**
   * API Gateway's JWT authorizer on these routes (by operationId), as the CDK stack attaches it
   * (local/jwt-authorizer.ts): a request it refuses gets API Gateway's 401 and no handler runs; one it lets
   * through carries the token's claims in `requestContext.authorizer`.
   */
  jwtAuthorizer?: { routes: readonly string[]; authorize: JwtAuthorize };
  /**
   * The deps the functions run with, built once for the stack from its settings (local/stack.ts), handed to each
   * invocation on its context (shared/http/invocation-deps.ts). Absent: each function builds its own from
   * the process's environment, as on Lambda. Read at each request: the stack's settings name the gateway's own URL.
   */
  deps?: () => ServiceDeps;
}

/** API Gateway's payload limit for HTTP APIs. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
const TEXT_TYPES = /^(text\/|application\/([\w.-]+\+)?(json|xml|javascript)|application\/x-www-form-urlencoded)/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

interface CompiledRoute {
  route: RouteDef;
  routeKey: string;
  pattern: RegExp;
  names: string[];
  /** API Gateway prefers the most specific route: literal segments first, greedy paths last. */
  rank: number;
}

function compile(route: RouteDef, basePath: string): CompiledRoute {
  const names: string[] = [];
  let literalSegments = 0;
  let greedy = false;
  const source = `${basePath}${route.path}`
    .split('/')
    .map((segment) => {
      const greedyMatch = /^\{(\w+)\+\}$/.exec(segment);
      if (greedyMatch?.[1]) {
        names.push(greedyMatch[1]);
        greedy = true;
        return '(.+)';
      }
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param?.[1]) {
        names.push(param[1]);
        return '([^/]+)';
      }
      literalSegments++;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return {
    route,
    routeKey: routeKey(route, basePath),
    pattern: new RegExp(`^${source}$`),
    names,
    rank: (greedy ? 0 : 1_000) + literalSegments * 10 - names.length,
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** API Gateway's request id looks like `JDj3qh0SIAMEJgQ=`. */
function gatewayRequestId(): string {
  return randomBytes(10).toString('base64');
}

function clfTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/** Builds the exact API Gateway HTTP API v2 event for a request and its matched route. */
export function toApiGatewayEvent(input: {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  sourceIp: string;
  localPort: number;
  routeKey: string;
  pathParameters: Record<string, string> | undefined;
  requestId: string;
  now: Date;
  /** What a JWT authorizer that let the request through passes on (`requestContext.authorizer`). */
  authorizer?: JwtAuthorizerContext;
}): APIGatewayProxyEventV2 {
  const queryIndex = input.url.indexOf('?');
  const rawPath = queryIndex === -1 ? input.url : input.url.slice(0, queryIndex);
  const rawQueryString = queryIndex === -1 ? '' : input.url.slice(queryIndex + 1);

  // Header names lower-cased, repeated headers joined by commas; cookies move to their own field.
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(input.headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    if (key === 'cookie') {
      cookies = (Array.isArray(value) ? value.join('; ') : value)
        .split(';')
        .map((c) => c.trim())
        .filter(Boolean);
      continue;
    }
    headers[key] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${input.sourceIp}`
    : input.sourceIp;
  headers['x-forwarded-port'] = String(input.localPort);
  headers['x-forwarded-proto'] = 'http';
  headers['x-amzn-trace-id'] =
    `Root=1-${Math.floor(input.now.getTime() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString) {
    queryStringParameters = {};
    for (const [key, value] of new URLSearchParams(rawQueryString)) {
      queryStringParameters[key] = key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
    }
  }

  const host = headers.host ?? `localhost:${input.localPort}`;
  const hasBody = input.body.length > 0;
  // Text bodies arrive as strings; anything else (or bytes that are not UTF-8) base64-encoded, as on AWS.
  let body: string | undefined;
  let isBase64Encoded = false;
  if (hasBody) {
    const isText = TEXT_TYPES.test(headers['content-type'] ?? '');
    let text: string | undefined;
    if (isText) {
      try {
        text = strictUtf8.decode(input.body);
      } catch {
        text = undefined;
      }
    }
    if (text === undefined) {
      body = input.body.toString('base64');
      isBase64Encoded = true;
    } else {
      body = text;
    }
  }

  return {
    version: '2.0',
    routeKey: input.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split('.')[0]?.split(':')[0] ?? 'localhost',
      http: {
        method: input.method,
        path: safeDecode(rawPath),
        protocol: 'HTTP/1.1',
        sourceIp: input.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: input.requestId,
      routeKey: input.routeKey,
      stage: '$default',
      time: clfTime(input.now),
      timeEpoch: input.now.getTime(),
      // Not in APIGatewayProxyEventV2's type (APIGatewayProxyEventV2WithJWTAuthorizer has it): only behind an authorizer.
      ...(input.authorizer ? ({ authorizer: input.authorizer } as object) : {}),
    },
    ...(input.pathParameters ? { pathParameters: input.pathParameters } : {}),
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded,
  };
}

function lambdaContext(route: RouteDef, requestId: string, deps: ServiceDeps | undefined): ContextWithDeps {
  const functionName = route.operationId;
  const deadline = Date.now() + timeoutOf(route) * 1000;
  const unsupported = () => {
    throw new Error('callback-style completion is not used');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryOf(route)),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
    ...(deps && { deps }),
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer | string) {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/**
 * Lambda refuses to return an answer over 6 MB (6,291,556 bytes of the JSON it returns: status, headers and body,
 * a binary body base64-encoded), and API Gateway then answers 500. The length of the body is a lower bound, so
 * only an answer near the limit is measured exactly.
 */
const LAMBDA_RESPONSE_LIMIT_BYTES = 6_291_556;
function passesLambdaLimit(result: unknown): boolean {
  const body = (result as { body?: unknown } | null)?.body;
  if (typeof body === 'string' && body.length < LAMBDA_RESPONSE_LIMIT_BYTES - 64 * 1024) return false;
  return Buffer.byteLength(JSON.stringify(result ?? null)) > LAMBDA_RESPONSE_LIMIT_BYTES;
}

/** Turns a Lambda result into the HTTP answer, by API Gateway's payload 2.0 rules. */
function writeResult(res: ServerResponse, result: unknown, requestId: string) {
  const base = { 'apigw-requestid': requestId };
  if (passesLambdaLimit(result)) {
    process.stderr.write(
      `${JSON.stringify({ level: 'error', message: 'Response payload size exceeded maximum allowed payload size (6291556 bytes).' })}\n`,
    );
    send(res, 500, { ...base, 'content-type': 'application/json' }, '{"message":"Internal Server Error"}');
    return;
  }
  const structured = result as APIGatewayProxyStructuredResultV2 | null;
  if (!structured || typeof structured !== 'object' || !('statusCode' in structured)) {
    // A result without statusCode is sent as 200 JSON, as AWS does.
    send(res, 200, { ...base, 'content-type': 'application/json' }, JSON.stringify(result ?? null));
    return;
  }
  const headers: Record<string, string | string[]> = { ...base };
  for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
  const body = structured.body
    ? structured.isBase64Encoded
      ? Buffer.from(structured.body, 'base64')
      : Buffer.from(structured.body, 'utf8')
    : Buffer.alloc(0);
  res.writeHead(structured.statusCode ?? 200, { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

const invocation = new AsyncLocalStorage<RouteDef>();
let trackingInvocations = false;

/**
 * Starts recording the route whose handler is running, for whatever that handler does (the tests check each
 * route's DynamoDB calls against the IAM grant its row makes on AWS, which DynamoDB Local does not enforce), and
 * answers how to read it. Only when asked: AsyncLocalStorage turns on Node's promise hooks, a cost on every
 * promise of the process that Lambda does not have (a tenth of the server's CPU per session check in the bench).
 */
export function trackInvocations(): () => RouteDef | undefined {
  trackingInvocations = true;
  return () => invocation.getStore();
}

export function createGateway(options: GatewayOptions): Server {
  return createServer(gatewayListener(options));
}

/** The gateway as a request listener, for a server that routes some paths elsewhere (local/web-server.ts). */
export function gatewayListener(options: GatewayOptions): RequestListener {
  const compiled = options.routes
    .filter((route) => !isDefaultRoute(route))
    .map((route) => compile(route, options.basePath))
    .sort((a, b) => b.rank - a.rank);
  const defaultRoute = options.routes.find(isDefaultRoute);
  const modules = new Map<string, Promise<LambdaHandler>>();
  const load = (route: RouteDef) => {
    let handler = modules.get(route.entry);
    if (!handler) {
      handler = import(pathToFileURL(resolve(options.root, route.entry)).href).then((m: { handler?: unknown }) => {
        if (typeof m.handler !== 'function') throw new Error(`${route.entry} does not export handler`);
        return m.handler as LambdaHandler;
      });
      modules.set(route.entry, handler);
    }
    return handler;
  };

  return (req, res) => {
    const started = performance.now();
    const requestId = gatewayRequestId();
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const log = (status: number) =>
      options.onRequest?.({ method, path, status, ms: Math.round(performance.now() - started) });
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', async () => {
      if (tooLarge) {
        send(res, 413, { 'content-type': 'application/json' }, '{"message":"Request Entity Too Large"}');
        log(413);
        return;
      }
      let match: { compiled: CompiledRoute; values: string[] } | undefined;
      for (const candidate of compiled) {
        if (candidate.route.method !== method) continue;
        const found = candidate.pattern.exec(path);
        if (found) {
          match = { compiled: candidate, values: found.slice(1) };
          break;
        }
      }
      const route = match?.compiled.route ?? defaultRoute;
      if (!route) {
        send(res, 404, { 'content-type': 'application/json', 'apigw-requestid': requestId }, '{"message":"Not Found"}');
        log(404);
        return;
      }
      // What no route matches goes to the $default route, whose event has that route key and no path parameters.
      const key = match?.compiled.routeKey ?? DEFAULT_ROUTE;
      // The route's authorizer runs before its function, as on AWS.
      let authorizer: JwtAuthorizerContext | undefined;
      if (options.jwtAuthorizer?.routes.includes(route.operationId)) {
        const header = req.headers.authorization;
        try {
          authorizer = (await options.jwtAuthorizer.authorize(header)) ?? undefined;
        } catch (error) {
          process.stderr.write(
            `${JSON.stringify({ level: 'error', message: 'JWT authorizer failed', routeKey: key, error: String(error) })}\n`,
          );
        }
        if (!authorizer) {
          send(
            res,
            authorizerRefusal.status,
            { 'content-type': 'application/json', 'apigw-requestid': requestId },
            authorizerRefusal.body,
          );
          log(authorizerRefusal.status);
          return;
        }
      }
      const names = match?.compiled.names ?? [];
      const pathParameters =
        names.length > 0
          ? Object.fromEntries(names.map((name, i) => [name, safeDecode(match?.values[i] ?? '')]))
          : undefined;
      const event = toApiGatewayEvent({
        method,
        url,
        headers: req.headers,
        body: Buffer.concat(chunks),
        sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        localPort: req.socket.localPort ?? 0,
        routeKey: key,
        pathParameters,
        requestId,
        now: new Date(),
        authorizer,
      });
      try {
        const handler = await load(route);
        const invoke = () => handler(event, lambdaContext(route, randomUUID(), options.deps?.()));
        const result = await (trackingInvocations ? invocation.run(route, invoke) : invoke());
        writeResult(res, result, requestId);
        log(res.statusCode);
      } catch (error) {
        // What API Gateway answers when the function fails; the cause goes to the console, as to CloudWatch.
        process.stderr.write(
          `${JSON.stringify({ level: 'error', message: 'handler threw', routeKey: key, error: String(error) })}\n`,
        );
        send(res, 500, { 'content-type': 'application/json' }, '{"message":"Internal Server Error"}');
        log(500);
      }
    });
  };
}
