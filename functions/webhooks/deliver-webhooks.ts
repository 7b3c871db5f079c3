// SQS → Lambda (not an HTTP route): one signed POST per queued delivery, retried with backoff for 24 hours
import { processDeps } from '#shared/deps.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';
import { deliverHandler } from '#shared/webhooks/handlers.ts';

export const handler = deliverHandler(processDeps, { mailer: sesMailerFor });
