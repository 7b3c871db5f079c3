import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Deps } from '#shared/deps.ts';
import { getMyMerchant, updateMerchant } from '#shared/merchants/service.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aMerchant } from '#test/support/builders.ts';
import { makeTestDeps } from '#test/support/deps.ts';

let counter = 0;
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++counter}`;
const origin = (label: string) => `https://${label}-${unique()}.example`;

/** A tenant as the CLI makes it, and its merchant as the tenant stage reads it. */
async function aTenant(deps: Deps, origins: string[]): Promise<Merchant> {
  const created = await createTenant(deps, {
    name: `Shop ${unique()}`,
    adminEmail: `owner-${unique()}@shop.test`,
    origins,
    subdomain: `m-${unique()}`,
  });
  const merchant = await merchantRepo(deps.store).get(created);
  if (!merchant) throw new Error('tenant not created');
  return merchant;
}

/** The tenants the ORIGIN index lists for an origin (what CORS preflight reads). */
async function indexedTenants(deps: Deps, value: string): Promise<string[]> {
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.originPartition(value) },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => item.sk as string);
}

describe('updateMerchant (DynamoDB Local)', () => {
  it('writes the merchant and the ORIGIN index together: added origins put, removed ones deleted', async () => {
    const deps = makeTestDeps();
    const [kept, removed, added] = [origin('kept'), origin('removed'), origin('added')];
    const tenant = await aTenant(deps, [kept, removed]);
    const own = keys.merchant(tenant).pk;

    const res = await updateMerchant(deps, tenant, tenant.id, { allowedOrigins: [kept, added], name: 'Renamed' });
    expect(res).toMatchObject({ allowedOrigins: [kept, added], name: 'Renamed' });
    expect(await merchantRepo(deps.store).get(tenant)).toEqual({ ...tenant, ...res });
    expect(await indexedTenants(deps, kept)).toEqual([own]);
    expect(await indexedTenants(deps, added)).toEqual([own]);
    expect(await indexedTenants(deps, removed)).toEqual([]);
  });

  it("leaves other tenants' entries of a shared origin alone", async () => {
    const deps = makeTestDeps();
    const shared = origin('shared');
    const a = await aTenant(deps, [shared]);
    const b = await aTenant(deps, [shared]);
    await updateMerchant(deps, a, a.id, { allowedOrigins: [] });
    expect(await indexedTenants(deps, shared)).toEqual([keys.merchant(b).pk]);
    expect(await merchantRepo(deps.store).anyTenantAllowsOrigin(shared)).toBe(true);
  });

  it('applies a change made from a stale read over the fresh state, so the index never drifts', async () => {
    const deps = makeTestDeps();
    const [o1, o2, o3] = [origin('one'), origin('two'), origin('three')];
    const stale = await aTenant(deps, [o1]);
    // Two admins read the same merchant; the first adds o2, the second (still holding [o1]) sets [o1, o3].
    await updateMerchant(deps, stale, stale.id, { allowedOrigins: [o1, o2] });
    const second = await updateMerchant(deps, stale, stale.id, { allowedOrigins: [o1, o3], primaryColor: '#123456' });
    expect(second.allowedOrigins).toEqual([o1, o3]);
    const stored = await merchantRepo(deps.store).get(stale);
    expect(stored).toMatchObject({ allowedOrigins: [o1, o3], primaryColor: '#123456' });
    // Had the second write diffed against its stale [o1], o2 would stay indexed for preflight.
    expect(await merchantRepo(deps.store).anyTenantAllowsOrigin(o2)).toBe(false);
    expect(await merchantRepo(deps.store).anyTenantAllowsOrigin(o3)).toBe(true);
  });

  it('keeps concurrent changes whole: the index equals the final allowedOrigins', async () => {
    const deps = makeTestDeps();
    const base = origin('base');
    const tenant = await aTenant(deps, [base]);
    const lists = [0, 1, 2, 3].map((i) => [base, origin(`c${i}`)]);
    const outcomes = await Promise.allSettled(
      lists.map((allowedOrigins) => updateMerchant(deps, tenant, tenant.id, { allowedOrigins })),
    );
    // Each change lands whole, or (after its retries) answers 409 CONFLICT having written nothing.
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'CONFLICT' });
    }
    expect(outcomes.some((outcome) => outcome.status === 'fulfilled')).toBe(true);
    const final = await merchantRepo(deps.store).get(tenant);
    const own = keys.merchant(tenant).pk;
    for (const value of lists.flat()) {
      const indexed = (await indexedTenants(deps, value)).includes(own);
      expect(indexed, value).toBe(final?.allowedOrigins.includes(value));
    }
  });

  it('moves updatedAt forward even when the clock stands still, and writes nothing for an empty change', async () => {
    const frozen = new Date('2030-01-01T00:00:00.000Z');
    const deps = makeTestDeps({ clock: { now: () => frozen } });
    const tenant = await aTenant(deps, [origin('clock')]);
    const first = await updateMerchant(deps, tenant, tenant.id, { name: 'One' });
    const fresh = (await merchantRepo(deps.store).get(tenant)) as Merchant;
    const second = await updateMerchant(deps, fresh, fresh.id, { name: 'Two' });
    // Created at the frozen instant, then one millisecond later per change.
    expect(tenant.updatedAt).toBe(frozen.toISOString());
    expect(first.updatedAt).toBe(new Date(frozen.getTime() + 1).toISOString());
    expect(second.updatedAt).toBe(new Date(frozen.getTime() + 2).toISOString());
    const latest = (await merchantRepo(deps.store).get(tenant)) as Merchant;
    expect(await updateMerchant(deps, latest, latest.id, {})).toEqual(await getMyMerchant(deps, latest));
    expect(await merchantRepo(deps.store).get(tenant)).toEqual(latest);
  });

  it('reads a merchant stored before the dark pair, policy links and language as without them (English), and sets them on it', async () => {
    const deps = makeTestDeps();
    const tenant = await aTenant(deps, [origin('older')]);
    // As a tenant stored by an earlier version holds it: none of the four attributes.
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.merchant(tenant),
        UpdateExpression: 'REMOVE darkPrimaryColor, darkSecondaryColor, privacyPolicyUrl, termsUrl, defaultLanguage',
      }),
    );
    const older = (await merchantRepo(deps.store).get(tenant)) as Merchant;
    expect(older).toMatchObject({
      darkPrimaryColor: null,
      darkSecondaryColor: null,
      privacyPolicyUrl: null,
      termsUrl: null,
      defaultLanguage: 'en',
    });
    const res = await updateMerchant(deps, older, older.id, {
      darkPrimaryColor: '#abcdef',
      termsUrl: 'https://t.example/',
      defaultLanguage: 'de',
    });
    expect(res).toMatchObject({ darkPrimaryColor: '#abcdef', darkSecondaryColor: null, privacyPolicyUrl: null });
    // Discovery by client key finds the merchant through the users index and reads it whole.
    expect(await merchantRepo(deps.store).findByClientKey(tenant.publicApiKey)).toMatchObject({
      darkPrimaryColor: '#abcdef',
      termsUrl: 'https://t.example/',
      defaultLanguage: 'de',
    });
  });

  it('answers NOT_FOUND for another id, and for a merchant that is gone', async () => {
    const deps = makeTestDeps();
    const tenant = await aTenant(deps, [origin('nf')]);
    await expect(updateMerchant(deps, tenant, 'mer_other', { name: 'X' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const ghost = aMerchant({ allowedOrigins: [origin('ghost')] });
    await expect(updateMerchant(deps, ghost, ghost.id, { name: 'X' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await merchantRepo(deps.store).get(ghost)).toBeNull();
    expect(await merchantRepo(deps.store).anyTenantAllowsOrigin(ghost.allowedOrigins[0] as string)).toBe(false);
  });
});
