import { describe, expect, it } from 'vitest';
import { subdomainFromName } from '#shared/tenancy/create-tenant.ts';

describe('subdomainFromName', () => {
  it('makes a DNS label of a display name', () => {
    expect(subdomainFromName('Acme Plants!')).toBe('acme-plants');
    expect(subdomainFromName('  Çà & Co  ')).toBe('ca-co');
    expect(subdomainFromName('!!!')).toBe('tenant');
    expect(subdomainFromName('x'.repeat(80))).toHaveLength(63);
  });
});
