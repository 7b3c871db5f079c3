/**
 * THE route list of the identity service: the single source of truth from
 * which the CDK stack (infra/), the local gateway (local/) and the OpenAPI
 * document (functions/openapi.ts) are derived. Each area keeps its rows in
 * functions/<area>/routes.ts: data and schemas only, no handler code and no
 * AWS SDK, so that CDK can import it cheaply.
 *
 * Paths are relative to the base path `/api/v1` (BASE_PATH).
 */
import { BASE_PATH, type RouteDef } from '#shared/http/route.ts';
import { authRoutes, authSchemas } from './auth/routes.ts';
import { merchantRoutes, merchantSchemas } from './merchants/routes.ts';
import { metaRoutes, metaSchemas } from './meta/routes.ts';
import { oidcProviderRoutes, oidcProviderSchemas } from './oidc/protocol-routes.ts';
import { oidcRoutes, oidcSchemas } from './oidc/routes.ts';
import { passkeyRoutes, passkeySchemas } from './passkeys/routes.ts';
import { roleRoutes, roleSchemas } from './roles/routes.ts';
import { sessionRoutes } from './sessions/routes.ts';
import { signInProviderRoutes, signInProviderSchemas } from './sign-in-providers/routes.ts';
import { adminUserRoutes, adminUserSchemas } from './users/admin-routes.ts';
import { myActivityRoutes } from './users/my-activity-routes.ts';
import { userRoutes, userSchemas } from './users/routes.ts';
import { webhookRoutes, webhookSchemas } from './webhooks/routes.ts';

export { BASE_PATH };

export const identityRoutes = {
  ...metaRoutes,
  ...authRoutes,
  ...userRoutes,
  ...myActivityRoutes,
  ...sessionRoutes,
  ...merchantRoutes,
  ...adminUserRoutes,
  ...roleRoutes,
  ...oidcRoutes,
  ...oidcProviderRoutes,
  ...passkeyRoutes,
  ...signInProviderRoutes,
  ...webhookRoutes,
} as const satisfies Record<string, RouteDef>;

export type IdentityRouteId = keyof typeof identityRoutes;

/** The list form. */
export const identityRouteList: readonly RouteDef[] = Object.values(identityRoutes);

/** Named schemas that the OpenAPI document lists under components (referenced by `$ref`). */
export const namedSchemas = {
  ...metaSchemas,
  ...authSchemas,
  ...userSchemas,
  ...merchantSchemas,
  ...adminUserSchemas,
  ...roleSchemas,
  ...oidcSchemas,
  ...oidcProviderSchemas,
  ...passkeySchemas,
  ...signInProviderSchemas,
  ...webhookSchemas,
};
