import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { grantOf } from '#shared/roles/authority.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { userAdminRepo } from '#shared/store/user-admin-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import type { User } from '#shared/users/types.ts';
import { aUserRecord, putUsers } from '#test/support/admin.ts';
import { aMerchant } from '#test/support/builders.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { SECRET_ATTRIBUTES } from '#test/support/secret-attributes.ts';

const deps = makeTestDeps();

const SECRETS: readonly string[] = SECRET_ATTRIBUTES;

const sha256ish = (label: string) => label.repeat(64).slice(0, 64);

/** A tenant (every merchant field set) whose first admin is not recorded yet, with its admin. */
async function aTenant(): Promise<{ merchant: Merchant; adminId: string }> {
  const merchant = aMerchant({
    logoUrl: 'https://shop.example/logo.png',
    primaryColor: '#112233',
    secondaryColor: '#445566',
    darkPrimaryColor: '#8899aa',
    darkSecondaryColor: '#0a0b0c',
    privacyPolicyUrl: 'https://shop.example/privacy',
    termsUrl: 'https://shop.example/terms',
    loginMode: 'PASSWORD_OR_OTP_EMAIL',
    signupMode: 'INVITATION_ONLY',
    totpAllowed: false,
    allowUserDisableTotp: false,
    adminUserId: null,
    updatedAt: '2026-11-22T00:00:00.000Z',
  });
  const adminId = `usr_admin_${merchant.id}`;
  const superAdmin = { id: `rol_s_${merchant.id}`, name: 'SUPER_ADMIN', priority: 0 };
  const byDefault = { id: `rol_d_${merchant.id}`, name: 'DEFAULT', priority: 99 };
  const system = { owner: 'SYSTEM', custom: false, description: null, createdAt: merchant.createdAt } as const;
  const outcome = await merchantRepo(deps.store).create({
    merchant,
    roles: [
      { ...superAdmin, ...system },
      { ...byDefault, ...system },
    ],
    admin: {
      id: adminId,
      email: `admin@${merchant.subdomain}.test`,
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
      status: 'ACTIVE',
      emailStatus: 'VALIDATED',
      registeredAt: merchant.createdAt,
      grants: { [superAdmin.id]: grantOf(superAdmin, merchant.createdAt) },
    },
  });
  expect(outcome).toEqual({ ok: true });
  return { merchant, adminId };
}

/** A profile with every field set: each secret, and each field the list shows. */
async function aUserWithEverything(merchant: Merchant): Promise<User> {
  const record = await aUserRecord(merchant, {}, deps);
  return {
    ...record,
    emailStatus: 'VALIDATION_SENT',
    emailValidationExpiresAt: '2999-01-01T00:00:00.000Z',
    firstName: 'Ada',
    lastName: 'Okonkwo',
    phone: '+44 20 7946 0018',
    status: 'ACTIVE',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
    totpEnabled: true,
    totpSecret: `v1.${sha256ish('a')}`,
    totpLastStep: 12345,
    backupCodes: [sha256ish('b'), sha256ish('c')],
    totpPendingSecret: `v1.${sha256ish('d')}`,
    totpPendingBackupCodes: [sha256ish('e')],
    registeredAt: '2026-11-21T08:00:00.000Z',
    lastLoginAt: '2026-11-21T09:00:00.000Z',
    lockedUntil: '2999-01-01T00:00:00.000Z',
  };
}

describe('the users index (gsi1): an INCLUDE projection without secrets', () => {
  it('gives no item read through it a hash, secret or ciphertext attribute, though the profiles hold them', async () => {
    const { merchant } = await aTenant();
    const user = await aUserWithEverything(merchant);
    await putUsers(deps, merchant, [user]);
    const { Item: profile } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: keys.user(merchant, user.id), ConsistentRead: true }),
    );
    for (const secret of SECRETS.slice(0, 5)) expect(profile, secret).toHaveProperty(secret);

    // Every item of the index, of every tenant and test in this run's table.
    let seen = 0;
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await deps.store.doc.send(
        new ScanCommand({ TableName: deps.store.tableName, IndexName: 'gsi1', ExclusiveStartKey }),
      );
      for (const item of page.Items ?? []) {
        seen++;
        const leaked = SECRETS.filter((name) => name in item);
        expect(leaked, `${item.pk} ${item.sk}`).toEqual([]);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    expect(seen).toBeGreaterThanOrEqual(3); // our merchant, admin and user at least

    const listed = await userAdminRepo(deps.store).listAll(merchant);
    for (const entry of listed) for (const secret of SECRETS) expect(entry).not.toHaveProperty(secret);
  });

  it('carries every field its readers read: the user list, discovery and the first-admin lookup', async () => {
    const { merchant, adminId } = await aTenant();
    const user = await aUserWithEverything(merchant);
    await putUsers(deps, merchant, [user]);

    // GET /users: each listed user is the profile's listed fields, exactly.
    const listed = await userAdminRepo(deps.store).listAll(merchant);
    expect(listed.find((u) => u.id === user.id)).toEqual({
      id: user.id,
      email: user.email,
      emailStatus: 'VALIDATION_SENT',
      emailValidationExpiresAt: user.emailValidationExpiresAt,
      firstName: 'Ada',
      lastName: 'Okonkwo',
      phone: '+44 20 7946 0018',
      status: 'ACTIVE',
      totpEnabled: true,
      grants: user.grants,
      registeredAt: user.registeredAt,
      lastLoginAt: user.lastLoginAt,
      lockedUntil: user.lockedUntil,
    });
    const profile = await userRepo(deps.store).get(merchant, user.id);
    expect(profile).toMatchObject(listed.find((u) => u.id === user.id) ?? {});

    // Discovery: the whole merchant.
    expect(await merchantRepo(deps.store).findByClientKey(merchant.publicApiKey)).toEqual(merchant);

    // The first admin of a tenant stored without one: registered with the tenant.
    expect(await merchantRepo(deps.store).recordFirstAdmin(merchant)).toBe(adminId);
  });
});
