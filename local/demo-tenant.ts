import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Deps } from '#shared/deps.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { type CreatedTenant, createTenant } from '#shared/tenancy/create-tenant.ts';

export const DEMO_TENANT = {
  name: 'Demo Plant Shop',
  adminEmail: 'admin@demo.test',
  subdomain: 'demo',
  origins: ['http://localhost:3000', 'http://localhost:5173'],
} as const;

/**
 * Creates the demo tenant once. Its details (the admin password included: a
 * local, throwaway secret) are kept beside the data in `.data/`, which git
 * ignores, so a restart prints the same tenant. In memory it is made anew.
 */
export async function ensureDemoTenant(deps: Deps, dataDir: string | undefined): Promise<CreatedTenant> {
  const file = dataDir ? join(dataDir, 'demo-tenant.json') : undefined;
  if (file && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as CreatedTenant;
    if (await merchantRepo(deps.store).get({ app: saved.app, mid: saved.mid })) return saved;
  }
  const created = await createTenant(deps, {
    name: DEMO_TENANT.name,
    adminEmail: DEMO_TENANT.adminEmail,
    subdomain: DEMO_TENANT.subdomain,
    origins: [...DEMO_TENANT.origins],
  });
  if (file) writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return created;
}
