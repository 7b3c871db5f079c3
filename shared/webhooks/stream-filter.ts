import { EVENT_ACTIVITY_TYPES } from './events.ts';

/**
 * The table stream records the dispatcher is invoked with: new items that make events (activity of the types that
 * do, a deleted user's audit record) and the admins' delivery requests. Lambda's event filter on AWS
 * (infra/webhooks.ts), this module's `passesStreamFilter` locally: one definition, so both let the same records by.
 * Every other write (sessions, rate counters, the event log itself) never invokes the dispatcher.
 */
export const STREAM_FILTERS = [
  {
    eventName: ['INSERT'],
    dynamodb: { NewImage: { entity: { S: ['ACTIVITY'] }, type: { S: [...EVENT_ACTIVITY_TYPES] } } },
  },
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['AUDIT'] }, type: { S: ['USER_DELETED'] } } } },
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['WEBHOOK_REQUEST'] } } } },
] as const;

type Pattern = { readonly [key: string]: Pattern | readonly string[] };

/** EventBridge-style matching of the patterns above: each key's value is one of the strings listed. */
function matches(value: unknown, pattern: Pattern): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = (value as Record<string, unknown>)[key];
    return Array.isArray(expected) ? expected.includes(actual as string) : matches(actual, expected as Pattern);
  });
}

/** Whether a stream record (as DynamoDB Streams gives it) passes the filter. */
export function passesStreamFilter(record: unknown): boolean {
  return STREAM_FILTERS.some((filter) => matches(record, filter as unknown as Pattern));
}
