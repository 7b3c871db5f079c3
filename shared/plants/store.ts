import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from '../store/client.ts';
import { isConditionFailure } from '../store/errors.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import type { Plant } from './schemas.ts';

/** `#` separates key segments; app and mid come from a verified token and are checked to hold none. */
function segment(value: string): string {
  if (value.includes('#')) throw new Error('key segment contains #');
  return value;
}

/**
 * A plant in the plant store's own table (the single-table design of
 * shared/store/table.ts): `T#<app>#<mid>#PLANT#<id>` / `PLANT`. The tenant is
 * the first segment, so one tenant's plant 7 is not another's; each plant has
 * its own partition (shared/store/README.md).
 */
export const plantKey = (t: TenantRef, id: number) => ({
  pk: `T#${segment(t.app)}#${segment(t.mid)}#PLANT#${id}`,
  sk: 'PLANT',
});

export interface PlantStore {
  /** Stores the plant unless its id is taken within the tenant: false then, and nothing is written. */
  create(t: TenantRef, plant: Plant, meta: { createdBy: string; createdAt: string }): Promise<boolean>;
}

export function plantStore(store: StoreClient): PlantStore {
  const { doc, tableName } = store;
  return {
    async create(t, plant, meta) {
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...plantKey(t, plant.id), entity: 'PLANT', ...plant, ...meta },
            // One plant per id and tenant: of two creates racing for an id, one wins.
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}

/** The origins the identity's tenants allow, which the plant store answers CORS for. */
export interface AllowedOrigins {
  /** Whether some tenant of the identity service allows this origin. */
  anyTenantAllows(origin: string): Promise<boolean>;
}

/**
 * The identity's ORIGIN index, read in the identity's table (`identity`: its name, on the
 * plant store's DynamoDB client): one item per allowed origin and tenant, under the partition
 * `ORIGIN#<origin>` (shared/store/keys.ts), written with the tenant's `allowedOrigins`. The plant
 * store's functions may Query those partitions and nothing else of that table (IAM
 * `dynamodb:LeadingKeys` `ORIGIN#*`, infra/plants-stack.ts), and read only the key back.
 */
export function identityOrigins(identity: StoreClient): AllowedOrigins {
  return {
    async anyTenantAllows(origin) {
      const { Items } = await identity.doc.send(
        new QueryCommand({
          TableName: identity.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.originPartition(origin) },
          ProjectionExpression: 'pk',
          Limit: 1,
        }),
      );
      return (Items?.length ?? 0) > 0;
    },
  };
}
