/** Routes under /sessions. */
import { BEARER_ERRORS, bearerRoute, type RouteDef } from '#shared/http/route.ts';

export const sessionRoutes = {
  revokeAllSessions: {
    ...bearerRoute({ tag: 'sessions' }),
    operationId: 'revokeAllSessions',
    method: 'POST',
    path: '/sessions/revoke-all',
    entry: 'functions/sessions/revoke-all-sessions.ts',
    summary: 'End every session of the caller, this one too',
    status: 204,
    errors: BEARER_ERRORS,
    table: ['UpdateItem', 'PutItem'],
  },
} as const satisfies Record<string, RouteDef>;
