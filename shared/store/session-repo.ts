import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { REFRESH_TOKEN_TTL_MS } from '../auth/lifetimes.ts';
import type { StoreClient } from './client.ts';
import { conditionFailedAt, isConditionFailure } from './errors.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import { queryAll } from './query.ts';
import type { TransactItem } from './transact.ts';
import { DAY_MS, ttlAfter } from './ttl.ts';

export interface Session {
  id: string;
  userId: string;
  createdAt: string;
  lastActivityAt: string;
  ip: string;
  /** Browser and OS names are derived from it when listed (shared/sessions/device.ts). */
  userAgent: string;
  fingerprint: string;
  /** SHA-256 of the current refresh token's secret; the token itself is never stored. */
  refreshHash: string | null;
  /** Absolute end: 7 days after login, whatever the refreshes. */
  refreshExpiresAt: string;
  revokedAt: string | null;
  /**
   * When the user last proved their first factor in this session: at login, or
   * at POST /auth/reauthenticate; a refresh never renews it. Null for sessions
   * stored before it was recorded: those never count as recent.
   */
  authenticatedAt: string | null;
}

export interface Device {
  fingerprint: string;
  /** The latest User-Agent seen with this fingerprint; names are derived from it when listed. */
  userAgent: string;
  firstSeenAt: string;
  lastSeenAt: string;
  seenCount: number;
}

const SESSION_FIELDS: FieldNames<Session> = {
  id: true,
  userId: true,
  createdAt: true,
  lastActivityAt: true,
  ip: true,
  userAgent: true,
  fingerprint: true,
  refreshHash: true,
  refreshExpiresAt: true,
  revokedAt: true,
  authenticatedAt: true,
};

export const toSession = (item: Record<string, unknown>) => fieldsOf<Session>(item, SESSION_FIELDS);

export type RotateOutcome = 'ROTATED' | 'NOT_CURRENT';

/** What commits with a new session (sessionRepo.start). */
export interface SessionStartAlso {
  /** More profile fields, set with lastLoginAt. */
  profile?: Record<string, unknown>;
  /** The status the profile must have for the session to start (else the transaction is cancelled). */
  profileStatus?: string;
  /** More writes of the same transaction. */
  items?: TransactItem[];
}

export function sessionRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * Starts a session: the session, the device record and the user's last
     * login in one transaction, so a login is recorded whole or not at all.
     * `also` joins more to it: fields set on the profile with lastLoginAt
     * (only while the profile has `profileStatus`) and more writes (a
     * challenge used up, an activity) that must commit with the session.
     */
    async start(t: TenantRef, session: Session, activity: TransactItem, also: SessionStartAlso = {}): Promise<void> {
      // A day past its absolute end: reads check refreshExpiresAt themselves.
      const ttl = ttlAfter(session.refreshExpiresAt, DAY_MS);
      const profile = Object.entries({ ...also.profile, lastLoginAt: session.createdAt });
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName,
                Item: { ...keys.session(t, session.userId, session.id), entity: 'SESSION', ...session, ttl },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Update: {
                TableName: tableName,
                Key: keys.device(t, session.userId, session.fingerprint),
                UpdateExpression:
                  'SET entity = :entity, fingerprint = :fp, userAgent = :ua, firstSeenAt = if_not_exists(firstSeenAt, :now), lastSeenAt = :now ADD seenCount :one',
                ExpressionAttributeValues: {
                  ':entity': 'DEVICE',
                  ':fp': session.fingerprint,
                  ':ua': session.userAgent,
                  ':now': session.createdAt,
                  ':one': 1,
                },
              },
            },
            {
              Update: {
                TableName: tableName,
                Key: keys.user(t, session.userId),
                UpdateExpression: `SET ${profile.map((_, i) => `#p${i} = :p${i}`).join(', ')}`,
                ConditionExpression: also.profileStatus
                  ? 'attribute_exists(pk) AND #status = :status'
                  : 'attribute_exists(pk)',
                ExpressionAttributeNames: {
                  ...Object.fromEntries(profile.map(([field], i) => [`#p${i}`, field])),
                  ...(also.profileStatus ? { '#status': 'status' } : {}),
                },
                ExpressionAttributeValues: {
                  ...Object.fromEntries(profile.map(([, value], i) => [`:p${i}`, value])),
                  ...(also.profileStatus ? { ':status': also.profileStatus } : {}),
                },
              },
            },
            activity,
            ...(also.items ?? []),
          ],
        }),
      );
    },

    async get(t: TenantRef, userId: string, sessionId: string): Promise<Session | null> {
      const Item = await getItem(store, keys.session(t, userId, sessionId));
      return Item ? toSession(Item) : null;
    },

    /**
     * Rotates the refresh token: the new hash replaces the presented one only
     * if the presented one is still current, the session live and within its
     * 7 days. Of two refreshes with one token, exactly one passes this
     * condition. The old hash is remembered, for reuse detection.
     */
    async rotateRefresh(
      t: TenantRef,
      userId: string,
      sessionId: string,
      presentedHash: string,
      nextHash: string,
      now: Date,
    ): Promise<RotateOutcome> {
      const key = keys.session(t, userId, sessionId);
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: key,
                  UpdateExpression: 'SET refreshHash = :next, lastActivityAt = :now',
                  ConditionExpression:
                    'refreshHash = :presented AND (attribute_not_exists(revokedAt) OR revokedAt = :null) AND refreshExpiresAt > :now',
                  ExpressionAttributeValues: {
                    ':next': nextHash,
                    ':presented': presentedHash,
                    ':now': now.toISOString(),
                    ':null': null,
                  },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...keys.usedRefreshToken(t, userId, presentedHash),
                    entity: 'USED_REFRESH_TOKEN',
                    sessionId,
                    rotatedAt: now.toISOString(),
                    // Remembered, for reuse detection, as long as the session it came from can live.
                    ttl: ttlAfter(now, REFRESH_TOKEN_TTL_MS + DAY_MS),
                  },
                },
              },
            ],
          }),
        );
        return 'ROTATED';
      } catch (error) {
        if (conditionFailedAt(error, 0)) return 'NOT_CURRENT';
        throw error;
      }
    },

    /** When a refresh token (by hash) was rotated out of this session, if it ever was. */
    async rotatedAt(t: TenantRef, userId: string, sessionId: string, tokenHash: string): Promise<Date | null> {
      const Item = await getItem(store, keys.usedRefreshToken(t, userId, tokenHash));
      return Item && Item.sessionId === sessionId ? new Date(Item.rotatedAt as string) : null;
    },

    /** Ends a session at once: its access tokens answer SESSION_REVOKED, its refresh token is void. */
    async revoke(t: TenantRef, userId: string, sessionId: string, now: Date): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.session(t, userId, sessionId),
            UpdateExpression: 'SET revokedAt = :now REMOVE refreshHash',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(revokedAt) OR revokedAt = :null)',
            ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async listLive(t: TenantRef, userId: string, now: Date): Promise<Session[]> {
      const sessions = (
        await queryAll(store, {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.userPartition(t, userId), ':prefix': keys.sessionPrefix },
          ConsistentRead: true,
        })
      ).map(toSession);
      return sessions.filter((s) => !s.revokedAt && Date.parse(s.refreshExpiresAt) > now.getTime());
    },

    /** Revokes every live session of a user (all, or all but one), 25 per transaction. */
    async revokeAll(t: TenantRef, userId: string, now: Date, exceptSessionId?: string): Promise<number> {
      const live = (await this.listLive(t, userId, now)).filter((s) => s.id !== exceptSessionId);
      for (let i = 0; i < live.length; i += 25) {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: live.slice(i, i + 25).map((s) => ({
              Update: {
                TableName: tableName,
                Key: keys.session(t, userId, s.id),
                UpdateExpression: 'SET revokedAt = :now REMOVE refreshHash',
                ExpressionAttributeValues: { ':now': now.toISOString() },
              },
            })),
          }),
        );
      }
      return live.length;
    },

    /**
     * The write that marks a session freshly authenticated (POST
     * /auth/reauthenticate), for a transaction with the code that proved it.
     * Only a live session within its 7 days: a session revoked meanwhile
     * (logout, revoke-all, a password change) must not come back to life as
     * "recent", so the condition fails and the caller answers SESSION_REVOKED.
     */
    reauthenticatedItem(t: TenantRef, userId: string, sessionId: string, now: Date): TransactItem {
      return {
        Update: {
          TableName: tableName,
          Key: keys.session(t, userId, sessionId),
          UpdateExpression: 'SET authenticatedAt = :now',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(revokedAt) OR revokedAt = :null) AND refreshExpiresAt > :now',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null },
        },
      };
    },
  };
}

export type SessionRepo = ReturnType<typeof sessionRepo>;
