import type { Merchant } from '#shared/tenancy/types.ts';

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
    loginMode: 'PASSWORD',
    signupMode: 'OPEN',
    totpAllowed: true,
    allowUserDisableTotp: true,
    adminUserId: `usr_${suffix}`,
    allowedOrigins: ['https://shop.example'],
    createdAt: '2026-11-21T00:00:00.000Z',
    updatedAt: '2026-11-21T00:00:00.000Z',
    ...overrides,
  };
}
