import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ActivityType, LoginMethod } from '../activity/types.ts';
import type { StoreClient } from './client.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys, type TenantRef } from './keys.ts';
import { newestFirstPage } from './query.ts';
import type { TransactItem } from './transact.ts';
import { RECORD_RETENTION_MS, ttlAfter } from './ttl.ts';

/** One thing that happened to a user (ActivityResponse, as stored). */
export interface Activity {
  id: string;
  userId: string;
  type: ActivityType;
  at: string;
  ip: string;
  userAgent: string;
  /** The acting user id, or `apikey:<keyId>`. */
  actorId: string;
  /** A LOGIN's way in; absent on other activity and on logins recorded before it was kept. */
  method?: LoginMethod;
  /**
   * What the change was, for the webhook event it makes (shared/webhooks/events.ts): the session, the role, the
   * address… Ids and values only, never a secret; not part of ActivityResponse.
   */
  detail?: ActivityDetail;
}

/** An activity's detail: a few named values (shared/webhooks/events.ts reads them). */
export type ActivityDetail = Record<string, string | string[] | null>;

/** A page of a user's activity, newest first; `after` is the sort key of the last one, for the next page. */
export interface ActivityPage {
  items: ListedActivity[];
  after: string | null;
}

type ListedActivity = Omit<Activity, 'userId' | 'method' | 'detail'> & { method: LoginMethod | null };

const LISTED_FIELDS: FieldNames<ListedActivity> = {
  id: true,
  type: true,
  at: true,
  ip: true,
  userAgent: true,
  actorId: true,
  method: true,
};

function activityPut(tableName: string, t: TenantRef, activity: Activity) {
  return {
    TableName: tableName,
    Item: {
      ...keys.activity(t, activity.userId, activity.at, activity.id),
      entity: 'ACTIVITY',
      ...activity,
      // A user agent is the client's to choose: keep it bounded.
      ip: activity.ip.slice(0, 64),
      userAgent: activity.userAgent.slice(0, 512),
      // Kept 400 days.
      ttl: ttlAfter(activity.at, RECORD_RETENTION_MS),
    },
  };
}

/** A tenant-level record that outlives its subject (USER_DELETED), in the tenant's audit partition. */
export interface Audit {
  id: string;
  type: 'USER_DELETED';
  subjectId: string;
  at: string;
  ip: string;
  userAgent: string;
  actorId: string;
}

export function activityRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /** The write of an activity, for the transaction of the change it records. */
    putItem(t: TenantRef, activity: Activity): TransactItem {
      return { Put: activityPut(tableName, t, activity) };
    },

    /** The write of an audit record, for the transaction of what it records. */
    auditItem(t: TenantRef, audit: Audit): TransactItem {
      return {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.audit(t, audit.at, audit.id),
            entity: 'AUDIT',
            ...audit,
            userAgent: audit.userAgent.slice(0, 512),
            // Kept 400 days.
            ttl: ttlAfter(audit.at, RECORD_RETENTION_MS),
          },
        },
      };
    },

    /** Records one activity on its own (when no other write goes with it). */
    async record(t: TenantRef, activity: Activity): Promise<void> {
      await doc.send(new PutCommand(activityPut(tableName, t, activity)));
    },

    /**
     * A user's activity, newest first, `limit` at a time, after the sort key
     * `after` (taken from a cursor: only the sort key travels, the partition
     * is always this user's, so a cursor cannot reach elsewhere).
     */
    async page(t: TenantRef, userId: string, limit: number, after: string | null, now: Date): Promise<ActivityPage> {
      const page = await newestFirstPage(store, keys.activityPartition(t, userId), limit, after, now);
      return { items: page.items.map((item) => fieldsOf<ListedActivity>(item, LISTED_FIELDS)), after: page.after };
    },
  };
}
