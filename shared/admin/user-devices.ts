import type { Deps } from '../deps.ts';
import { describeDevice } from '../sessions/device.ts';
import { userAdminRepo } from '../store/user-admin-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { targetUser } from '../users/lookup.ts';

// Its own module: the User-Agent parser (ua-parser-js) goes only into the bundle that lists devices.

/** GET /users/{id}/devices */
export async function listUserDevices(deps: Deps, tenant: Merchant, id: string) {
  const target = await targetUser(deps, tenant, id);
  return (await userAdminRepo(deps.store).devices(tenant, target.id))
    .map((stored) => {
      const device = describeDevice(stored.userAgent);
      return {
        fingerprint: stored.fingerprint,
        os: device.os,
        browser: device.browser,
        firstSeenAt: stored.firstSeenAt,
        lastSeenAt: stored.lastSeenAt,
        seenCount: stored.seenCount,
      };
    })
    .sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt));
}
