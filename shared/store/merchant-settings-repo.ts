import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Merchant } from '../tenancy/types.ts';
import type { StoreClient } from './client.ts';
import { conditionFailedAt, metAnotherTransaction } from './errors.ts';
import { keys } from './keys.ts';

/** What an admin may change on a merchant (PATCH /merchants/{id}); the rest names the tenant. */
export type MerchantChanges = Partial<
  Pick<
    Merchant,
    | 'name'
    | 'logoUrl'
    | 'primaryColor'
    | 'secondaryColor'
    | 'darkPrimaryColor'
    | 'darkSecondaryColor'
    | 'privacyPolicyUrl'
    | 'termsUrl'
    | 'defaultLanguage'
    | 'loginMode'
    | 'signupMode'
    | 'totpAllowed'
    | 'allowUserDisableTotp'
    | 'passkeysAllowed'
    | 'allowedOrigins'
  >
>;

export type MerchantUpdateOutcome = 'UPDATED' | 'STALE';

export function merchantSettingsRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * Writes `changes` over the merchant as it was read (`seen`), in one
     * transaction with the ORIGIN index items that CORS preflight reads: one
     * put per added origin, one delete per removed one. The merchant's write is
     * conditional on `updatedAt` still being the one read, so two concurrent
     * changes cannot leave the index out of step with `allowedOrigins`: the
     * later one answers STALE (as does a merchant gone meanwhile) and the
     * caller reads again. `updatedAt` must be later than `seen.updatedAt`.
     */
    async update(seen: Merchant, changes: MerchantChanges, updatedAt: string): Promise<MerchantUpdateOutcome> {
      const t = { app: seen.app, mid: seen.mid };
      const fields = Object.entries({ ...changes, updatedAt }).filter(([, value]) => value !== undefined);
      const before = new Set(seen.allowedOrigins);
      const after = new Set(changes.allowedOrigins ?? seen.allowedOrigins);
      const added = [...after].filter((origin) => !before.has(origin));
      const removed = [...before].filter((origin) => !after.has(origin));
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.merchant(t),
                  UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
                  ConditionExpression: 'attribute_exists(pk) AND #updatedAt = :seen',
                  ExpressionAttributeNames: {
                    ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
                    '#updatedAt': 'updatedAt',
                  },
                  ExpressionAttributeValues: {
                    ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
                    ':seen': seen.updatedAt,
                  },
                },
              },
              ...added.map((origin) => ({
                Put: { TableName: tableName, Item: { ...keys.originAllowed(origin, t), entity: 'ORIGIN' } },
              })),
              ...removed.map((origin) => ({
                Delete: { TableName: tableName, Key: keys.originAllowed(origin, t) },
              })),
            ],
          }),
        );
        return 'UPDATED';
      } catch (error) {
        // Changed since read, or a concurrent transaction on these items: either way, read again and retry.
        if (conditionFailedAt(error, 0) || metAnotherTransaction(error)) return 'STALE';
        throw error;
      }
    },
  };
}
