import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../users/types.ts';
import type { StoreClient } from './client.ts';
import { conditionalWrite } from './errors.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import type { SessionCap } from './session-cap.ts';
import { type Device, profileAtStart, type Session, sessionTtl } from './session-repo.ts';
import type { TransactItem } from './transact.ts';
import { DAY_MS } from './ttl.ts';
import { isExpiredSignup, userRepo } from './user-repo.ts';

// Apart from session-repo.ts: only the bundles that log in with a password carry it.

/**
 * How old a device's record may grow before a password login from it writes it again: a day. Most logins of a
 * returning user on a known device write no device item.
 */
export const DEVICE_STALE_MS = DAY_MS;

/** Whether a password login from this device writes its record: a new device, or one not written for a day. */
export function deviceNeedsWrite(device: Device | null, now: Date): boolean {
  return device === null || Date.parse(device.lastSeenAt) <= now.getTime() - DEVICE_STALE_MS;
}

const toDevice = (item: Record<string, unknown>): Device => ({
  fingerprint: item.fingerprint as string,
  userAgent: item.userAgent as string,
  firstSeenAt: item.firstSeenAt as string,
  lastSeenAt: item.lastSeenAt as string,
  seenCount: item.seenCount as number,
});

/** A password login's reads and writes of its session (sessionRepo.start is every other sign-in's). */
export function passwordSession(store: StoreClient) {
  const { doc, tableName } = store;
  /**
   * A login's listing taken back (its session could not be stored): the entry removed, and lastLoginAt as it was
   * while no later login set it.
   */
  const unlist = async (t: TenantRef, session: Session, previousLastLoginAt: string | null) => {
    const base = {
      TableName: tableName,
      Key: keys.user(t, session.userId),
      ExpressionAttributeNames: { '#live': 'liveSessions', '#id': session.id },
    };
    const restored = await conditionalWrite(
      doc.send(
        new UpdateCommand({
          ...base,
          UpdateExpression: 'SET lastLoginAt = :previous REMOVE #live.#id',
          ConditionExpression: 'attribute_exists(#live) AND lastLoginAt = :ours',
          ExpressionAttributeValues: { ':previous': previousLastLoginAt, ':ours': session.createdAt },
        }),
      ),
    );
    if (!restored) {
      await doc.send(
        new UpdateCommand({
          ...base,
          UpdateExpression: 'REMOVE #live.#id',
          ConditionExpression: 'attribute_exists(#live)',
        }),
      );
    }
  };
  return {
    /**
     * userRepo.findByEmail, and the record of the device (by fingerprint) read beside the profile at no round trip
     * of its own: null when the device never signed in (or no user holds the address).
     */
    async findWithDevice(
      t: TenantRef,
      email: string,
      now: Date,
      fingerprint: string,
    ): Promise<{ user: User | null; device: Device | null }> {
      const claim = await getItem(store, keys.userEmail(t, email));
      if (!claim) return { user: null, device: null };
      const userId = claim.userId as string;
      const [user, device] = await Promise.all([
        userRepo(store).get(t, userId),
        getItem(store, keys.device(t, userId, fingerprint)),
      ]);
      if (!user || isExpiredSignup(user, now)) return { user: null, device: null };
      return { user, device: device ? toDevice(device) : null };
    },

    /**
     * A password login's session, without a transaction (a transaction bills each item twice): the same guarantees
     * as `start` for a login that commits nothing else and ends no session, in two steps.
     *
     * 1. The profile (the one conditional write): the credential epoch as read before the password was checked, the
     *    session listed (the expired forgotten), lastLoginAt. A password change, reset, disable or revoke-all that
     *    moved the epoch on refuses the login here (false), before anything else is written.
     * 2. Then, at once: the session (stamped with that epoch, so a change after step 1 ends it all the same: it is
     *    never live at another epoch), its LOGIN activity, and the device record when `device` (as read with the
     *    profile) is missing or stale (deviceNeedsWrite). The session is listed before it exists, so the 50 are
     *    never exceeded.
     *
     * Should any write of step 2 fail, what the login wrote is taken back (the session, its activity, the device as
     * it was, its listing and lastLoginAt) before the error goes on: a login is recorded whole or not at all. Only
     * expired entries forgotten from the list stay forgotten. A function that dies between the two steps leaves
     * the profile listing a session that was never stored, and lastLoginAt set: the entry grants nothing and
     * leaves the list with its 7 days (it counts towards the 50 until then); the transaction this replaces would
     * bill every item twice on every login for that case. `alongside` (a write that must never fail the login:
     * the lockout's place given back) goes with step 2, so that it costs no round trip of its own.
     */
    async start(
      t: TenantRef,
      session: Session,
      activity: TransactItem,
      cap: SessionCap,
      device: Device | null,
      previousLastLoginAt: string | null,
      alongside: () => Promise<void> = async () => {},
    ): Promise<boolean> {
      const profileKey = keys.user(t, session.userId);
      const listed = await conditionalWrite(
        doc.send(new UpdateCommand({ TableName: tableName, Key: profileKey, ...profileAtStart(session, {}, cap) })),
      );
      if (!listed) return false;
      const activityPut = activity.Put as { TableName: string; Item: Record<string, unknown> };
      const deviceKey = keys.device(t, session.userId, session.fingerprint);
      const writes: { undo(): Promise<unknown>; done: Promise<unknown> }[] = [
        {
          done: doc.send(
            new PutCommand({
              TableName: tableName,
              Item: {
                ...keys.session(t, session.userId, session.id),
                entity: 'SESSION',
                ...session,
                ttl: sessionTtl(session),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          ),
          undo: () =>
            doc.send(new DeleteCommand({ TableName: tableName, Key: keys.session(t, session.userId, session.id) })),
        },
        {
          done: doc.send(new PutCommand(activityPut)),
          undo: () =>
            doc.send(
              new DeleteCommand({ TableName: tableName, Key: { pk: activityPut.Item.pk, sk: activityPut.Item.sk } }),
            ),
        },
      ];
      if (deviceNeedsWrite(device, new Date(session.createdAt))) {
        // A whole record (a PutItem), counted from the one read: two logins racing from one device may count once.
        const seen: Device = {
          fingerprint: session.fingerprint,
          userAgent: session.userAgent,
          firstSeenAt: device?.firstSeenAt ?? session.createdAt,
          lastSeenAt: session.createdAt,
          seenCount: (device?.seenCount ?? 0) + 1,
        };
        writes.push({
          done: doc.send(new PutCommand({ TableName: tableName, Item: { ...deviceKey, entity: 'DEVICE', ...seen } })),
          undo: () =>
            device
              ? doc.send(new PutCommand({ TableName: tableName, Item: { ...deviceKey, entity: 'DEVICE', ...device } }))
              : doc.send(new DeleteCommand({ TableName: tableName, Key: deviceKey })),
        });
      }
      // Sent last: a write that fails the login is never sent after it (a throttled table refuses later calls too).
      const [outcomes] = await Promise.all([Promise.allSettled(writes.map((w) => w.done)), alongside()]);
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (!failed) return true;
      await Promise.allSettled([
        ...writes.filter((_, i) => outcomes[i]?.status === 'fulfilled').map((w) => w.undo()),
        unlist(t, session, previousLastLoginAt),
      ]);
      throw failed.reason;
    },
  };
}
