import { STATUS_CODES } from 'node:http';
import type { Context } from 'aws-lambda';
import type { AppError, ErrorCode } from '../errors.ts';
import type { ErrorAnswer, ServiceHandlerOptions } from '../http/handler.ts';
import { invocationDeps } from '../http/invocation-deps.ts';
import { type HttpEvent, type HttpResult, header } from '../http/request-state.ts';
import { describeError, jsonLogger } from '../log.ts';
import { PLANTS_METRICS_NAMESPACE } from '../metrics.ts';
import { plantCorsHeaders } from './cors.ts';
import { type PlantDeps, processPlantDeps } from './deps.ts';

/** Messages for errors that carry no detail of their own. */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNAUTHENTICATED: 'send a valid, unexpired access token of the identity service: Authorization: Bearer <token>',
};

/**
 * The plant store's documented error body, `{ "error": <status>, "message": "…" }`
 * as application/json (docs/http.md#plant-store), instead of the identity's problem+json.
 * The message is the error's detail, or else a fixed text (the status text of a bare 500).
 */
export function plantErrorBody(error: AppError): ErrorAnswer {
  const message = error.detail ?? MESSAGES[error.code] ?? STATUS_CODES[error.status] ?? 'Error';
  return { contentType: 'application/json', body: { error: error.status, message } };
}

/** httpHandler's options for every plant store route: its deps, its bearer check, its error body. */
export const plantHandlerOptions: ServiceHandlerOptions<PlantDeps> = {
  deps: processPlantDeps,
  verifyToken: (token, deps) => deps.verifyToken(token),
  errorBody: plantErrorBody,
  metricsNamespace: PLANTS_METRICS_NAMESPACE,
};

/**
 * A plant store handler whose every answer, success or error, carries the CORS headers for an
 * Origin some identity tenant allows (cors.ts). The look-up runs beside the handler. It never
 * changes the answer otherwise: should it fail, the answer goes without CORS and the log says why.
 */
export function withPlantCors(
  handler: (event: HttpEvent, context: Context) => Promise<HttpResult>,
): (event: HttpEvent, context: Context) => Promise<HttpResult> {
  return async (event, context) => {
    const origin = header(event, 'origin');
    const cors =
      origin === undefined
        ? Promise.resolve({})
        : Promise.resolve()
            .then(() => plantCorsHeaders(invocationDeps(context, processPlantDeps), origin))
            .catch((error: unknown) => {
              jsonLogger.error('CORS origin look-up failed', {
                requestId: event.requestContext?.requestId ?? context.awsRequestId,
                ...describeError(error),
              });
              return {};
            });
    const result = await handler(event, context);
    return { ...result, headers: { ...result.headers, ...(await cors) } };
  };
}
