import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import type { HttpEvent, HttpResult } from '../http/request-state.ts';
import type { TokenPrincipal, TokenVerifier } from '../tokens/resource-server.ts';

/**
 * The plant store's second mode (README, Plant store): an API Gateway HTTP API JWT authorizer has checked the
 * bearer (signature RS256 against the issuer's JWKS, `iss`, `aud` or `client_id`, `exp`, `nbf`) before the
 * function runs, and hands the token's claims over in `event.requestContext.authorizer.jwt.claims`, every
 * value as a string (an array as `[a b]`). The function takes its caller from those claims and never reads
 * the token itself: a request that reached it without the authorizer's claims (a route wired without the
 * authorizer) has no caller, and is answered 401.
 */

/** The event the running handler was given: the bearer check of httpHandler sees the token only. */
const currentEvent = new AsyncLocalStorage<HttpEvent>();

/** Runs a handler with its event at hand for `authorizerClaimsVerifier` (the handlers behind the authorizer). */
export function withAuthorizerEvent(
  handler: (event: HttpEvent, context: Context) => Promise<HttpResult>,
): (event: HttpEvent, context: Context) => Promise<HttpResult> {
  return (event, context) => currentEvent.run(event, () => handler(event, context));
}

/** app and mid are generated from this alphabet; anything else names no tenant (as shared/tokens/resource-server.ts). */
const TenantValue = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/));
const NonEmpty = v.pipe(v.string(), v.minLength(1));
/** A claim value as API Gateway passes it: a string (numbers and arrays stringified); typed values are read too. */
const ClaimValue = v.union([v.string(), v.number(), v.boolean(), v.array(v.string())]);

const Claims = v.object({
  sub: NonEmpty,
  app: TenantValue,
  mid: TenantValue,
  /** A user's token has its session; a `client_credentials` token has none. */
  sid: v.optional(NonEmpty),
  /** `[DEFAULT SUPER_ADMIN]` as API Gateway writes an array; absent from a `client_credentials` token. */
  roles: v.optional(ClaimValue),
  exp: ClaimValue,
});

/**
 * An array claim as API Gateway stringifies it (`[a b]`, Go's notation) back into its items; a typed array as
 * it is. A value that is neither names no roles.
 */
export function claimList(value: string | number | boolean | string[] | undefined): string[] | null {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return null;
  const inner = /^\[(.*)\]$/s.exec(value)?.[1];
  if (inner === undefined) return null;
  return inner.split(' ').filter((item) => item !== '');
}

/**
 * The caller of a request that API Gateway's JWT authorizer let through, from its claims (their issuer, audience,
 * signature and times checked by API Gateway); null when the event carries none, or they lack a tenant (`app`,
 * `mid`) or a subject.
 */
export function principalFromAuthorizer(event: HttpEvent | undefined): TokenPrincipal | null {
  const authorizer = (event?.requestContext as { authorizer?: { jwt?: { claims?: unknown } } } | undefined)?.authorizer;
  const parsed = v.safeParse(Claims, authorizer?.jwt?.claims);
  if (!parsed.success) return null;
  const claims = parsed.output;
  const exp = Number(claims.exp);
  const roles = claimList(claims.roles);
  if (!Number.isSafeInteger(exp) || roles === null) return null;
  return { kind: 'token', sub: claims.sub, sid: claims.sid ?? '', app: claims.app, mid: claims.mid, roles, exp };
}

/**
 * The bearer check of a function behind the JWT authorizer: the caller is in the authorizer's claims of the
 * running request (`withAuthorizerEvent`), never read from the token (API Gateway verified that one).
 */
export function authorizerClaimsVerifier(): TokenVerifier {
  return async () => {
    const event = currentEvent.getStore();
    if (!event)
      throw new Error('the handler does not run in withAuthorizerEvent: the authorizer claims are out of reach');
    return principalFromAuthorizer(event);
  };
}
