import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CHALLENGE_TTL_MS, INVITATION_TTL_MS, UNVERIFIED_SIGNUP_TTL_MS } from '../lifetimes.ts';
import type { EmailStatus, Grant, StoredUserStatus, User } from '../users/types.ts';
import type { StoreClient } from './client.ts';
import { bumpClauses, type EpochBump } from './credential-epoch.ts';
import { conditionalWrite, conditionFailedAt, isConditionFailure } from './errors.ts';
import { keys, type TenantRef } from './keys.ts';
import { batchGetConsistent, getItem } from './prefetch.ts';
import type { TransactItem } from './transact.ts';
import { ttlAfter } from './ttl.ts';

/**
 * Profiles written before VALIDATION_SENT say `PENDING` and keep no lapse
 * instant: read as VALIDATION_SENT until the code or invitation made with the
 * user (at `registeredAt`) lapsed. A signup code sent again later is not
 * known for these, so such a user may show UNVALIDATED a little early.
 */
function emailValidationOf(item: Record<string, unknown>): Pick<User, 'emailStatus' | 'emailValidationExpiresAt'> {
  if (item.emailStatus === 'PENDING' || item.emailStatus === undefined) {
    const lifetime = item.status === 'INVITED' ? INVITATION_TTL_MS : CHALLENGE_TTL_MS;
    const registered = Date.parse(item.registeredAt as string);
    return {
      emailStatus: 'VALIDATION_SENT',
      emailValidationExpiresAt: Number.isNaN(registered) ? null : new Date(registered + lifetime).toISOString(),
    };
  }
  return {
    emailStatus: item.emailStatus as EmailStatus,
    emailValidationExpiresAt: (item.emailValidationExpiresAt as string | null | undefined) ?? null,
  };
}

export function toUser(item: Record<string, unknown>): User {
  return {
    id: item.id as string,
    email: item.email as string,
    ...emailValidationOf(item),
    firstName: (item.firstName as string | null) ?? null,
    lastName: (item.lastName as string | null) ?? null,
    phone: (item.phone as string | null) ?? null,
    status: item.status as StoredUserStatus,
    passwordHash: (item.passwordHash as string | null) ?? null,
    totpEnabled: item.totpEnabled === true,
    totpSecret: (item.totpSecret as string | null) ?? null,
    totpLastStep: (item.totpLastStep as number | null) ?? null,
    backupCodes: Object.keys((item.backupCodes as Record<string, true> | undefined) ?? {}),
    totpPendingSecret: (item.totpPendingSecret as string | null) ?? null,
    totpPendingBackupCodes: Object.keys((item.totpPendingBackupCodes as Record<string, true> | undefined) ?? {}),
    grants: (item.grants as Record<string, Grant> | undefined) ?? {},
    registeredAt: item.registeredAt as string,
    lastLoginAt: (item.lastLoginAt as string | null) ?? null,
    lockedUntil: (item.lockedUntil as string | null) ?? null,
    // Profiles stored before epochs are at epoch 0, and list no sessions yet (null, not {}: see sessionRepo.start).
    credentialEpoch: (item.credentialEpoch as number | undefined) ?? 0,
    passkeyCount: (item.passkeyCount as number | undefined) ?? 0,
    liveSessions: (item.liveSessions as Record<string, string> | undefined) ?? null,
    invitationHash: (item.invitationHash as string | null | undefined) ?? null,
  };
}

const BACKUP_CODE_FIELDS = new Set(['backupCodes', 'totpPendingBackupCodes']);

/**
 * Profile fields a change may set (grants change one by one: grantRoleItem, revokeRoleItem; the
 * credential epoch and the live-session list only through an EpochBump and sessionRepo).
 */
export type ProfileFields = Partial<Omit<User, 'id' | 'grants' | 'credentialEpoch' | 'liveSessions' | 'passkeyCount'>>;
/** Fields a change expects to find as read. */
export type ProfileExpectation = Partial<
  Pick<User, 'email' | 'totpEnabled' | 'totpPendingSecret' | 'status' | 'passwordHash' | 'invitationHash'>
>;

/**
 * An UpdateItem of the profile: `fields` set, while the user exists and `when` holds; with `bump`,
 * every session of the user ends in the same write (credential-epoch.ts).
 */
function profileUpdate(
  tableName: string,
  t: TenantRef,
  userId: string,
  fields: ProfileFields,
  when: ProfileExpectation,
  bump?: EpochBump,
) {
  const entries = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(
      ([field, value]) => [field, BACKUP_CODE_FIELDS.has(field) ? backupCodeMap(value as string[]) : value] as const,
    );
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = entries.map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  const conditions = ['attribute_exists(pk)'];
  Object.entries(when).forEach(([field, value], i) => {
    names[`#c${i}`] = field;
    values[`:c${i}`] = value;
    conditions.push(`#c${i} = :c${i}`);
  });
  // The sessions end in the write of the change itself: no moment where one is made and the other not.
  const ending = bump ? bumpClauses(bump, { names, values }) : null;
  if (ending) sets.push(ending.set);
  if (ending?.condition) conditions.push(ending.condition);
  return {
    TableName: tableName,
    Key: keys.user(t, userId),
    // An empty change still checks the conditions (and users.update reads the user back).
    UpdateExpression:
      (sets.length > 0 ? `SET ${sets.join(', ')}` : 'SET #entity = #entity') + (ending ? ` ADD ${ending.add}` : ''),
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: sets.length > 0 ? names : { ...names, '#entity': 'entity' },
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}

/**
 * Backup code hashes are stored as a map (hash → true), so that one is used
 * up by name: two different codes used at once both work, one code twice does not.
 */
export function backupCodeMap(hashes: readonly string[]): Record<string, true> {
  return Object.fromEntries(hashes.map((hash) => [hash, true as const]));
}

/**
 * A signup never verified, 24 hours after it was made: gone for every read
 * (DynamoDB deletes it some time after its `ttl`, DynamoDB Local never does),
 * and its address free. Judged from `status` and `registeredAt`, which every
 * read has (the users index projects both), rather than from `ttl`, which the
 * index would have to project too: adding it would replace the index on a
 * deployed table (shared/store/table.ts). INACTIVE profiles from before the
 * `ttl` expire alike. Only INACTIVE is a signup never verified.
 */
export function isExpiredSignup(user: Pick<User, 'status' | 'registeredAt'>, now: Date): boolean {
  return user.status === 'INACTIVE' && Date.parse(user.registeredAt) + UNVERIFIED_SIGNUP_TTL_MS <= now.getTime();
}

/** The items that make a new user: profile (listed in the tenant's user index) and the e-mail claim. */
export function newUserItems(t: TenantRef, user: User) {
  // An unverified signup lapses with its `ttl` (isExpiredSignup), its claim too; verifying it takes both off.
  const lapse = user.status === 'INACTIVE' ? { ttl: ttlAfter(user.registeredAt, UNVERIFIED_SIGNUP_TTL_MS) } : {};
  return {
    profile: {
      ...keys.user(t, user.id),
      ...keys.usersOfTenant(t, user.id),
      entity: 'USER',
      ...user,
      backupCodes: backupCodeMap(user.backupCodes),
      totpPendingBackupCodes: backupCodeMap(user.totpPendingBackupCodes),
      ...lapse,
    },
    emailClaim: { ...keys.userEmail(t, user.email), entity: 'USER_EMAIL', userId: user.id, ...lapse },
  };
}

export function userRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    async get(t: TenantRef, userId: string): Promise<User | null> {
      const Item = await getItem(store, keys.user(t, userId));
      return Item ? toUser(Item) : null;
    },

    /**
     * The user holding this (normalised) e-mail in the tenant: the claim, then
     * the profile. A signup never verified is not found once expired (`now`,
     * the injected clock): its address is free (isExpiredSignup).
     */
    async findByEmail(t: TenantRef, email: string, now: Date): Promise<User | null> {
      const claim = await getItem(store, keys.userEmail(t, email));
      const user = claim ? await this.get(t, claim.userId as string) : null;
      return user && !isExpiredSignup(user, now) ? user : null;
    },

    /**
     * Creates a user with its e-mail claim (and `also`: a signup's challenge,
     * an invitation) in one transaction. The claim's condition is the
     * uniqueness guarantee: of two signups with one e-mail, exactly one
     * creates the user.
     */
    async create(t: TenantRef, user: User, also: readonly TransactItem[] = []): Promise<'CREATED' | 'EMAIL_TAKEN'> {
      const { profile, emailClaim } = newUserItems(t, user);
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: emailClaim, ConditionExpression: 'attribute_not_exists(pk)' } },
              { Put: { TableName: tableName, Item: profile, ConditionExpression: 'attribute_not_exists(pk)' } },
              ...also,
            ],
          }),
        );
        return 'CREATED';
      } catch (error) {
        if (conditionFailedAt(error, 0)) return 'EMAIL_TAKEN';
        throw error;
      }
    },

    /** Removes a user that never became real (a signup whose code could not be sent). */
    async deleteUnverified(t: TenantRef, user: Pick<User, 'id' | 'email'>): Promise<void> {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: tableName,
                Key: keys.user(t, user.id),
                ConditionExpression: '#status = :inactive',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':inactive': 'INACTIVE' },
              },
            },
            {
              Delete: {
                TableName: tableName,
                Key: keys.userEmail(t, user.email),
                ConditionExpression: 'userId = :id',
                ExpressionAttributeValues: { ':id': user.id },
              },
            },
          ],
        }),
      );
    },

    /**
     * Sets fields of the profile and answers the updated user. With `when`,
     * only while those fields hold those values (else null: the change lost a
     * race or the user is not in the expected state). With `expectStatus`,
     * only while the user has that status.
     */
    async update(
      t: TenantRef,
      userId: string,
      fields: ProfileFields,
      expectStatus?: StoredUserStatus,
      when: ProfileExpectation = {},
      bump?: EpochBump,
    ): Promise<User | null> {
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            ...profileUpdate(
              tableName,
              t,
              userId,
              fields,
              { ...when, ...(expectStatus ? { status: expectStatus } : {}) },
              bump,
            ),
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? toUser(Attributes) : null;
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },

    /** The write of users.update, for the transaction of a change it belongs to (its condition named by the caller). */
    updateItem(
      t: TenantRef,
      userId: string,
      fields: ProfileFields,
      when: ProfileExpectation = {},
      bump?: EpochBump,
    ): TransactItem {
      return { Update: profileUpdate(tableName, t, userId, fields, when, bump) };
    },

    /** The claim of an address for a user, while nobody holds it (addresses are unique per tenant). */
    claimEmailItem(t: TenantRef, email: string, userId: string): TransactItem {
      return {
        Put: {
          TableName: tableName,
          Item: { ...keys.userEmail(t, email), entity: 'USER_EMAIL', userId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      };
    },

    /** The release of an address's claim, while it is this user's. */
    releaseEmailItem(t: TenantRef, email: string, userId: string): TransactItem {
      return {
        Delete: {
          TableName: tableName,
          Key: keys.userEmail(t, email),
          ConditionExpression: 'userId = :me',
          ExpressionAttributeValues: { ':me': userId },
        },
      };
    },

    /**
     * Accepts a TOTP time step once: the conditional write refuses a step at
     * or before the last one accepted, so a code (or a replay of it) works once.
     */
    async acceptTotpStep(t: TenantRef, userId: string, step: number): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.user(t, userId),
            UpdateExpression: 'SET totpLastStep = :step',
            ConditionExpression:
              'totpEnabled = :true AND (attribute_not_exists(totpLastStep) OR totpLastStep < :step OR totpLastStep = :null)',
            ExpressionAttributeValues: { ':step': step, ':true': true, ':null': null },
          }),
        ),
      );
    },

    /** Uses up one backup code: the list shrinks only if the code is still in it (single use under races). */
    async useBackupCode(t: TenantRef, user: User, codeHash: string): Promise<boolean> {
      if (!user.backupCodes.includes(codeHash)) return false;
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.user(t, user.id),
            UpdateExpression: 'REMOVE backupCodes.#code',
            ConditionExpression: 'attribute_exists(backupCodes.#code)',
            ExpressionAttributeNames: { '#code': codeHash },
          }),
        ),
      );
    },

    /**
     * The bearer check's read (and refresh's): the user and the session in one strongly consistent
     * BatchGetItem, or from what the route prefetched with its tenant.
     */
    async getWithSession(
      t: TenantRef,
      userId: string,
      sessionId: string,
    ): Promise<{ user: User | null; session: Record<string, unknown> | null }> {
      const userKey = keys.user(t, userId);
      const sessionKey = keys.session(t, userId, sessionId);
      // Both read with the tenant already (the route's prefetch): no round trip of their own.
      const prefetchedUser = store.prefetched?.take(userKey);
      const prefetchedSession = store.prefetched?.take(sessionKey);
      if (prefetchedUser !== undefined && prefetchedSession !== undefined) {
        return { user: prefetchedUser ? toUser(prefetchedUser) : null, session: prefetchedSession };
      }
      const items = await batchGetConsistent(store, [userKey, sessionKey]);
      const find = (key: { pk: string; sk: string }) => items.find((item) => item.pk === key.pk && item.sk === key.sk);
      const profile = find(userKey);
      return { user: profile ? toUser(profile) : null, session: find(sessionKey) ?? null };
    },
  };
}
