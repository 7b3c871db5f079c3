// GET /health: no auth, no tenant; → { status: "ok" }
import { identityRoutes } from '#functions/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(identityRoutes.health, () => ({ status: 'ok' as const }));
