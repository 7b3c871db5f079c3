// GET /users/{id}/devices: admin → DeviceResponse[]
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { listUserDevices } from '#shared/admin/user-devices.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  adminUserRoutes.listUserDevices,
  ({ tenant, params }, deps) => listUserDevices(deps, tenant, params.id),
  { authenticators: identityAuthenticators },
);
