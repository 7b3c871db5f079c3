import { STATUS_CODES } from 'node:http';
import type { AppError, ErrorCode } from '../http/errors.ts';
import type { ErrorAnswer, ServiceHandlerOptions } from '../http/handler.ts';
import { type PlantDeps, processPlantDeps } from './deps.ts';

/** Messages for errors that carry no detail of their own. */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNAUTHENTICATED: 'send a valid, unexpired access token of the identity service: Authorization: Bearer <token>',
};

/**
 * The plant store's documented error body, `{ "error": <status>, "message": "…" }`
 * as application/json (CONTRACT.md, Errors), instead of the identity's problem+json.
 * The message is the error's detail, or else a fixed text (the status text of a bare 500).
 */
export function plantErrorBody(error: AppError): ErrorAnswer {
  const message = error.detail ?? MESSAGES[error.code] ?? STATUS_CODES[error.status] ?? 'Error';
  return { contentType: 'application/json', body: { error: error.status, message } };
}

/** httpHandler's options for every plant store route: its deps, its bearer check, its error body. */
export const plantHandlerOptions: ServiceHandlerOptions<PlantDeps> = {
  deps: processPlantDeps,
  verifyToken: (token) => processPlantDeps().verifyToken(token),
  errorBody: plantErrorBody,
};
