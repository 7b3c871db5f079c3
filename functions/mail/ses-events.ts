// SNS → Lambda (not an HTTP route): SES's bounce and complaint events, recorded as mail suppressions per tenant and address
import { processDeps } from '#shared/deps.ts';
import { sesEventsHandler } from '#shared/mail/ses-events.ts';

export const handler = sesEventsHandler(processDeps);
