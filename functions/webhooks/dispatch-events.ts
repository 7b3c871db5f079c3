// DynamoDB Streams → Lambda (not an HTTP route): the table's new activity becomes webhook events, queued per endpoint
import { processDeps } from '#shared/deps.ts';
import { dispatchHandler } from '#shared/webhooks/handlers.ts';

export const handler = dispatchHandler(processDeps);
