/**
 * What the index `gsi1` copies of an item besides the keys (an INCLUDE projection): what its
 * readers read, and nothing else. Never a hash, a secret or a ciphertext (`passwordHash`,
 * `totpSecret`, `totpPendingSecret`, `backupCodes`, `totpPendingBackupCodes`, `codeHash`,
 * `secretHash`, `encryptedPrivateKey`): every index read would carry them. Its readers:
 *
 * - GET /users (user-admin-repo `listAll` → `ListedUser` → UserResponse): the profile fields
 *   the public view shows or derives from (`status` and `lockedUntil` give TIMED_OUT,
 *   `emailStatus`, `emailValidationExpiresAt`, `status` and `registeredAt` the shown emailStatus;
 *   `status` and `registeredAt` also tell an expired unverified signup, left out: so `ttl` need not be here);
 * - the first-admin lookup (merchant-repo `recordFirstAdmin`): `id`, `registeredAt`, `grants`;
 * - discovery (merchant-repo `findByClientKey`): the table keys only (always in an index), then the
 *   merchant from the table, so merchant fields stay out of this list.
 *
 * test/unit/shared/store/table.test.ts holds this list to what those readers read. Changing
 * it on a deployed table replaces the index (README, Deploying to AWS).
 */
const GSI1_ATTRIBUTES = [
  // A user as listed (ListedUser).
  'id',
  'email',
  'emailStatus',
  'emailValidationExpiresAt',
  'firstName',
  'lastName',
  'phone',
  'status',
  'totpEnabled',
  'grants',
  'registeredAt',
  'lastLoginAt',
  'lockedUntil',
] as const;

/**
 * The one table definition. The CDK stack and the local CreateTable (npm start,
 * the CLI and the test setup) both read it, so they cannot drift apart.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** DynamoDB TTL attribute, epoch seconds. DynamoDB Local never expires items: reads filter on it too. */
  ttlAttribute: 'ttl',
  indexes: [
    /** Tenant-wide lists and lookups by a public value (client key → merchant, tenant → users). */
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', nonKeyAttributes: GSI1_ATTRIBUTES },
  ],
} as const;

/**
 * The CreateTable input for the local stack and tests (on-demand, like the deployed table); `stream`: with the
 * deployed table's stream (NEW_IMAGE), for a local stack that sends webhooks (local/webhooks.ts).
 */
export function createTableInput(tableName: string, options: { stream?: boolean } = {}) {
  const attributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const index of TABLE.indexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      // The keys and the attributes named: no secret reaches an index read.
      Projection: { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.nonKeyAttributes] },
    })),
    ...(options.stream && { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' as const } }),
  };
}
