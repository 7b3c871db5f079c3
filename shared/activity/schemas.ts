import * as v from 'valibot';
import { ACTIVITY_TYPES, LOGIN_METHODS } from './types.ts';

/** `?limit=&cursor=` of a user's activity: GET /users/{id}/activity (admin) and GET /users/me/activity (one's own). */
export const ActivityQuery = v.object({
  // A string on the wire, parsed by toNumber: the OpenAPI document shows it as the integer it becomes.
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'must be a number from 1 to 100'),
      v.toNumber(),
      v.integer('must be a number from 1 to 100'),
      v.minValue(1, 'must be a number from 1 to 100'),
      v.maxValue(100, 'must be a number from 1 to 100'),
    ),
    '50',
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(512))),
});

export const ActivityResponse = v.object({
  id: v.string(),
  type: v.picklist(ACTIVITY_TYPES),
  at: v.string(),
  ip: v.string(),
  userAgent: v.string(),
  actorId: v.string(),
  /** A LOGIN's way in (null on other activity, and on logins recorded before it was kept). */
  method: v.nullable(v.picklist(LOGIN_METHODS)),
});

export const ActivityPage = v.object({ items: v.array(ActivityResponse), nextCursor: v.nullable(v.string()) });
