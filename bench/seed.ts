// Tenants with many users, written straight to the table (BatchWriteItem), every user with one shared argon2id hash:
// what the bench's loads and timing pairs sign in as.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '#shared/deps.ts';
import { newId } from '#shared/random.ts';
import { newUserItems } from '#shared/store/user-repo.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { newUser } from '#shared/users/new-user.ts';

/**
 * A tenant taking both login modes (password and e-mail code logins run against the same tenant), open to sign-ups,
 * with `userCount` ACTIVE users `user<i>@<name>.test`, each with the password `phc` hashes.
 */
export async function seedTenant(
  deps: Deps,
  options: { name: string; userCount: number; phc: string; origin: string },
) {
  const { name, userCount, phc } = options;
  const tenant = await createTenant(deps, {
    name,
    adminEmail: `admin@${name}.test`,
    origins: [options.origin],
    loginMode: 'PASSWORD_OR_OTP_EMAIL',
    signupMode: 'OPEN',
  });
  const t = { app: tenant.app, mid: tenant.mid };
  const template = await newUser(deps, t, { email: 'x@x.test', status: 'ACTIVE', emailStatus: 'VALIDATED' });
  const emails: string[] = [];
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < userCount; i++) {
    const email = `user${i}@${name}.test`;
    emails.push(email);
    const user = { ...template, id: newId(deps.random, 'usr'), email, passwordHash: phc };
    const { profile, emailClaim } = newUserItems(t, user);
    items.push(profile, emailClaim);
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const writeBatch = async (batch: Record<string, unknown>[]) => {
    let pending: unknown[] = batch.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const result = await deps.store.doc.send(
        new BatchWriteCommand({ RequestItems: { [deps.store.tableName]: pending as never } }),
      );
      pending = result.UnprocessedItems?.[deps.store.tableName] ?? [];
    }
  };
  for (let i = 0; i < batches.length; i += 8) await Promise.all(batches.slice(i, i + 8).map(writeBatch));
  const headers = { 'content-type': 'application/json', 'x-app-id': tenant.app, 'x-mid-key': tenant.mid };
  return { tenant, t, emails, headers };
}
