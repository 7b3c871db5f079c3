import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../users/types.ts';
import type { StoreClient } from './client.ts';
import { conditionalWrite, isConditionFailure } from './errors.ts';
import { keys, passkeyKeys, type TenantRef } from './keys.ts';
import { batchGetConsistent, getItem } from './prefetch.ts';
import type { TransactItem } from './transact.ts';
import { ttlAfter } from './ttl.ts';
import { toUser } from './user-repo.ts';

/** What the authenticator said of a credential (WebAuthn's backup eligibility): kept on one device, or synced. */
export type PasskeyDeviceType = 'singleDevice' | 'multiDevice';

/** A user's passkey: a WebAuthn credential of the tenant's relying party. */
export interface Passkey {
  /** `pkey_` + the start of the credential id's SHA-256: the same credential always has the same id. */
  id: string;
  userId: string;
  /** The credential id, base64url, as the authenticator made it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter at its last use (0 for authenticators that keep none). */
  counter: number;
  transports: string[];
  deviceType: PasskeyDeviceType;
  backedUp: boolean;
  /** The authenticator model's AAGUID (all zeros when it does not say). */
  aaguid: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** What a passkey challenge is for: adding a passkey, signing in, or proving it is you again in a session. */
export type PasskeyCeremony = 'REGISTER' | 'SIGN_IN' | 'REAUTH';

/** A WebAuthn challenge handed out and not yet answered; found by the SHA-256 of the challenge. */
export interface PasskeyChallenge {
  ceremony: PasskeyCeremony;
  /** REGISTER and REAUTH: the signed-in user, and the session it was asked in. */
  userId: string | null;
  sessionId: string | null;
  /** SIGN_IN with an address given: only that address's passkeys answer it. */
  email: string | null;
  expiresAt: string;
}

/** At most this many passkeys per user (Cognito's number): a stolen session cannot fill the profile. */
export const MAX_PASSKEYS_PER_USER = 20;

function toPasskey(item: Record<string, unknown>): Passkey {
  return {
    id: item.id as string,
    userId: item.userId as string,
    credentialId: item.credentialId as string,
    publicKey: item.publicKey as string,
    counter: (item.counter as number | undefined) ?? 0,
    transports: (item.transports as string[] | undefined) ?? [],
    deviceType: item.deviceType as PasskeyDeviceType,
    backedUp: item.backedUp === true,
    aaguid: (item.aaguid as string | undefined) ?? '',
    name: item.name as string,
    createdAt: item.createdAt as string,
    lastUsedAt: (item.lastUsedAt as string | null | undefined) ?? null,
  };
}

/**
 * Passkeys (PASSKEY, beside the user), the claim that makes a credential id unique in the tenant (PASSKEY_ID),
 * the count on the profile that caps them, and the challenges of their ceremonies (PASSKEY_CHALLENGE).
 */
export function passkeyRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    async list(t: TenantRef, userId: string): Promise<Passkey[]> {
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.userPartition(t, userId), ':prefix': passkeyKeys.prefix },
        }),
      );
      return (Items ?? []).map(toPasskey).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async get(t: TenantRef, userId: string, passkeyId: string): Promise<Passkey | null> {
      const item = await getItem(store, passkeyKeys.passkey(t, userId, passkeyId));
      return item ? toPasskey(item) : null;
    },

    /** A user and one of their passkeys, in one read (both live in the user's partition). */
    async getWithUser(
      t: TenantRef,
      userId: string,
      passkeyId: string,
    ): Promise<{ user: User | null; passkey: Passkey | null }> {
      const profileKey = keys.user(t, userId);
      const items = await batchGetConsistent(store, [profileKey, passkeyKeys.passkey(t, userId, passkeyId)]);
      const profile = items.find((item) => item.sk === profileKey.sk);
      const passkey = items.find((item) => item.sk !== profileKey.sk);
      return { user: profile ? toUser(profile) : null, passkey: passkey ? toPasskey(passkey) : null };
    },

    /**
     * The writes that add a passkey: the passkey, its credential id claimed in the tenant (`claim` fails for an id
     * any user of the tenant holds), and the profile's count, raised while under MAX_PASSKEYS_PER_USER and while
     * the profile is still at the credential epoch read (`count` fails otherwise).
     */
    addItems(t: TenantRef, passkey: Passkey, epoch: number) {
      return {
        passkey: {
          Put: {
            TableName: tableName,
            Item: { ...passkeyKeys.passkey(t, passkey.userId, passkey.id), entity: 'PASSKEY', ...passkey },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        } satisfies TransactItem,
        claim: {
          Put: {
            TableName: tableName,
            Item: { ...passkeyKeys.claim(t, passkey.id), entity: 'PASSKEY_ID', userId: passkey.userId },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        } satisfies TransactItem,
        count: {
          Update: {
            TableName: tableName,
            Key: keys.user(t, passkey.userId),
            UpdateExpression: 'ADD passkeyCount :one',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(passkeyCount) OR passkeyCount < :max) ' +
              'AND (attribute_not_exists(credentialEpoch) OR credentialEpoch = :epoch)',
            ExpressionAttributeValues: { ':one': 1, ':max': MAX_PASSKEYS_PER_USER, ':epoch': epoch },
          },
        } satisfies TransactItem,
      };
    },

    /** The writes that remove a passkey (`passkey` fails when it is already gone): it, its claim, the count. */
    removeItems(t: TenantRef, userId: string, passkeyId: string) {
      return {
        passkey: {
          Delete: {
            TableName: tableName,
            Key: passkeyKeys.passkey(t, userId, passkeyId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        } satisfies TransactItem,
        claim: {
          Delete: {
            TableName: tableName,
            Key: passkeyKeys.claim(t, passkeyId),
            ConditionExpression: 'attribute_not_exists(pk) OR userId = :userId',
            ExpressionAttributeValues: { ':userId': userId },
          },
        } satisfies TransactItem,
        count: {
          Update: {
            TableName: tableName,
            Key: keys.user(t, userId),
            UpdateExpression: 'ADD passkeyCount :minusOne',
            ConditionExpression: 'attribute_exists(pk) AND passkeyCount > :zero',
            ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
          },
        } satisfies TransactItem,
      };
    },

    /** A new name; false when the passkey is gone. */
    async rename(t: TenantRef, userId: string, passkeyId: string, name: string): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: passkeyKeys.passkey(t, userId, passkeyId),
            UpdateExpression: 'SET #name = :name',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: { ':name': name },
          }),
        ),
      );
    },

    /**
     * A sign-in's use of the passkey, for the session's transaction: the counter the authenticator reported and the
     * time, while the counter is still the one the signature was checked against (of two sign-ins racing with one
     * counter value, one commits).
     */
    usedItem(t: TenantRef, passkey: Passkey, counter: number, now: Date): TransactItem {
      return {
        Update: {
          TableName: tableName,
          Key: passkeyKeys.passkey(t, passkey.userId, passkey.id),
          UpdateExpression: 'SET #counter = :counter, lastUsedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND #counter = :read',
          ExpressionAttributeNames: { '#counter': 'counter' },
          ExpressionAttributeValues: { ':counter': counter, ':now': now.toISOString(), ':read': passkey.counter },
        },
      };
    },

    /** Stores a challenge by its hash, for at most its lifetime. */
    async putChallenge(t: TenantRef, challengeHash: string, challenge: PasskeyChallenge): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...passkeyKeys.challenge(t, challengeHash),
            entity: 'PASSKEY_CHALLENGE',
            ...challenge,
            ttl: ttlAfter(challenge.expiresAt),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    /**
     * Uses a challenge up: deleted whether or not its answer then verifies, so each is answered once. Null when it
     * is unknown, used, expired, or for another ceremony.
     */
    async takeChallenge(
      t: TenantRef,
      challengeHash: string,
      ceremony: PasskeyCeremony,
      now: Date,
    ): Promise<PasskeyChallenge | null> {
      try {
        const { Attributes } = await doc.send(
          new DeleteCommand({
            TableName: tableName,
            Key: passkeyKeys.challenge(t, challengeHash),
            ConditionExpression: 'attribute_exists(pk) AND ceremony = :ceremony AND expiresAt > :now',
            ExpressionAttributeValues: { ':ceremony': ceremony, ':now': now.toISOString() },
            ReturnValues: 'ALL_OLD',
          }),
        );
        if (!Attributes) return null;
        return {
          ceremony: Attributes.ceremony as PasskeyCeremony,
          userId: (Attributes.userId as string | null) ?? null,
          sessionId: (Attributes.sessionId as string | null) ?? null,
          email: (Attributes.email as string | null) ?? null,
          expiresAt: Attributes.expiresAt as string,
        };
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },
  };
}
