import { describe, expect, it } from 'vitest';
import { FIRST_ADMIN_FIELDS, MERCHANT_FIELDS } from '#shared/store/merchant-repo.ts';
import { createTableInput, TABLE } from '#shared/store/table.ts';
import { LISTED_USER_FIELDS } from '#shared/store/user-admin-repo.ts';
import { SECRET_ATTRIBUTES } from '#test/support/secret-attributes.ts';

const SECRETS: readonly string[] = SECRET_ATTRIBUTES;

const gsi1 = TABLE.indexes.find((index) => index.name === 'gsi1');

describe('the users index (gsi1) projection', () => {
  it('is exactly what its readers read: the user list and the first-admin lookup (discovery reads keys only)', () => {
    const read = new Set([
      ...Object.keys(LISTED_USER_FIELDS), // GET /users (listAll → ListedUser → UserResponse)
      ...FIRST_ADMIN_FIELDS, // recordFirstAdmin
    ]);
    expect([...(gsi1?.nonKeyAttributes ?? [])].sort()).toEqual([...read].sort());
    expect(new Set(gsi1?.nonKeyAttributes).size).toBe(gsi1?.nonKeyAttributes.length);
  });

  it('holds no merchant setting, so a new one never replaces the index', () => {
    const merchantOnly = Object.keys(MERCHANT_FIELDS).filter((field) => field !== 'id');
    for (const field of merchantOnly) expect(gsi1?.nonKeyAttributes).not.toContain(field);
  });

  it('names no hash, secret or ciphertext', () => {
    for (const secret of SECRETS) expect(gsi1?.nonKeyAttributes).not.toContain(secret);
  });

  it('is what the local CreateTable asks for (the CDK stack reads the same list: test/infra)', () => {
    expect(createTableInput('t').GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'gsi1',
        KeySchema: [
          { AttributeName: 'gsi1pk', KeyType: 'HASH' },
          { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...(gsi1?.nonKeyAttributes ?? [])] },
      },
    ]);
  });
});
