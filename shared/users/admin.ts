import { BatchWriteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type ActivityType, recordActivity } from '../activity/record.ts';
import { hashToken } from '../auth/codes.ts';
import { createInvitation } from '../auth/invitations.ts';
import type { Principal } from '../auth/principal.ts';
import type { RequestInfo } from '../auth/refresh-token.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { newId } from '../random.ts';
import { actorIdOf, assertMayActOnUser, refusalOfActor, superAdminActorCheck } from '../roles/authority.ts';
import { conditionFailedAt, isTransactionCanceled } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import { transactAdminWrite } from '../store/transact.ts';
import { RECORD_RETENTION_MS, ttlAfter, ttlNow } from '../store/ttl.ts';
import { toUser } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from './types.ts';
import { toUserResponse } from './view.ts';

const USER_ID = /^usr_[0-9a-z]{20}$/;

/** The user of this tenant with this id, or 404 (ids of other tenants are simply not found here). */
export async function targetUser(deps: Deps, tenant: Merchant, id: string): Promise<User> {
  const user = USER_ID.test(id) ? await deps.users.get(tenant, id) : null;
  if (!user) throw fail('NOT_FOUND');
  return user;
}

/**
 * GET /users: the whole tenant in one answer, from a Query on the users
 * index (never a Scan), page after page. See README (Administration) for how
 * far one answer goes before Lambda's 6 MB response limit.
 */
export async function listUsers(deps: Deps, tenant: Merchant) {
  const now = deps.clock.now();
  const { gsi1pk } = keys.usersOfTenant(tenant, 'usr_00000000000000000000');
  const users = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) users.push(toUserResponse(toUser(item), now));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return users;
}

export async function getUser(deps: Deps, tenant: Merchant, id: string) {
  return toUserResponse(await targetUser(deps, tenant, id), deps.clock.now());
}

const STATUS_ACTIVITY: Record<'ACTIVE' | 'DISABLED' | 'COMPROMISED', ActivityType> = {
  ACTIVE: 'USER_ENABLED',
  DISABLED: 'USER_DISABLED',
  COMPROMISED: 'USER_COMPROMISED',
};

/**
 * PATCH /users/{id}/status: disabling or flagging a user ends every session at
 * once. On a SUPER_ADMIN, the actor is checked in the same transaction
 * (superAdminActorCheck): of two SUPER_ADMINs disabling each other at once,
 * the second is refused.
 */
export async function setUserStatus(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  id: string,
  status: 'ACTIVE' | 'DISABLED' | 'COMPROMISED',
  request: RequestInfo,
) {
  const now = deps.clock.now();
  const target = await targetUser(deps, tenant, id);
  assertMayActOnUser(principal, target, now);
  const actorCheck = superAdminActorCheck(deps, tenant, principal, target, now);
  const updated = actorCheck
    ? await setStatusCheckingActor(deps, tenant, principal, target, status, actorCheck)
    : await deps.users.update(tenant, target.id, { status }, target.status);
  if (!updated) throw fail('CONFLICT', 'the user changed meanwhile; try again');
  if (status !== 'ACTIVE') await deps.sessions.revokeAll(tenant, target.id, now);
  await recordActivity(deps, tenant, target.id, STATUS_ACTIVITY[status], { ...request, actorId: actorIdOf(principal) });
  return toUserResponse(updated, now);
}

/**
 * The status change of users.update (only while the status is still the one
 * read), in one transaction with the actor's check. The user as changed, or
 * null when the status changed meanwhile or the user is gone.
 */
async function setStatusCheckingActor(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  target: User,
  status: 'ACTIVE' | 'DISABLED' | 'COMPROMISED',
  actorCheck: NonNullable<ReturnType<typeof superAdminActorCheck>>,
): Promise<User | null> {
  try {
    await transactAdminWrite(deps, [
      {
        Update: {
          TableName: deps.store.tableName,
          Key: keys.user(tenant, target.id),
          UpdateExpression: 'SET #status = :status',
          ConditionExpression: 'attribute_exists(pk) AND #status = :seen',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status, ':seen': target.status },
        },
      },
      actorCheck,
    ]);
  } catch (error) {
    // The actor first: a moment later, its own standing would be judged before the target is looked at.
    if (conditionFailedAt(error, 1)) throw await refusalOfActor(deps, tenant, principal);
    if (conditionFailedAt(error, 0)) return null;
    throw error;
  }
  // Only the status was written, on the user as read.
  return { ...target, status };
}

/** DELETE /users/{id}/totp: an admin turns a user's TOTP off (recorded as TOTP_DISABLED by the admin). */
export async function resetUserTotp(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  id: string,
  request: RequestInfo,
) {
  const target = await targetUser(deps, tenant, id);
  assertMayActOnUser(principal, target, deps.clock.now());
  await deps.users.update(tenant, target.id, {
    totpEnabled: false,
    totpSecret: null,
    backupCodes: [],
    totpPendingSecret: null,
    totpPendingBackupCodes: [],
  });
  await recordActivity(deps, tenant, target.id, 'TOTP_DISABLED', { ...request, actorId: actorIdOf(principal) });
}

/** An opaque cursor: the last key of a page, bound to the partition it came from. */
function encodeCursor(key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ sk: key.sk }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, pk: string): Record<string, unknown> {
  try {
    const { sk } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { sk?: unknown };
    // Only an activity key's shape is taken: `<ISO time>#act_<id>`.
    if (typeof sk !== 'string' || !/^\d{4}-\d{2}-\d{2}T[0-9:.]+Z#act_[0-9a-z]{20}$/.test(sk))
      throw new Error('bad cursor');
    // Only the sort key travels; the partition is always the caller's target's, so a cursor cannot reach elsewhere.
    return { pk, sk };
  } catch {
    throw fail('VALIDATION_FAILED', {
      detail: 'cursor: is not valid',
      errors: [{ path: 'cursor', message: 'is not valid' }],
    });
  }
}

/** GET /users/{id}/activity?limit=&cursor=: newest first, `limit` 50 by default, at most 100. */
export async function listUserActivity(
  deps: Deps,
  tenant: Merchant,
  id: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
) {
  const target = await targetUser(deps, tenant, id);
  const pk = keys.activityPartition(tenant, target.id);
  const page = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: false,
      Limit: query.limit ?? 50,
      ...(query.cursor ? { ExclusiveStartKey: decodeCursor(query.cursor, pk) } : {}),
    }),
  );
  const now = ttlNow(deps.clock.now());
  return {
    // Retention is by TTL (400 days); DynamoDB Local never expires items, so expired ones are filtered here.
    items: (page.Items ?? [])
      .filter((item) => typeof item.ttl !== 'number' || item.ttl > now)
      .map((item) => ({
        id: item.id as string,
        type: item.type as ActivityType,
        at: item.at as string,
        ip: item.ip as string,
        userAgent: item.userAgent as string,
        actorId: item.actorId as string,
      })),
    nextCursor: page.LastEvaluatedKey ? encodeCursor(page.LastEvaluatedKey) : null,
  };
}

/** POST /users/invitations: an INVITED user and an invitation mail carrying `invitationToken=<token>`. */
export async function inviteUser(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: { email: string; firstName?: string | null | undefined; lastName?: string | null | undefined },
) {
  const invitation = await createInvitation(deps, tenant, {
    email: body.email,
    firstName: body.firstName ?? null,
    lastName: body.lastName ?? null,
    invitedBy: actorIdOf(principal),
  });
  try {
    await deps.mailer.send(tenant, body.email, { kind: 'INVITATION', invitationToken: invitation.invitationToken });
  } catch (error) {
    // No mail, no invitation: take the INVITED user and the invitation back so the address is free to invite again.
    await deleteUserItems(deps, tenant, invitation.userId, body.email, [
      keys.invitation(tenant, hashToken(invitation.invitationToken)),
    ]);
    throw error;
  }
  return { userId: invitation.userId, status: 'INVITED' as const };
}

/** Every item of a user, and `alsoKeys` (an invitation). */
async function deleteUserItems(
  deps: Deps,
  tenant: Merchant,
  userId: string,
  email: string,
  alsoKeys: { pk: string; sk: string }[] = [],
): Promise<void> {
  await deleteUserPartitions(deps, tenant, userId);
  await deps.store.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: emailClaimDelete(deps, tenant, userId, email) },
        { Delete: { TableName: deps.store.tableName, Key: keys.lockout(tenant, email) } },
        ...alsoKeys.map((Key) => ({ Delete: { TableName: deps.store.tableName, Key } })),
      ],
    }),
  );
}

/** The e-mail claim's delete, if the claim is still the user's. */
function emailClaimDelete(deps: Deps, tenant: Merchant, userId: string, email: string) {
  return {
    TableName: deps.store.tableName,
    Key: keys.userEmail(tenant, email),
    ConditionExpression: 'attribute_not_exists(pk) OR userId = :id',
    ExpressionAttributeValues: { ':id': userId },
  };
}

/** Every item of the user's own partitions (profile, sessions, devices, used refresh tokens; activity). */
async function deleteUserPartitions(deps: Deps, tenant: Merchant, userId: string): Promise<void> {
  const { doc, tableName } = deps.store;
  const partitions = [keys.userPartition(tenant, userId), keys.activityPartition(tenant, userId)];
  for (const pk of partitions) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ProjectionExpression: 'pk, sk',
          ExclusiveStartKey: startKey,
        }),
      );
      const items = page.Items ?? [];
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
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
}

/**
 * DELETE /users/{id}: the user is gone at once: profile, e-mail claim and
 * lockout removed with an audit record in one transaction (no token, refresh
 * or login works after it, and the address is free again). Then every other
 * item of theirs (sessions, devices, used tokens, activity) is deleted. That
 * clean-up comes after the deletion has happened: if DynamoDB fails it, the
 * answer is still 204 (a retry could not do more: the user is not found any
 * more), and what is left sits in partitions of a user id nothing reads or
 * reuses; the error is logged with the user id for an operator.
 */
export async function deleteUser(deps: Deps, tenant: Merchant, principal: Principal, id: string, request: RequestInfo) {
  const target = await targetUser(deps, tenant, id);
  const now = deps.clock.now();
  assertMayActOnUser(principal, target, now);
  const auditId = newId(deps.random, 'aud');
  const { tableName } = deps.store;
  const actorCheck = superAdminActorCheck(deps, tenant, principal, target, now);
  try {
    await transactAdminWrite(deps, [
      {
        Delete: {
          TableName: tableName,
          Key: keys.user(tenant, target.id),
          // The address read is still the user's, so the claim deleted below is theirs.
          ConditionExpression: 'attribute_exists(pk) AND email = :email',
          ExpressionAttributeValues: { ':email': target.email },
        },
      },
      { Delete: emailClaimDelete(deps, tenant, target.id, target.email) },
      { Delete: { TableName: tableName, Key: keys.lockout(tenant, target.email) } },
      {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.audit(tenant, now.toISOString(), auditId),
            entity: 'AUDIT',
            id: auditId,
            type: 'USER_DELETED',
            subjectId: target.id,
            at: now.toISOString(),
            ip: request.ip,
            userAgent: request.userAgent.slice(0, 512),
            actorId: actorIdOf(principal),
            ttl: ttlAfter(now, RECORD_RETENTION_MS),
          },
        },
      },
      // Of two SUPER_ADMINs deleting each other at once, the second is refused.
      ...(actorCheck ? [actorCheck] : []),
    ]);
  } catch (error) {
    // The actor first: a moment later, its own standing would be judged before the target is looked at.
    if (actorCheck && conditionFailedAt(error, 4)) throw await refusalOfActor(deps, tenant, principal);
    if (isTransactionCanceled(error)) throw fail('CONFLICT', 'the user changed meanwhile; try again');
    throw error;
  }
  await deleteUserPartitions(deps, tenant, target.id).catch((error: unknown) => {
    deps.log.error('user deleted; clean-up of their items incomplete', {
      userId: target.id,
      errorName: error instanceof Error ? error.name : typeof error,
    });
  });
}
