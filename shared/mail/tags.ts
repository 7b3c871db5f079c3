import type { Merchant } from '../tenancy/types.ts';
import type { MailMessage } from './message.ts';

/**
 * What an SES message tag's name and value may hold (SES v2 API Reference, MessageTag: ASCII letters, digits,
 * `_` and `-`, at most 256 characters). A tenant's `app` and `mid` are generated ids (`app_…`, `mid_…`) and a
 * mail's kind an upper-case word, so they fit; anything else is left out rather than refused by SES.
 */
const TAG_VALUE = /^[A-Za-z0-9_-]{1,256}$/;

/** The names of the message tags (read back from SES's events by functions/mail/ses-events.ts). */
export const MAIL_TAG = { app: 'app', mid: 'mid', kind: 'kind' } as const;

/**
 * The tags of a mail sent with a configuration set: the tenant (`app`, `mid`: ids, never a name or an address)
 * and the mail's kind. SES publishes them in every event of the mail (`mail.tags`), which is how the SES events
 * function (functions/mail/ses-events.ts) knows whose bounce or complaint it is.
 */
export function mailTags(tenant: Pick<Merchant, 'app' | 'mid'>, kind: MailMessage['kind']) {
  return [
    { Name: MAIL_TAG.app, Value: tenant.app },
    { Name: MAIL_TAG.mid, Value: tenant.mid },
    { Name: MAIL_TAG.kind, Value: kind },
  ].filter((tag) => TAG_VALUE.test(tag.Value));
}
