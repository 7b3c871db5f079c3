import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { bumpClauses, epochIs, epochOf, type Placeholders } from './credential-epoch.ts';
import { conditionalWrite } from './errors.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import { queryAll } from './query.ts';
import { listedEntry, type SessionCap } from './session-cap.ts';
import { type TransactItem, transact } from './transact.ts';
import { DAY_MS, ttlAfter } from './ttl.ts';

export interface Session {
  id: string;
  userId: string;
  /**
   * The user's credential epoch when the session started (or was re-stamped by a password change):
   * the session is dead once the profile's epoch is another. null on sessions stored before epochs (= 0).
   */
  epoch: number | null;
  createdAt: string;
  lastActivityAt: string;
  ip: string;
  /** Browser and OS names are derived from it when listed (shared/sessions/device.ts). */
  userAgent: string;
  fingerprint: string;
  /** SHA-256 of the current refresh token's secret; the token itself is never stored. Removed when revoked. */
  refreshHash: string | null;
  /** The current refresh token's generation: 0 at login, one more at each rotation (null on older sessions: 0). */
  refreshGen: number | null;
  /**
   * SHA-256 of the token the last rotation replaced (generation `refreshGen - 1`). Kept when the session is
   * revoked, so that a replay of any rotated-out token is still told apart from a made-up one.
   */
  prevRefreshHash: string | null;
  /** When that token was rotated out. */
  prevRotatedAt: string | null;
  /** When the token before it was: every older token of the chain had been rotated out by then. */
  olderRotatedAt: string | null;
  /** Absolute end: 7 days after login, whatever the refreshes. */
  refreshExpiresAt: string;
  revokedAt: string | null;
  /**
   * When the user last proved their first factor in this session: at login, or
   * at POST /auth/reauthenticate; a refresh never renews it. Null for sessions
   * stored before it was recorded: those never count as recent.
   */
  authenticatedAt: string | null;
  /**
   * How the user proved who they are at login (RFC 8176 `amr`: `pwd`, `otp`, `mfa`), for OpenID Connect's
   * ID tokens. Null for sessions stored before it was recorded.
   */
  amr: string[] | null;
  /**
   * The OpenID Connect client this session was started for (its code redeemed), or null for a session of
   * the hosted pages or the API. Its refresh token is good at that client's token endpoint only.
   */
  clientId: string | null;
  /** That client's name when the session began, for the user's session list. */
  clientName: string | null;
  /** The scopes the user granted that client (which claims its tokens carry); null for other sessions. */
  scopes: string[] | null;
}

export interface Device {
  fingerprint: string;
  /** The latest User-Agent seen with this fingerprint; names are derived from it when listed. */
  userAgent: string;
  firstSeenAt: string;
  /**
   * The latest sign-in the record counted: a password login refreshes the record only once it is a day old
   * (DEVICE_STALE_MS, ./password-session.ts), so this is within a day of the device's latest sign-in.
   */
  lastSeenAt: string;
  /**
   * How many sign-ins the record counted: the first, then (for password logins) one each time it was refreshed,
   * so at most one a day: roughly the days the device signed in on. Other sign-ins (codes, TOTP, clients) each count.
   */
  seenCount: number;
}

const SESSION_FIELDS: FieldNames<Session> = {
  id: true,
  userId: true,
  epoch: true,
  createdAt: true,
  lastActivityAt: true,
  ip: true,
  userAgent: true,
  fingerprint: true,
  refreshHash: true,
  refreshGen: true,
  prevRefreshHash: true,
  prevRotatedAt: true,
  olderRotatedAt: true,
  refreshExpiresAt: true,
  revokedAt: true,
  authenticatedAt: true,
  amr: true,
  clientId: true,
  clientName: true,
  scopes: true,
};

export const toSession = (item: Record<string, unknown>) => fieldsOf<Session>(item, SESSION_FIELDS);

/** What commits with a new session (sessionRepo.start). */
export interface SessionStartAlso {
  /** More profile fields, set with lastLoginAt. */
  profile?: Record<string, unknown>;
  /** The status the profile must have for the session to start (else the transaction is cancelled). */
  profileStatus?: string;
  /** More writes of the same transaction. */
  items?: TransactItem[];
}

/** The update that ends a session: its access tokens answer SESSION_REVOKED, its refresh token is void. */
const REVOKE = 'SET revokedAt = :now REMOVE refreshHash';
/** A session not revoked (revokedAt absent, or null); `:null` is null. */
export const NOT_REVOKED = '(attribute_not_exists(revokedAt) OR revokedAt = :null)';

/**
 * The profile's part of a new session: lastLoginAt (and `also.profile`), the
 * session listed (the oldest and the expired taken off: `cap`), while the
 * profile is still at the epoch read before the credential was checked.
 */
export function profileAtStart(session: Session, also: SessionStartAlso, cap: SessionCap) {
  const at: Placeholders = { names: {}, values: {} };
  const sets = Object.entries({ ...also.profile, lastLoginAt: session.createdAt }).map(([field, value], i) => {
    at.names[`#p${i}`] = field;
    at.values[`:p${i}`] = value;
    return `#p${i} = :p${i}`;
  });
  const conditions = ['attribute_exists(pk)'];
  if (also.profileStatus) {
    at.names['#status'] = 'status';
    at.values[':status'] = also.profileStatus;
    conditions.push('#status = :status');
  }
  // A login in flight ends too: a password change, reset, disable or revoke-all that moved the epoch on after this
  // login read the profile (and before its credential was checked) cancels the session.
  conditions.push(epochIs('credentialEpoch', session.epoch ?? 0, at));
  at.names['#live'] = 'liveSessions';
  const removes: string[] = [];
  if (cap.listed === null) {
    // A profile from before the list: it starts with this session (sessions from before are not counted).
    at.values[':live'] = { [session.id]: listedEntry(session.createdAt, session.clientId ?? null) };
    sets.push('#live = :live');
  } else {
    // One entry set and some removed, never the whole list: logins racing each other each add their own.
    at.names['#new'] = session.id;
    at.values[':created'] = listedEntry(session.createdAt, session.clientId ?? null);
    sets.push('#live.#new = :created');
    [...cap.forget, ...cap.evict].forEach((id, i) => {
      at.names[`#r${i}`] = id;
      removes.push(`#live.#r${i}`);
    });
    // The list exists (it is replaced, never removed): a nested path in a missing map would be a ValidationException.
    conditions.push('attribute_exists(#live)');
  }
  return {
    UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: at.names,
    ExpressionAttributeValues: at.values,
  };
}

/**
 * A refresh token is good only where it was issued: an OpenID Connect client's session rotates at that
 * client's token endpoint (`client`, its id), a session of the hosted pages or the API at /auth/refresh
 * (`null`). The condition and its values (`:null` is null, as NOT_REVOKED has it).
 */
export function boundToClient(client: string | null): { condition: string; values: Record<string, unknown> } {
  return client === null
    ? { condition: '(attribute_not_exists(clientId) OR clientId = :null)', values: {} }
    : { condition: 'clientId = :client', values: { ':client': client } };
}

/** A day past its absolute end: reads check refreshExpiresAt themselves. */
export const sessionTtl = (session: Session) => ttlAfter(session.refreshExpiresAt, DAY_MS);

export function sessionRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * Starts a session: the session, the device record and the user's last
     * login in one transaction, so a login is recorded whole or not at all.
     * The profile must still be at `session.epoch` (the epoch read before
     * the credential was checked), else the transaction is cancelled: a
     * login cannot outlive a password change it raced. The session is
     * listed on the profile; `cap` ends the oldest ones beyond 50 in the same
     * transaction. `also` joins more to it: fields set on the profile with
     * lastLoginAt (only while the profile has `profileStatus`) and more
     * writes (a challenge used up, an activity) that must commit with the session.
     */
    async start(
      t: TenantRef,
      session: Session,
      activity: TransactItem,
      also: SessionStartAlso,
      cap: SessionCap,
    ): Promise<void> {
      const ttl = sessionTtl(session);
      const evicted = cap.evict.map(
        (id): TransactItem => ({
          Update: {
            TableName: tableName,
            Key: keys.session(t, session.userId, id),
            // Unconditional, so that an oldest session ended meanwhile does not cancel the login; the
            // TTL only in case the item is gone, so that no bare item is left behind for ever.
            UpdateExpression: 'SET revokedAt = :now, #ttl = if_not_exists(#ttl, :ttl) REMOVE refreshHash',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':now': session.createdAt, ':ttl': ttl },
          },
        }),
      );
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
            // Index 2 (startSession names it PROFILE_ITEM): its condition is the credential epoch.
            {
              Update: {
                TableName: tableName,
                Key: keys.user(t, session.userId),
                ...profileAtStart(session, also, cap),
              },
            },
            activity,
            ...(also.items ?? []),
            ...evicted,
          ],
        }),
      );
    },

    async get(t: TenantRef, userId: string, sessionId: string): Promise<Session | null> {
      const Item = await getItem(store, keys.session(t, userId, sessionId));
      return Item ? toSession(Item) : null;
    },

    /**
     * Rotates the refresh token `session` holds (as read): the successor's hash replaces the presented one only
     * if the presented one is still current, the session live, within its 7 days and at the user's credential
     * epoch (`epoch`, read with the profile), and bound to `client`. One conditional UpdateItem of the session
     * alone: of refreshes racing with one token exactly one passes, and the others, sent after it, find the
     * token rotated out (the grace answer follows). The presented hash and the times of the last two rotations
     * stay on the item, which is all reuse detection needs. False when a condition failed.
     */
    async rotateRefresh(
      t: TenantRef,
      session: Session,
      nextHash: string,
      now: Date,
      epoch: number,
      client: string | null = null,
    ): Promise<boolean> {
      const boundHere = boundToClient(client);
      // A session the epoch ended (password change, reset, disable, revoke-all) never gets a token again.
      const at: Placeholders = { names: {}, values: {} };
      const atEpoch = epochIs('epoch', epoch, at);
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.session(t, session.userId, session.id),
            UpdateExpression:
              'SET refreshHash = :next, refreshGen = :gen, prevRefreshHash = :presented, prevRotatedAt = :now, olderRotatedAt = :older, lastActivityAt = :now',
            ConditionExpression: `refreshHash = :presented AND ${NOT_REVOKED} AND refreshExpiresAt > :now AND ${atEpoch} AND ${boundHere.condition}`,
            ExpressionAttributeNames: at.names,
            ExpressionAttributeValues: {
              ...boundHere.values,
              ':next': nextHash,
              ':gen': (session.refreshGen ?? 0) + 1,
              ':presented': session.refreshHash,
              ':older': session.prevRotatedAt,
              ':now': now.toISOString(),
              ':null': null,
              ...at.values,
            },
          }),
        ),
      );
    },

    /**
     * When a refresh token (by hash) of the `rt1` format was rotated out of this session, if it was before
     * sessions recorded their rotations: such records expire with the sessions they came from (8 days).
     */
    async rotatedAt(t: TenantRef, userId: string, sessionId: string, tokenHash: string): Promise<Date | null> {
      const Item = await getItem(store, keys.usedRefreshToken(t, userId, tokenHash));
      return Item && Item.sessionId === sessionId ? new Date(Item.rotatedAt as string) : null;
    },

    /**
     * Ends a session at once: its access tokens answer SESSION_REVOKED, its
     * refresh token is void. `listed`: the profile read lists it, and it is
     * taken off the list in the same transaction (it no longer counts
     * towards the 50). False when it was not live (or not there).
     */
    /**
     * Ends one session (and takes it off the profile's list when `listed`), with `also` (its activity) in the same
     * transaction; false when it had ended already or is not there.
     */
    async revoke(
      t: TenantRef,
      userId: string,
      sessionId: string,
      now: Date,
      listed = false,
      also: TransactItem | null = null,
    ): Promise<boolean> {
      const revoke = {
        TableName: tableName,
        Key: keys.session(t, userId, sessionId),
        UpdateExpression: REVOKE,
        ConditionExpression: `attribute_exists(pk) AND ${NOT_REVOKED}`,
        ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null },
      };
      if (listed) {
        const failed = await transact(store, {
          session: { Update: revoke },
          also,
          unlisted: {
            Update: {
              TableName: tableName,
              Key: keys.user(t, userId),
              UpdateExpression: 'REMOVE #live.#id',
              // The list is there (a nested path in a missing map would be a ValidationException).
              ConditionExpression: 'attribute_exists(#live)',
              ExpressionAttributeNames: { '#live': 'liveSessions', '#id': sessionId },
            },
          },
        });
        if (failed.has('session')) return false;
        if (!failed.has('unlisted')) return true;
        // The profile changed under us (the user is gone): the session still ends, alone.
      }
      if (also) return (await transact(store, { session: { Update: revoke }, also })).size === 0;
      return conditionalWrite(doc.send(new UpdateCommand(revoke)));
    },

    /**
     * The user's live sessions: not revoked, within their 7 days, and at the
     * profile's credential epoch `epoch` (the others ended when it moved on).
     */
    async listLive(t: TenantRef, userId: string, now: Date, epoch: number): Promise<Session[]> {
      const sessions = (
        await queryAll(store, {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.userPartition(t, userId), ':prefix': keys.sessionPrefix },
          ConsistentRead: true,
        })
      ).map(toSession);
      return sessions.filter(
        (s) => !s.revokedAt && Date.parse(s.refreshExpiresAt) > now.getTime() && epochOf(s) === epoch,
      );
    },

    /**
     * Ends every session of a user, the caller's too, in one write whatever
     * their number: the profile's credential epoch
     * moves on, and every session stamped with the old one is dead.
     * False when the user is gone.
     */
    /** Ends every session of the user (the credential epoch moves on), with `also` (its activity) in one transaction. */
    async revokeAll(t: TenantRef, userId: string, also: TransactItem | null = null): Promise<boolean> {
      const at: Placeholders = { names: {}, values: {} };
      const ending = bumpClauses({}, at);
      const failed = await transact(store, {
        profile: {
          Update: {
            TableName: tableName,
            Key: keys.user(t, userId),
            UpdateExpression: `SET ${ending.set} ADD ${ending.add}`,
            // Never a bare profile for a user deleted meanwhile.
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: at.names,
            ExpressionAttributeValues: at.values,
          },
        },
        also,
      });
      return failed.size === 0;
    },

    /**
     * The session moved to the epoch `from + 1`, while it is live and at
     * `from`: a password change keeps the caller's session in the
     * transaction that moves the profile's epoch on (EpochBump `from`, `keep`).
     */
    restampItem(t: TenantRef, userId: string, sessionId: string, from: number): TransactItem {
      const at: Placeholders = { names: {}, values: {} };
      const atEpoch = epochIs('epoch', from, at);
      return {
        Update: {
          TableName: tableName,
          Key: keys.session(t, userId, sessionId),
          UpdateExpression: 'SET #ep = :to',
          ConditionExpression: `attribute_exists(pk) AND ${NOT_REVOKED} AND ${atEpoch}`,
          ExpressionAttributeNames: at.names,
          ExpressionAttributeValues: { ...at.values, ':to': from + 1, ':null': null },
        },
      };
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
