/**
 * GET /users/me/activity: the signed-in user's own activity. A row of the /users/me routes, kept in a module of
 * its own: the activity schemas (valibot's number pipes, the activity types) would otherwise ride in the bundle of
 * every /users/me route, some of which sit close to the bundle budget (test/infra/bundles.test.ts).
 */

import { ActivityPage, ActivityQuery } from '#shared/activity/schemas.ts';
import { BEARER_ERRORS, bearerRoute, type RouteDef } from '#shared/http/route.ts';

export const myActivityRoutes = {
  listMyActivity: {
    ...bearerRoute({ tag: 'me' }),
    operationId: 'listMyActivity',
    method: 'GET',
    path: '/users/me/activity',
    entry: 'functions/users/list-my-activity.ts',
    summary: "The caller's own activity, newest first (kept 400 days)",
    status: 200,
    query: ActivityQuery,
    response: ActivityPage,
    errors: BEARER_ERRORS,
    table: ['Query'],
  },
} as const satisfies Record<string, RouteDef>;
