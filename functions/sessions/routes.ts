/** Routes under /sessions. */
import type { RouteDef } from '#shared/http/route.ts';
import { common, me } from '../users/routes.ts';

export const sessionRoutes = {
  revokeAllSessions: {
    ...me,
    tag: 'sessions',
    operationId: 'revokeAllSessions',
    method: 'POST',
    path: '/sessions/revoke-all',
    entry: 'functions/sessions/revoke-all-sessions.ts',
    summary: 'End every session of the caller, this one too',
    status: 204,
    errors: common,
    table: ['UpdateItem', 'PutItem'],
  },
} as const satisfies Record<string, RouteDef>;
