import type { Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Authenticators, Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { RouteDef } from './route.ts';

/** What the middleware stages learn about a request, in order, for the next stage and the handler. */
export interface RequestState {
  route: RouteDef;
  deps: Deps;
  /** The credential checks of a protected route (httpHandler's option). */
  authenticators: Authenticators | undefined;
  requestId: string;
  /** The Origin header, when a browser sent one. */
  origin: string | undefined;
  /** The parsed JSON body, before validation. */
  json: unknown;
  tenant: Merchant | undefined;
  principal: Principal | undefined;
  body: unknown;
  query: unknown;
  params: unknown;
}

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;
export type HttpRequest = Request<HttpEvent, HttpResult, Error, Context, { state: RequestState }>;

/** Header lookup that works for API Gateway v2 (lower-cased) and hand-made events alike. */
export function header(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}
