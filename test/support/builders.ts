import type { Merchant } from '#shared/tenancy/types.ts';
import type { User } from '#shared/users/types.ts';

let counter = 0;

/** A merchant with fresh ids; override what the test is about. */
export function aMerchant(overrides: Partial<Merchant> = {}): Merchant {
  counter++;
  const suffix = `${Date.now().toString(36)}${counter}`;
  return {
    id: `mer_${suffix}`,
    app: `app_${suffix}`,
    mid: `mid_${suffix}`,
    name: 'Test Shop',
    publicApiKey: `pk_${suffix}`,
    subdomain: `shop-${suffix}`,
    logoUrl: null,
    primaryColor: null,
    secondaryColor: null,
    darkPrimaryColor: null,
    darkSecondaryColor: null,
    privacyPolicyUrl: null,
    termsUrl: null,
    defaultLanguage: 'en',
    loginMode: 'PASSWORD',
    signupMode: 'OPEN',
    totpAllowed: true,
    allowUserDisableTotp: true,
    passkeysAllowed: true,
    signInProviders: [],
    signInProvidersVersion: 0,
    adminUserId: `usr_${suffix}`,
    allowedOrigins: ['https://shop.example'],
    createdAt: '2026-11-21T00:00:00.000Z',
    updatedAt: '2026-11-21T00:00:00.000Z',
    ...overrides,
  };
}

/** A stored user record (not written anywhere): ACTIVE, verified, no password, no TOTP, no grants; override the rest. */
export function aUserRecord(overrides: Partial<User> & Pick<User, 'id'>): User {
  return {
    email: `${overrides.id}@shop.test`,
    emailStatus: 'VALIDATED',
    emailValidationExpiresAt: null,
    firstName: null,
    lastName: null,
    phone: null,
    status: 'ACTIVE',
    passwordHash: null,
    totpEnabled: false,
    totpSecret: null,
    totpLastStep: null,
    backupCodes: [],
    totpPendingSecret: null,
    totpPendingBackupCodes: [],
    grants: {},
    registeredAt: '2026-11-21T00:00:00.000Z',
    lastLoginAt: null,
    lockedUntil: null,
    credentialEpoch: 0,
    passkeyCount: 0,
    liveSessions: {},
    invitationHash: null,
    ...overrides,
  };
}
