import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Grant, ListedUser, User } from '../users/types.ts';
import type { StoreClient } from './client.ts';
import type { FieldNames } from './fields.ts';
import { keys, passkeyKeys, signInProviderKeys, type TenantRef } from './keys.ts';
import { queryAll } from './query.ts';
import type { Device } from './session-repo.ts';
import type { TransactItem } from './transact.ts';
import { toUser } from './user-repo.ts';

/** What a listed user carries: the users index projects these (shared/store/table.ts), never a secret. */
export const LISTED_USER_FIELDS: FieldNames<ListedUser> = {
  id: true,
  email: true,
  emailStatus: true,
  emailValidationExpiresAt: true,
  firstName: true,
  lastName: true,
  phone: true,
  status: true,
  totpEnabled: true,
  grants: true,
  registeredAt: true,
  lastLoginAt: true,
  lockedUntil: true,
};

/**
 * A profile as the users index gives it. Read the way a profile is (toUser: older
 * `PENDING` e-mail statuses and absent fields alike), then only the listed fields
 * kept: the index carries no hash or secret, so a User built from it would say
 * "no password, no TOTP secret" where the profile has them.
 */
function toListedUser(item: Record<string, unknown>): ListedUser {
  const user = toUser(item);
  const listed: Partial<Record<keyof ListedUser, unknown>> = {};
  for (const name of Object.keys(LISTED_USER_FIELDS) as (keyof ListedUser)[]) listed[name] = user[name];
  return listed as ListedUser;
}

/**
 * What administration does to users (and the self-service routes never do):
 * tenant-wide lists, grants, status changes, deletion, devices. Apart from
 * user-repo.ts so that only the bundles that administer users carry it.
 */

export function userAdminRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * Every user of the tenant, from a Query on the users index (never a Scan), page after page:
     * what the user list shows of each (ListedUser), never a whole User.
     */
    async listAll(t: TenantRef): Promise<ListedUser[]> {
      const { gsi1pk } = keys.usersOfTenant(t, '');
      const items = await queryAll(store, {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
      });
      return items.map(toListedUser);
    },

    /** The write of a grant (one map entry on the profile, so concurrent grants and revocations stay consistent). */
    grantRoleItem(t: TenantRef, userId: string, grant: Grant): TransactItem {
      return {
        Update: {
          TableName: tableName,
          Key: keys.user(t, userId),
          UpdateExpression: 'SET grants.#role = :grant',
          // The user still exists.
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#role': grant.roleId },
          ExpressionAttributeValues: { ':grant': grant },
        },
      };
    },

    /** The removal of a grant, while the user holds it. */
    revokeRoleItem(t: TenantRef, userId: string, roleId: string): TransactItem {
      return {
        Update: {
          TableName: tableName,
          Key: keys.user(t, userId),
          UpdateExpression: 'REMOVE grants.#role',
          ConditionExpression: 'attribute_exists(grants.#role)',
          ExpressionAttributeNames: { '#role': roleId },
        },
      };
    },

    /**
     * A check that the user still holds this grant (unexpired at `now`) and is
     * still ACTIVE: written with a change a SUPER_ADMIN makes to another
     * SUPER_ADMIN, so that of two acting on each other at once, one is refused.
     */
    stillHoldsCheck(t: TenantRef, userId: string, roleId: string, now: Date): TransactItem {
      return {
        ConditionCheck: {
          TableName: tableName,
          Key: keys.user(t, userId),
          ConditionExpression:
            'attribute_exists(grants.#role) ' +
            'AND (attribute_not_exists(grants.#role.expiresAt) OR grants.#role.expiresAt = :null OR grants.#role.expiresAt > :now) ' +
            'AND #status = :active',
          ExpressionAttributeNames: { '#role': roleId, '#status': 'status' },
          ExpressionAttributeValues: { ':null': null, ':now': now.toISOString(), ':active': 'ACTIVE' },
        },
      };
    },

    /**
     * The writes that remove a user: the profile (while its address is still
     * the one read, so the claim deleted with it is theirs), the e-mail claim
     * (if still theirs) and the address's lockout.
     */
    deletionItems(t: TenantRef, user: Pick<User, 'id' | 'email'>) {
      return {
        profile: {
          Delete: {
            TableName: tableName,
            Key: keys.user(t, user.id),
            ConditionExpression: 'attribute_exists(pk) AND email = :email',
            ExpressionAttributeValues: { ':email': user.email },
          },
        } satisfies TransactItem,
        ...this.claimAndLockoutDeletion(t, user),
      };
    },

    /** The e-mail claim's delete (if the claim is still the user's) and the address's lockout's. */
    claimAndLockoutDeletion(t: TenantRef, user: Pick<User, 'id' | 'email'>) {
      return {
        emailClaim: {
          Delete: {
            TableName: tableName,
            Key: keys.userEmail(t, user.email),
            ConditionExpression: 'attribute_not_exists(pk) OR userId = :id',
            ExpressionAttributeValues: { ':id': user.id },
          },
        } satisfies TransactItem,
        lockout: { Delete: { TableName: tableName, Key: keys.lockout(t, user.email) } } satisfies TransactItem,
      };
    },

    /**
     * Every item of the user's own partitions (profile, sessions, devices, passkeys, linked provider accounts, used
     * refresh tokens; activity), and the tenant's claim of each passkey's credential id and of each provider account,
     * so that nothing the user registered is left behind.
     */
    async deletePartitions(t: TenantRef, userId: string): Promise<void> {
      const partitions = [keys.userPartition(t, userId), keys.activityPartition(t, userId)];
      for (const pk of partitions) {
        const found = await queryAll(store, {
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ProjectionExpression: 'pk, sk, subjectHash',
        });
        const items = found.flatMap((item) => {
          const key = { pk: item.pk as string, sk: item.sk as string };
          const sk = key.sk;
          if (sk.startsWith(passkeyKeys.prefix)) {
            return [key, passkeyKeys.claim(t, decodeURIComponent(sk.slice(passkeyKeys.prefix.length)))];
          }
          if (sk.startsWith(signInProviderKeys.identityPrefix) && typeof item.subjectHash === 'string') {
            const providerId = decodeURIComponent(sk.slice(signInProviderKeys.identityPrefix.length));
            return [key, signInProviderKeys.identityClaim(t, providerId, item.subjectHash)];
          }
          return [key];
        });
        for (let i = 0; i < items.length; i += 25) {
          let pending: Record<string, unknown>[] | undefined = items
            .slice(i, i + 25)
            .map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } }));
          // BatchWrite may leave some undone under load: retry those.
          for (let attempt = 0; pending && pending.length > 0 && attempt < 5; attempt++) {
            const result = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
            pending = result.UnprocessedItems?.[tableName] as Record<string, unknown>[] | undefined;
          }
          if (pending && pending.length > 0) throw new Error('user items left after retries');
        }
      }
    },

    /** The devices a user signed in from, with the latest User-Agent of each. */
    async devices(t: TenantRef, userId: string): Promise<Device[]> {
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.userPartition(t, userId), ':prefix': keys.devicePrefix },
        }),
      );
      return (Items ?? []).map((item) => ({
        fingerprint: item.fingerprint as string,
        userAgent: (item.userAgent as string | undefined) ?? '',
        firstSeenAt: item.firstSeenAt as string,
        lastSeenAt: item.lastSeenAt as string,
        seenCount: item.seenCount as number,
      }));
    },
  };
}
