// POST /auth/refresh: tenant headers; { refreshToken } → ApiResponse LoginResponse
import { authRoutes } from '#functions/auth/routes.ts';
import { refresh, refreshPrefetch } from '#shared/auth/refresh.ts';
import { withDirectReadsDeps } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  authRoutes.refresh,
  async ({ tenant, body, client }, deps) => ({
    success: true as const,
    data: await refresh(deps, tenant, body.refreshToken, client),
  }),
  { prefetch: refreshPrefetch, depsForRoute: withDirectReadsDeps },
);
