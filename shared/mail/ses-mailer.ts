import type { SESv2Client, SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { Logger } from '../log.ts';
import { hostedOrigin } from '../tenancy/hosted-pages.ts';
import { cleanDisplayText } from './branding.ts';
import type { Mailer } from './message.ts';
import { mailTags } from './tags.ts';
import { renderMail } from './templates.ts';

export interface SesMailerOptions {
  /** Where a failed send is logged: error name, HTTP status and SES request id, never the address or the content. */
  log?: Logger;
  /** The deployment's hosted pages origin template (`Config.hostedPagesOrigin`): mails then link to them. */
  hostedPagesOrigin?: string | undefined;
  /**
   * The SES configuration set to send with (`Config.sesConfigurationSet`): each mail then carries the tags
   * `app`, `mid` and `kind` (mailTags), so that its bounce or complaint event names the tenant and the mail.
   */
  configurationSet?: string | undefined;
  /**
   * The deployment's name (`Config.senderName`), shown after the tenant's in every mail's From: `Acme via <name>`,
   * so that a tenant named after a bank or another shop does not pass as it. Unset: the sender address's domain.
   */
  senderName?: string | undefined;
}

/** The From display name of a tenant's mail: its name, then the deployment's (`Acme via id.example`). */
export function senderDisplayName(tenantName: string, senderName: string): string {
  return `${tenantName} via ${senderName}`;
}

const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;
/** RFC 2047: an encoded-word is at most 75 characters; `=?UTF-8?B?` + `?=` leave 63 for base64, 45 bytes. */
const MAX_ENCODED_WORD_BYTES = 45;

function encodedWords(text: string): string {
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    // Split between code points, never inside one: each word must decode on its own.
    if (Buffer.byteLength(chunk + char) > MAX_ENCODED_WORD_BYTES) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word, 'utf8').toString('base64')}?=`).join(' ');
}

/**
 * `"Display Name" <address>` for the From header (RFC 5322 §3.4). An ASCII
 * name is a quoted-string with `"` and `\` escaped; any other name is RFC 2047
 * encoded-words (UTF-8, base64), as SES requires for non-ASCII display names.
 * Control characters are removed first, so a tenant name cannot inject a header.
 */
export function fromHeader(displayName: string, address: string): string {
  const name = cleanDisplayText(displayName);
  if (!name) return address;
  if (ASCII_PRINTABLE.test(name)) return `"${name.replace(/["\\]/g, '\\$&')}" <${address}>`;
  return `${encodedWords(name)} <${address}>`;
}

/** One plain address: no display name, list separator or whitespace that could reach another recipient. */
const SINGLE_ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;

interface SdkErrorShape {
  name?: unknown;
  $metadata?: { httpStatusCode?: unknown; requestId?: unknown };
}

/**
 * What may be logged or kept of an SES error. Never its message: SES
 * messages can repeat the recipient ("Email address is not verified. The
 * following identities failed the check: …").
 */
function sesErrorFields(error: unknown): { errorName: string; httpStatusCode?: number; sesRequestId?: string } {
  // Object() boxes a primitive or null (no name, no metadata) and keeps an object as it is.
  const shape = Object(error) as SdkErrorShape;
  const name = typeof shape.name === 'string' ? shape.name : typeof error;
  const status = shape.$metadata?.httpStatusCode;
  const requestId = shape.$metadata?.requestId;
  return {
    errorName: name,
    ...(typeof status === 'number' ? { httpStatusCode: status } : {}),
    ...(typeof requestId === 'string' ? { sesRequestId: requestId } : {}),
  };
}

/**
 * The SES client module, imported on the first mail: a login imports the
 * mailer for its e-mail-code branch, but a password login never sends, and
 * the client was about a fifth of a login's cold start (bench/NOTES.md).
 */
let sesModule: Promise<typeof import('@aws-sdk/client-sesv2')> | undefined;

/** SES reads 7-bit ASCII unless told the charset. */
const utf8 = (Data: string) => ({ Data, Charset: 'UTF-8' });

/**
 * The mailer over SES v2 (the SES v2 emulator locally). `from` is the bare
 * sender address (a verified SES identity); each mail shows the tenant's name
 * and the deployment's as the sender's display name (senderDisplayName). Given a client's configuration, it makes the
 * client on the first mail.
 */
export function sesMailer(
  client: SESv2Client | SESv2ClientConfig,
  from: string,
  options: SesMailerOptions = {},
): Mailer {
  let ses = 'send' in client ? client : undefined;
  const deployment = options.senderName || from.slice(from.lastIndexOf('@') + 1);
  return {
    async send(tenant, to, message, language) {
      if (!SINGLE_ADDRESS.test(to)) {
        // A programming error (the schemas check addresses), so a plain 500; the address stays out of the message.
        throw new Error(`mail ${message.kind}: the recipient is not one plain address`);
      }
      const mail = renderMail(tenant, message, {
        hostedOrigin: hostedOrigin({ hostedPagesOrigin: options.hostedPagesOrigin }, tenant.subdomain),
        to,
        language,
      });
      try {
        sesModule ??= import('@aws-sdk/client-sesv2');
        const sdk = await sesModule;
        ses ??= new sdk.SESv2Client(client);
        await ses.send(
          new sdk.SendEmailCommand({
            FromEmailAddress: fromHeader(senderDisplayName(tenant.name, deployment), from),
            Destination: { ToAddresses: [to] },
            Content: {
              Simple: {
                Subject: utf8(mail.subject),
                Body: { Text: utf8(mail.text), Html: utf8(mail.html) },
              },
            },
            ...(options.configurationSet
              ? { ConfigurationSetName: options.configurationSet, EmailTags: mailTags(tenant, message.kind) }
              : {}),
          }),
        );
      } catch (error) {
        const fields = sesErrorFields(error);
        options.log?.error('mail not sent', { kind: message.kind, tenantId: tenant.id, ...fields });
        // The cause keeps the error's kind, never its message (see sesErrorFields), nor the code or the address.
        const cause = new Error(`SES SendEmail failed: ${fields.errorName}`);
        cause.name = 'MailNotSent';
        throw fail('UNAVAILABLE', { headers: { 'retry-after': '5' }, cause });
      }
    },
  };
}

/**
 * The mailer of a function that sends mail, from its deps' configuration:
 * SES v2 on AWS, the SES emulator locally. Handlers of `ses` routes pass it
 * to httpHandler (`{ mailer: sesMailerFor }`).
 */
export function sesMailerFor(deps: Pick<Deps, 'config' | 'log'>): Mailer {
  const { sesEndpoint, region, senderEmail, sesConfigurationSet, senderName } = deps.config;
  const client: SESv2ClientConfig = {
    region: region ?? 'us-east-1',
    // The emulator takes any credentials; fixed ones keep a developer's real keys out of local runs.
    ...(sesEndpoint ? { endpoint: sesEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  };
  return sesMailer(client, senderEmail, {
    log: deps.log,
    hostedPagesOrigin: deps.config.hostedPagesOrigin,
    configurationSet: sesConfigurationSet,
    senderName,
  });
}
