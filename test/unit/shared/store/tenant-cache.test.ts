import { describe, expect, it } from 'vitest';
import { createStoreClient } from '#shared/store/client.ts';
import { tenantCache } from '#shared/store/tenant-cache.ts';
import { aMerchant } from '#test/support/builders.ts';

const store = () => createStoreClient({ tableName: 'unit-test' });

describe('tenantCache', () => {
  it('keeps a tenant for its seconds, then reads nothing until it is kept again', () => {
    let now = 1_000_000;
    const cache = tenantCache(store(), 'getMe', 5, () => now);
    const merchant = aMerchant();
    cache?.keep(merchant);
    now += 4_999;
    expect(cache?.read(merchant)).toEqual(merchant);
    now += 1;
    expect(cache?.read(merchant)).toBeUndefined();
  });

  it('keeps nothing at 0 seconds: every request reads its tenant', () => {
    expect(tenantCache(store(), 'getMe', 0, () => 0)).toBeUndefined();
  });

  it("keeps each route's copies apart, as each function's are on AWS, and each table client's", () => {
    const shared = store();
    const merchant = aMerchant();
    tenantCache(shared, 'getMe', 5, () => 0)?.keep(merchant);
    expect(tenantCache(shared, 'getMe', 5, () => 0)?.read(merchant)).toEqual(merchant);
    expect(tenantCache(shared, 'refresh', 5, () => 0)?.read(merchant)).toBeUndefined();
    expect(tenantCache(store(), 'getMe', 5, () => 0)?.read(merchant)).toBeUndefined();
  });

  it('tells tenants apart by app and mid', () => {
    const cache = tenantCache(store(), 'getMe', 5, () => 0);
    const merchant = aMerchant({ app: 'app_a', mid: 'mid_a' });
    cache?.keep(merchant);
    expect(cache?.read({ app: 'app_a', mid: 'mid_b' })).toBeUndefined();
    expect(cache?.read({ app: 'app_b', mid: 'mid_a' })).toBeUndefined();
  });

  it('hands out a frozen copy, so that no request can change what the next one reads', () => {
    const cache = tenantCache(store(), 'getMe', 5, () => 0);
    const merchant = aMerchant({ allowedOrigins: ['https://shop.example'] });
    cache?.keep(merchant);
    const copy = cache?.read(merchant) as { allowedOrigins: string[]; name: string };
    expect(() => copy.allowedOrigins.push('https://evil.example')).toThrow(TypeError);
    expect(() => {
      copy.name = 'Changed';
    }).toThrow(TypeError);
  });

  it('holds at most 1,000 tenants: the oldest copy goes first', () => {
    const cache = tenantCache(store(), 'getMe', 5, () => 0);
    for (let i = 0; i <= 1000; i++) cache?.keep(aMerchant({ app: `app_${i}`, mid: 'mid' }));
    expect(cache?.read({ app: 'app_0', mid: 'mid' })).toBeUndefined();
    expect(cache?.read({ app: 'app_1', mid: 'mid' })).toBeDefined();
    expect(cache?.read({ app: 'app_1000', mid: 'mid' })).toBeDefined();
  });
});
