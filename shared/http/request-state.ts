import type { Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Authenticators, PrefetchedBearer, Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import type { Language } from '../i18n/languages.ts';
import type { Logger, RequestLog } from '../log.ts';
import type { StoreClient } from '../store/client.ts';
import type { TenantRef } from '../store/keys.ts';
import type { ItemKey, Prefetched } from '../store/prefetch.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { TokenPrincipal, TokenVerifier } from '../tokens/resource-server.ts';
import type { EdgeTrust } from './client-ip.ts';
import type { RequestSignals } from './request-metrics.ts';
import type { RouteDef } from './route.ts';

/**
 * What the handler pipeline needs of a service's deps: the error stage logs
 * through `log`. The identity service's Deps is one; the plant store has its own.
 */
export interface ServiceDeps {
  log: Logger;
  /** Where each request's line goes, summary and metrics (shared/http/request-metrics.ts). */
  requestLog: RequestLog;
}

/**
 * Who is on the other end of the connection, as API Gateway (or our edge) saw it: recorded
 * with sessions and activity, and the key of the per-IP rate limit; and the language it reads,
 * which every mail the request causes is written in.
 */
export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** From the request's `Accept-Language`, else the tenant's default (chooseLanguage, tenantDefaultLanguage). */
  language: Language;
}

/** What the middleware stages learn about a request, in order, for the next stage and the handler. */
export interface RequestState<D extends ServiceDeps = Deps> {
  /** performance.now() when the request reached the function, for its Latency metric. */
  startedAt: number;
  /** What the domain counted and learned about the request (shared/metrics.ts), reported at its end. */
  signals: RequestSignals;
  /** Whether the request came through our edge (shared/http/client-ip.ts): its viewer headers are believed. */
  edge: EdgeTrust;
  /** The client's address (shared/http/client-ip.ts), for the handler and the request's summary line. */
  ip: string;
  route: RouteDef;
  deps: D;
  /** The credential checks of a protected route (httpHandler's option). */
  authenticators: Authenticators | undefined;
  /** The bearer check of a `tenant: 'token'` route (httpHandler's option). */
  verifyToken: TokenVerifier | undefined;
  requestId: string;
  /** The Origin header, when a browser sent one. */
  origin: string | undefined;
  /** The parsed JSON body, before validation. */
  json: unknown;
  tenant: Merchant | undefined;
  principal: Principal | undefined;
  /** The route's keys to read with the tenant (httpHandler's `prefetch`), from the valid body (and the process's store). */
  prefetch?: ((body: unknown, tenant: TenantRef, store: StoreClient) => ItemKey[]) | undefined;
  /** What was read with the tenant, for the route's first reads. */
  prefetched?: Prefetched | undefined;
  /** The bearer check done with the tenant read (tenant stage), its verdict given by the auth stage. */
  prefetchedBearer?: PrefetchedBearer | undefined;
  /** The tenant an OpenID Connect request's issuer names (httpHandler's `issuer` option), for `tenant: 'issuer'` routes. */
  issuerTenant?: IssuerTenant | undefined;
  /** The verified access token of a `tenant: 'token'` route: its caller and, in `app`/`mid`, its tenant. */
  token: TokenPrincipal | undefined;
  body: unknown;
  query: unknown;
  params: unknown;
}

export type HttpEvent = APIGatewayProxyEventV2;

/** Finds the tenant whose OpenID Provider a request was sent to (by the viewer's host), or null. */
export type IssuerTenant = (event: HttpEvent, deps: Deps, trust: EdgeTrust) => Promise<Merchant | null>;
export type HttpResult = APIGatewayProxyStructuredResultV2;
export type HttpRequest<D extends ServiceDeps = Deps> = Request<
  HttpEvent,
  HttpResult,
  Error,
  Context,
  { state: RequestState<D> }
>;

/** Header lookup that works for API Gateway v2 (lower-cased) and hand-made events alike. */
export function header(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}
