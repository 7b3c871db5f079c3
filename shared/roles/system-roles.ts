import type { SystemRoleName } from '../tenancy/types.ts';

/**
 * The SYSTEM roles every tenant has (docs/security.md#roles-and-authority). A lower number is
 * more authority; merchant roles start at 2. Every new user holds DEFAULT.
 */
export const SYSTEM_ROLES: readonly { name: SystemRoleName; priority: number }[] = [
  { name: 'SUPER_ADMIN', priority: 0 },
  { name: 'ADMIN', priority: 1 },
  { name: 'USER', priority: 50 },
  { name: 'DEFAULT', priority: 99 },
];
