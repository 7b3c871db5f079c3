import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { conditionalWrite, conditionFailedAt } from './errors.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import type { TransactItem } from './transact.ts';
import { HOUR_MS, ttlAfter } from './ttl.ts';

export type ChallengeType = 'SIGNUP' | 'LOGIN_OTP' | 'LOGIN_TOTP' | 'PASSWORD_RESET' | 'EMAIL_CHANGE' | 'REAUTH';

/** Data a signup carries until its code is verified (then it is written to the user). */
export interface PendingProfile {
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone: string | null;
}

export interface Challenge {
  id: string;
  type: ChallengeType;
  /** null for a decoy: a challenge answered for an unknown e-mail, which no code can pass. */
  userId: string | null;
  /** The normalised e-mail the challenge was asked for (lockout counts per e-mail). */
  email: string;
  /** SHA-256 of salt + code (shared/auth/codes.ts); null for TOTP challenges. */
  codeHash: string | null;
  attempts: number;
  expiresAt: string;
  createdAt: string;
  consumedAt: string | null;
  pending: PendingProfile | null;
  /** E-mail change: the new address. */
  newEmail: string | null;
  /** A TOTP step: the user's credential epoch when the first factor was checked (absent on older steps). */
  credentialEpoch?: number;
  /** REAUTH: the session the code was asked in; the code freshens that session only. */
  sessionId?: string | null;
  /** A TOTP step: how the first factor was proven (`pwd` or `otp`, RFC 8176), for the session's `amr`. */
  firstFactor?: string;
  /**
   * A challenge whose own mail the per-recipient limit held back: the challenge whose code the address last
   * received (its `codeHash` is that code's, salted with that id). Using the code up consumes that challenge, so
   * the code completes either, once. Absent: the challenge holds its own code.
   */
  codeChallengeId?: string;
}

export const MAX_CODE_ATTEMPTS = 5;

function toChallenge(item: Record<string, unknown>): Challenge {
  return {
    id: item.id as string,
    type: item.type as ChallengeType,
    userId: (item.userId as string | null) ?? null,
    email: item.email as string,
    codeHash: (item.codeHash as string | null) ?? null,
    attempts: (item.attempts as number) ?? 0,
    expiresAt: item.expiresAt as string,
    createdAt: item.createdAt as string,
    consumedAt: (item.consumedAt as string | null) ?? null,
    pending: (item.pending as PendingProfile | null) ?? null,
    newEmail: (item.newEmail as string | null) ?? null,
    ...(typeof item.credentialEpoch === 'number' ? { credentialEpoch: item.credentialEpoch } : {}),
    sessionId: (item.sessionId as string | null | undefined) ?? null,
    ...(typeof item.firstFactor === 'string' ? { firstFactor: item.firstFactor } : {}),
    ...(typeof item.codeChallengeId === 'string' ? { codeChallengeId: item.codeChallengeId } : {}),
  };
}

/** The write that stores a new challenge: on its own, or in the transaction of what it belongs to (a new user). */
export function challengePut(tableName: string, t: TenantRef, challenge: Challenge) {
  return {
    TableName: tableName,
    Item: {
      ...keys.challenge(t, challenge.id),
      entity: 'CHALLENGE',
      ...challenge,
      // DynamoDB removes it some time after expiry; reads check expiresAt themselves.
      ttl: ttlAfter(challenge.expiresAt, HOUR_MS),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/**
 * The write that uses a challenge up. Single use is the condition's job: of
 * two verifications racing with the right code, exactly one consumes it. Put
 * in the transaction of the change the code allows, a failed change leaves
 * the code good for a retry.
 */
export function challengeConsumption(tableName: string, t: TenantRef, challengeId: string, now: Date) {
  return {
    TableName: tableName,
    Key: keys.challenge(t, challengeId),
    UpdateExpression: 'SET consumedAt = :now',
    ConditionExpression:
      'attribute_exists(pk) AND (attribute_not_exists(consumedAt) OR consumedAt = :null) AND attempts < :max AND expiresAt > :now',
    ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null, ':max': MAX_CODE_ATTEMPTS },
  };
}

export function challengeRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /** The write that stores a new challenge, for the transaction of what it belongs to (a new user). */
    putItem(t: TenantRef, challenge: Challenge): TransactItem {
      return { Put: challengePut(tableName, t, challenge) };
    },

    /** The write that uses a challenge up, for the transaction of the change its code allows (challengeConsumption). */
    consumeItem(t: TenantRef, challengeId: string, now: Date): TransactItem {
      return { Update: challengeConsumption(tableName, t, challengeId, now) };
    },

    async create(t: TenantRef, challenge: Challenge): Promise<void> {
      await doc.send(new PutCommand(challengePut(tableName, t, challenge)));
    },

    /**
     * Stores a signup's challenge and marks its user VALIDATION_SENT until the
     * code lapses, in one transaction, while the user is still INACTIVE: the
     * admin's view never says a code is out that is not. False (nothing
     * written) when the user is no longer INACTIVE: verified meanwhile.
     */
    async createForSignup(t: TenantRef, challenge: Challenge & { userId: string }): Promise<boolean> {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: challengePut(tableName, t, challenge) },
              {
                Update: {
                  TableName: tableName,
                  Key: keys.user(t, challenge.userId),
                  UpdateExpression: 'SET emailStatus = :sent, emailValidationExpiresAt = :until',
                  ConditionExpression: '#status = :inactive',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: {
                    ':sent': 'VALIDATION_SENT',
                    ':until': challenge.expiresAt,
                    ':inactive': 'INACTIVE',
                  },
                },
              },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (conditionFailedAt(error, 1)) return false;
        throw error;
      }
    },

    async get(t: TenantRef, challengeId: string): Promise<Challenge | null> {
      const Item = await getItem(store, keys.challenge(t, challengeId));
      return Item ? toChallenge(Item) : null;
    },

    /** Counts a wrong answer; the fifth kills the challenge. */
    async recordWrongAnswer(t: TenantRef, challengeId: string): Promise<void> {
      await conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.challenge(t, challengeId),
            UpdateExpression: 'ADD attempts :one',
            ConditionExpression: 'attribute_exists(pk) AND attempts < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': MAX_CODE_ATTEMPTS },
          }),
        ),
      );
    },

    /** Uses the challenge up on its own (see challengeConsumption); false when it cannot be. */
    async consume(t: TenantRef, challengeId: string, now: Date): Promise<boolean> {
      return conditionalWrite(doc.send(new UpdateCommand(challengeConsumption(tableName, t, challengeId, now))));
    },

    /**
     * Makes a challenge a decoy: its code hash removed, no code passes it any
     * more, and wrong answers count as on any decoy. For a code that was not
     * mailed (a mail limit held it back): the challenge then behaves exactly
     * as the decoy an unknown address gets, so nothing tells the two apart.
     */
    async disarm(t: TenantRef, challengeId: string): Promise<void> {
      await conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.challenge(t, challengeId),
            UpdateExpression: 'SET codeHash = :null',
            // Never an upsert: a challenge already gone stays gone.
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':null': null },
          }),
        ),
      );
    },

    /**
     * Binds a challenge whose mail was held back to the code of `mailed`, the challenge whose mail the address
     * last received: its code hash and salt, its expiry, and `codeChallengeId` naming it; while the challenge is
     * still of the same type and user. False (nothing written) otherwise.
     */
    async bindToCode(
      t: TenantRef,
      challengeId: string,
      mailed: Pick<Challenge, 'id' | 'type' | 'userId' | 'codeHash' | 'expiresAt'>,
    ): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.challenge(t, challengeId),
            UpdateExpression: 'SET codeHash = :hash, codeChallengeId = :mailed, expiresAt = :expiresAt',
            ConditionExpression: 'attribute_exists(pk) AND #type = :type AND userId = :userId',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':hash': mailed.codeHash,
              ':mailed': mailed.id,
              ':expiresAt': mailed.expiresAt,
              ':type': mailed.type,
              ':userId': mailed.userId,
            },
          }),
        ),
      );
    },

    async delete(t: TenantRef, challengeId: string): Promise<void> {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: keys.challenge(t, challengeId) }));
    },
  };
}
