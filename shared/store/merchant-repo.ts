import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { languageOr } from '../i18n/languages.ts';
import type { Merchant, NewUser, Role } from '../tenancy/types.ts';
import type { Grant } from '../users/types.ts';
import type { StoreClient } from './client.ts';
import { conditionFailedAt, isConditionFailure } from './errors.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys, type TenantRef } from './keys.ts';
import { batchGetConsistent, getItem, type ItemKey, Prefetched } from './prefetch.ts';
import { queryAll } from './query.ts';
import type { TenantCache } from './tenant-cache.ts';

/** Every field of a merchant. */
export const MERCHANT_FIELDS: FieldNames<Merchant> = {
  id: true,
  app: true,
  mid: true,
  name: true,
  publicApiKey: true,
  subdomain: true,
  logoUrl: true,
  primaryColor: true,
  secondaryColor: true,
  darkPrimaryColor: true,
  darkSecondaryColor: true,
  privacyPolicyUrl: true,
  termsUrl: true,
  defaultLanguage: true,
  loginMode: true,
  signupMode: true,
  totpAllowed: true,
  allowUserDisableTotp: true,
  passkeysAllowed: true,
  signInProviders: true,
  signInProvidersVersion: true,
  adminUserId: true,
  allowedOrigins: true,
  createdAt: true,
  updatedAt: true,
};

export function toMerchant(item: Record<string, unknown>): Merchant {
  const merchant = fieldsOf<Merchant>(item, MERCHANT_FIELDS);
  // A tenant stored before passkeys has them on: the default.
  return {
    ...merchant,
    defaultLanguage: languageOr(merchant.defaultLanguage),
    passkeysAllowed: merchant.passkeysAllowed !== false,
    signInProviders: merchant.signInProviders ?? [],
    signInProvidersVersion: merchant.signInProvidersVersion ?? 0,
  };
}

/** What the first-admin lookup reads of each user through the users index (shared/store/table.ts). */
export const FIRST_ADMIN_FIELDS = ['id', 'registeredAt', 'grants'] as const;

export interface NewTenant {
  merchant: Merchant;
  roles: Role[];
  /** The first admin, with the grants it holds (by role id). */
  admin: NewUser & { grants: Record<string, Grant> };
}

export type CreateTenantOutcome = { ok: true } | { ok: false; reason: 'SUBDOMAIN_TAKEN' };

export function merchantRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * The tenant named by request headers. Strongly consistent, so a policy change applies to the next request,
     * unless a `cache` (a users' route: store/tenant-cache.ts) still holds a copy of it.
     */
    async get(tenant: TenantRef, cache?: TenantCache): Promise<Merchant | null> {
      const copy = cache?.read(tenant);
      if (copy) return copy;
      const Item = await getItem(store, keys.merchant(tenant));
      const merchant = Item ? toMerchant(Item) : null;
      if (merchant) cache?.keep(merchant);
      return merchant;
    },

    /**
     * The tenant with the items its request will read first (a route's `prefetch`), in one strongly consistent
     * BatchGetItem; with a `cache` that holds the tenant, only the items.
     */
    async getWith(
      tenant: TenantRef,
      itemKeys: ItemKey[],
      cache?: TenantCache,
    ): Promise<{ merchant: Merchant | null; prefetched: Prefetched }> {
      const copy = cache?.read(tenant);
      if (copy)
        return { merchant: copy, prefetched: new Prefetched(itemKeys, await batchGetConsistent(store, itemKeys)) };
      const merchantKey = keys.merchant(tenant);
      const found = await batchGetConsistent(store, [merchantKey, ...itemKeys]);
      const item = found.find((each) => each.pk === merchantKey.pk && each.sk === merchantKey.sk);
      const merchant = item ? toMerchant(item) : null;
      if (merchant) cache?.keep(merchant);
      return { merchant, prefetched: new Prefetched(itemKeys, found) };
    },

    /**
     * Discovery: the tenant whose public client key this is. The index gives the merchant's key only, and the
     * merchant is read from the table: a new merchant field never changes the index's projection.
     */
    async findByClientKey(publicApiKey: string): Promise<Merchant | null> {
      const index = keys.merchantByClientKey(publicApiKey);
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
          ExpressionAttributeValues: { ':pk': index.gsi1pk, ':sk': index.gsi1sk },
          ProjectionExpression: 'pk, sk',
          Limit: 1,
        }),
      );
      const found = Items?.[0];
      if (!found) return null;
      const Item = await getItem(store, { pk: found.pk as string, sk: found.sk as string });
      return Item ? toMerchant(Item) : null;
    },

    /** Discovery from a hosted page: the tenant holding this subdomain (its claim names it). */
    async findBySubdomain(subdomain: string): Promise<Merchant | null> {
      // Eventually consistent is enough: a page loads again; a renamed subdomain moves no one.
      const Item = await getItem(store, keys.subdomain(subdomain), { consistent: false });
      if (!Item || typeof Item.app !== 'string' || typeof Item.mid !== 'string') return null;
      return this.get({ app: Item.app, mid: Item.mid });
    },

    /**
     * A tenant stored before `adminUserId` was kept: finds its first admin and
     * keeps it on the merchant, once. The first admin is the user registered
     * with the tenant (same instant, same transaction); if that user is gone,
     * the longest-registered SUPER_ADMIN (there is always one). Reads the
     * tenant's user index, so it runs once per such tenant, not per request.
     */
    async recordFirstAdmin(merchant: Merchant): Promise<string | null> {
      const t = { app: merchant.app, mid: merchant.mid };
      const { gsi1pk } = keys.usersOfTenant(t, '');
      const users = await queryAll(store, {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ProjectionExpression: FIRST_ADMIN_FIELDS.join(', '),
      });
      const candidates = users.map((item) => ({
        id: item.id as string,
        registeredAt: item.registeredAt as string,
        superAdmin: Object.values((item.grants ?? {}) as Record<string, { name?: string }>).some(
          (grant) => grant.name === 'SUPER_ADMIN',
        ),
      }));
      const first =
        candidates.find((user) => user.registeredAt === merchant.createdAt) ??
        candidates
          .filter((user) => user.superAdmin)
          .sort((a, b) => a.registeredAt.localeCompare(b.registeredAt) || a.id.localeCompare(b.id))[0];
      if (!first) return null;
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.merchant(t),
            UpdateExpression: 'SET adminUserId = :id',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(adminUserId) OR adminUserId = :null)',
            ExpressionAttributeValues: { ':id': first.id, ':null': null },
          }),
        );
      } catch (error) {
        // Recorded meanwhile by a concurrent read: the same answer.
        if (!isConditionFailure(error)) throw error;
      }
      return first.id;
    },

    /** CORS preflight carries no tenant headers: is this origin allowed by any tenant? */
    async anyTenantAllowsOrigin(origin: string): Promise<boolean> {
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.originPartition(origin) },
          ProjectionExpression: 'pk',
          Limit: 1,
        }),
      );
      return (Items?.length ?? 0) > 0;
    },

    /**
     * Creates a tenant whole or not at all: merchant, subdomain claim, origin
     * index, SYSTEM roles and the first admin with its grants, in one transaction.
     */
    async create({ merchant, roles, admin }: NewTenant): Promise<CreateTenantOutcome> {
      const t = { app: merchant.app, mid: merchant.mid };
      const put = (Item: Record<string, unknown>) => ({
        Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' },
      });
      const items = [
        put({ ...keys.subdomain(merchant.subdomain), entity: 'SUBDOMAIN', app: t.app, mid: t.mid }),
        put({
          ...keys.merchant(t),
          ...keys.merchantByClientKey(merchant.publicApiKey),
          entity: 'MERCHANT',
          ...merchant,
        }),
        ...merchant.allowedOrigins.map((origin) => put({ ...keys.originAllowed(origin, t), entity: 'ORIGIN' })),
        ...roles.flatMap((role) => [
          put({ ...keys.role(t, role.id), entity: 'ROLE', ...role }),
          put({ ...keys.roleName(t, role.name), entity: 'ROLE_NAME', roleId: role.id }),
        ]),
        put({
          ...keys.user(t, admin.id),
          ...keys.usersOfTenant(t, admin.id),
          entity: 'USER',
          ...admin,
          firstName: null,
          lastName: null,
          phone: null,
          totpEnabled: false,
          lastLoginAt: null,
        }),
        put({ ...keys.userEmail(t, admin.email), entity: 'USER_EMAIL', userId: admin.id }),
      ];
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items }));
        return { ok: true };
      } catch (error) {
        // Item 0 is the subdomain claim; any other failed condition is a random-id collision, a real fault.
        if (conditionFailedAt(error, 0)) return { ok: false, reason: 'SUBDOMAIN_TAKEN' };
        throw error;
      }
    },
  };
}
