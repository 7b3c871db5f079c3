// GET /health: no auth, no tenant; → { status: "ok" }
import { metaRoutes } from '#functions/meta/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(metaRoutes.health, () => ({ status: 'ok' as const }));
