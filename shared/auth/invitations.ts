import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { conditionFailedAt } from '../store/errors.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import { DAY_MS, ttlAfter } from '../store/ttl.ts';
import { newUserItems } from '../store/user-repo.ts';
import { newUser } from '../users/new-user.ts';
import { hashToken, newOpaqueToken } from './codes.ts';
import { INVITATION_TTL_MS } from './lifetimes.ts';

export interface Invitation {
  userId: string;
  email: string;
  expiresAt: string;
  usedAt: string | null;
}

/**
 * Invites a user: an INVITED user with its e-mail claim, and an invitation
 * found by the hash of its token (`inv_…`, 256 bits); the token itself is
 * returned once, for the invitation mail, and never stored.
 */
export async function createInvitation(
  deps: Deps,
  tenant: TenantRef,
  input: { email: string; firstName?: string | null; lastName?: string | null; invitedBy: string },
): Promise<{ userId: string; invitationToken: string; expiresAt: string }> {
  const now = deps.clock.now();
  // Signup compares the normalised address: an invitation must be made out to the same form.
  const email = input.email.trim().toLowerCase();
  const invitationToken = `inv_${newOpaqueToken()}`;
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  const user = await newUser(deps, tenant, {
    email,
    status: 'INVITED',
    // The invitation mail is the validation: VALIDATION_SENT for as long as the invitation is good.
    emailStatus: 'VALIDATION_SENT',
    emailValidationExpiresAt: expiresAt,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
  });
  const { profile, emailClaim } = newUserItems(tenant, user);
  const { tableName } = deps.store;
  try {
    await deps.store.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: emailClaim, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: tableName, Item: profile, ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Put: {
              TableName: tableName,
              Item: {
                ...keys.invitation(tenant, hashToken(invitationToken)),
                entity: 'INVITATION',
                userId: user.id,
                email: user.email,
                invitedBy: input.invitedBy,
                createdAt: now.toISOString(),
                expiresAt,
                usedAt: null,
                ttl: ttlAfter(expiresAt, DAY_MS),
              },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (conditionFailedAt(error, 0)) throw fail('ALREADY_EXISTS', 'a user with this e-mail exists');
    throw error;
  }
  return { userId: user.id, invitationToken, expiresAt };
}

/** The invitation a token names, if it is still good (unused, unexpired) for this e-mail. */
export async function findUsableInvitation(
  deps: Deps,
  tenant: TenantRef,
  token: string,
  email: string,
): Promise<(Invitation & { tokenHash: string }) | null> {
  const tokenHash = hashToken(token);
  const { Item } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: keys.invitation(tenant, tokenHash), ConsistentRead: true }),
  );
  if (!Item || Item.usedAt || Item.email !== email) return null;
  if (Date.parse(Item.expiresAt as string) <= deps.clock.now().getTime()) return null;
  return {
    tokenHash,
    userId: Item.userId as string,
    email: Item.email as string,
    expiresAt: Item.expiresAt as string,
    usedAt: null,
  };
}
