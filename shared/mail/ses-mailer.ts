import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Deps } from '../deps.ts';
import { type Mailer, sesMailer } from './mailer.ts';

/**
 * The mailer of a function that sends mail, from its deps' configuration:
 * SES v2 on AWS, the SES emulator locally. Handlers of `ses` routes pass it
 * to httpHandler (`{ mailer: sesMailerFor }`).
 */
export function sesMailerFor(deps: Pick<Deps, 'config' | 'log'>): Mailer {
  const { sesEndpoint, region, senderEmail } = deps.config;
  const client = new SESv2Client({
    region: region ?? 'us-east-1',
    // The emulator takes any credentials; fixed ones keep a developer's real keys out of local runs.
    ...(sesEndpoint ? { endpoint: sesEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  return sesMailer(client, senderEmail, { log: deps.log });
}
