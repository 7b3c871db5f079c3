import { DEFAULT_LANGUAGE, type Language } from '../i18n/languages.ts';
import { type Brand, type Branding, brandingOf, cleanDisplayText, escapeHtml } from './branding.ts';
import { fillText, MAIL_CATALOGUES, type MailTextKey } from './catalogue.ts';
import type { MailMessage } from './message.ts';

/** E-mail codes live this long (CHALLENGE_TTL_MS, shared/lifetimes.ts); every code mail says so. */
export const CODE_LIFETIME_MINUTES = 10;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** One piece of a mail body, rendered both as text and as HTML. */
type Block = { paragraph: string } | { code: string } | { link: string; label: string };

/** What a mail may know beyond the tenant and the message: where its links lead, and its reader's language. */
export interface MailContext {
  /**
   * The tenant's hosted pages (`hostedOrigin(config, subdomain)`), when the
   * deployment has them: invitation and reset mails then link to the page that
   * takes what they carry.
   */
  hostedOrigin?: string | undefined;
  /** The recipient, filled into the reset page's link. */
  to?: string | undefined;
  /** The language to write in (shared/i18n/languages.ts); English when none is named. */
  language?: Language | undefined;
}

interface Content {
  /**
   * Subjects never carry a code: a subject shows on lock screens and in
   * notification previews, where anyone holding the phone could read and use
   * it. The code is only in the body, below a first line without it, and the
   * HTML preheader (the preview line) says only that a code is inside.
   */
  subject: string;
  preheader: string;
  blocks: Block[];
}

/** Renders the catalogue's texts of one language. */
interface Words {
  /** The tenant's name, as the mail shows it. */
  name: string;
  /** A text of the catalogue, its placeholders filled (`name`, the tenant's, always). */
  t(key: MailTextKey, values?: Record<string, string | number>): string;
  minutes(count: number): string;
  /**
   * An instant in words, in UTC (the recipient's zone is unknown), spelled out so that no reader takes day for
   * month: "Friday 14 March 2025, 09:30 UTC", "Freitag, 14. März 2025, 09:30 UTC".
   */
  dateInWords(iso: string): string;
}

function wordsOf(language: Language, tenantName: string): Words {
  const catalogue = MAIL_CATALOGUES[language];
  const t = (key: MailTextKey, values: Record<string, string | number> = {}) =>
    fillText(catalogue.texts[key], { name: tenantName, ...values });
  return {
    name: tenantName,
    t,
    minutes: (count) => (count === 1 ? t('minutes.one') : t('minutes.other', { count })),
    dateInWords(iso) {
      const at = new Date(iso);
      return t('dateTime', {
        weekday: catalogue.weekdays[at.getUTCDay()] as string,
        day: at.getUTCDate(),
        month: catalogue.months[at.getUTCMonth()] as string,
        year: at.getUTCFullYear(),
        time: `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`,
      });
    },
  };
}

/** A link to one of the tenant's hosted pages, or none when the deployment has none. */
function pageLink(context: MailContext, path: string, query: Record<string, string | undefined>): string | undefined {
  if (!context.hostedOrigin || !/^https?:\/\/[^/?#\s]+$/.test(context.hostedOrigin)) return undefined;
  const pairs = Object.entries(query).flatMap(([key, value]) => (value ? [`${key}=${encodeURIComponent(value)}`] : []));
  return `${context.hostedOrigin}${path}${pairs.length ? `?${pairs.join('&')}` : ''}`;
}

/** A code mail: a line, the code, its expiry, then what to do if the recipient did not ask for it. */
function codeMail(
  words: Words,
  texts: { subject: MailTextKey; preheader: MailTextKey; intro: MailTextKey; notYou: MailTextKey },
  code: string,
  afterExpiry: Block[] = [],
): Content {
  const { t } = words;
  const expiry = t('codeExpiry', { minutes: words.minutes(CODE_LIFETIME_MINUTES) });
  return {
    subject: t(texts.subject),
    preheader: t(texts.preheader, { expiry }),
    blocks: [
      { paragraph: t(texts.intro) },
      { code },
      { paragraph: expiry },
      ...afterExpiry,
      { paragraph: t(texts.notYou) },
    ],
  };
}

function contentOf(words: Words, message: MailMessage, context: MailContext): Content {
  const { t } = words;
  switch (message.kind) {
    case 'SIGNUP_CODE':
      return codeMail(
        words,
        {
          subject: 'signupCode.subject',
          preheader: 'signupCode.preheader',
          intro: 'signupCode.intro',
          notYou: 'signupCode.notYou',
        },
        message.code,
      );
    case 'LOGIN_CODE':
      return codeMail(
        words,
        {
          subject: 'loginCode.subject',
          preheader: 'loginCode.preheader',
          intro: 'loginCode.intro',
          notYou: 'loginCode.notYou',
        },
        message.code,
      );
    case 'PASSWORD_RESET_CODE': {
      // The page asks for the address, the code and the new password; the address is filled in.
      const page = pageLink(context, '/reset-password', { email: context.to });
      return codeMail(
        words,
        {
          subject: 'resetCode.subject',
          preheader: 'resetCode.preheader',
          intro: 'resetCode.intro',
          notYou: 'resetCode.notYou',
        },
        message.code,
        page ? [{ paragraph: t('resetCode.pageLead') }, { link: page, label: t('resetCode.pageLink') }] : [],
      );
    }
    case 'PASSWORD_RESET_BY_ADMIN': {
      // Not asked for in this browser: the link carries the challenge the code answers.
      const page = pageLink(context, '/reset-password', { email: context.to, challenge: message.challengeId });
      return codeMail(
        words,
        {
          subject: 'adminReset.subject',
          preheader: 'adminReset.preheader',
          intro: 'adminReset.intro',
          notYou: 'adminReset.notYou',
        },
        message.code,
        page
          ? [
              { paragraph: t('adminReset.pageLead') },
              { link: page, label: t('resetCode.pageLink') },
              { paragraph: t('adminReset.expired') },
            ]
          : // Without hosted pages the tenant's own app takes the reset: it needs the challenge, as that literal.
            [{ paragraph: t('adminReset.appLead') }, { code: `challengeId=${message.challengeId}` }],
      );
    }
    case 'EMAIL_CHANGE_CODE':
      return codeMail(
        words,
        {
          subject: 'emailChangeCode.subject',
          preheader: 'emailChangeCode.preheader',
          intro: 'emailChangeCode.intro',
          notYou: 'emailChangeCode.notYou',
        },
        message.code,
      );
    case 'REAUTH_CODE':
      return codeMail(
        words,
        {
          subject: 'reauthCode.subject',
          preheader: 'reauthCode.preheader',
          intro: 'reauthCode.intro',
          notYou: 'reauthCode.notYou',
        },
        message.code,
      );
    case 'ALREADY_REGISTERED':
      return {
        subject: t('alreadyRegistered.subject'),
        preheader: t('alreadyRegistered.preheader'),
        blocks: [
          { paragraph: t('alreadyRegistered.tried') },
          { paragraph: t('alreadyRegistered.ifYou') },
          { paragraph: t('alreadyRegistered.notYou') },
        ],
      };
    case 'INVITATION': {
      const inviter = message.inviterName ? cleanDisplayText(message.inviterName, 64) : '';
      const page = pageLink(context, '/sign-up', { invitationToken: message.invitationToken });
      const until = words.dateInWords(message.expiresAt);
      return {
        subject: inviter ? t('invitation.subjectFrom', { inviter }) : t('invitation.subject'),
        preheader: t('invitation.preheader', { until }),
        blocks: [
          { paragraph: inviter ? t('invitation.invitedBy', { inviter }) : t('invitation.invited') },
          // The link carries the token (`invitationToken=<token>`, which clients look for): nothing else to copy.
          ...(page
            ? [{ paragraph: t('invitation.pageLead') }, { link: page, label: t('invitation.pageLink') }]
            : // Without hosted pages the tenant's own app takes the token: the mail carries it, as that literal.
              [{ paragraph: t('invitation.tokenLead') }, { code: `invitationToken=${message.invitationToken}` }]),
          { paragraph: t('invitation.validity', { until, contact: inviter || words.name }) },
          { paragraph: t('invitation.notYou') },
        ],
      };
    }
    case 'PASSWORD_CHANGED':
      return {
        subject: t('passwordChanged.subject'),
        preheader: t('passwordChanged.preheader'),
        blocks: [
          { paragraph: t('passwordChanged.changed') },
          { paragraph: t('passwordChanged.ifYou') },
          { paragraph: t('passwordChanged.notYou') },
        ],
      };
    case 'PASSWORD_RESET_DONE':
      return {
        subject: t('passwordResetDone.subject'),
        preheader: t('passwordResetDone.preheader'),
        blocks: [
          { paragraph: t('passwordResetDone.reset') },
          { paragraph: t('passwordResetDone.ifYou') },
          { paragraph: t('passwordResetDone.notYou') },
        ],
      };
    case 'EMAIL_CHANGED': {
      const newEmail = cleanDisplayText(message.newEmail, 320);
      return {
        subject: t('emailChanged.subject'),
        preheader: t('emailChanged.preheader'),
        blocks: [
          { paragraph: t('emailChanged.changed', { newEmail }) },
          { paragraph: t('emailChanged.mailGoesThere') },
          { paragraph: t('emailChanged.notYou') },
        ],
      };
    }
    case 'EMAIL_CHANGE_REQUESTED': {
      const newEmail = cleanDisplayText(message.newEmail, 320);
      return {
        subject: t('emailChangeRequested.subject'),
        preheader: t('emailChangeRequested.preheader'),
        blocks: [
          { paragraph: t('emailChangeRequested.asked', { newEmail }) },
          { paragraph: t('emailChangeRequested.notYet') },
          { paragraph: t('emailChangeRequested.notYou') },
        ],
      };
    }
    case 'ACCOUNT_LOCKED': {
      const lockedFor = words.minutes(Math.max(1, Math.ceil(message.minutes)));
      return {
        subject: t('accountLocked.subject', { lockedFor }),
        preheader: t('accountLocked.preheader'),
        blocks: [
          { paragraph: t('accountLocked.locked', { lockedFor }) },
          { paragraph: t('accountLocked.ifYou') },
          { paragraph: t('accountLocked.notYou') },
        ],
      };
    }
    case 'WEBHOOK_DISABLED': {
      const page = pageLink(context, '/console/webhooks', {});
      return {
        subject: t('webhookDisabled.subject'),
        preheader: t('webhookDisabled.preheader'),
        blocks: [
          { paragraph: t('webhookDisabled.off') },
          { code: message.url },
          { paragraph: t('webhookDisabled.what') },
          ...(page ? [{ link: page, label: t('webhookDisabled.pageLink') }] : []),
        ],
      };
    }
  }
}

function renderText(brand: Branding, content: Content, words: Words): string {
  const body = content.blocks.map((block) =>
    'code' in block ? `    ${block.code}` : 'link' in block ? `${block.label}: ${block.link}` : block.paragraph,
  );
  return [
    brand.name,
    '',
    words.t('greeting'),
    '',
    ...body.flatMap((line) => [line, '']),
    '--',
    words.t('footer'),
    '',
  ].join('\n');
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace";

function renderHtml(brand: Branding, content: Content, words: Words, language: Language): string {
  const name = escapeHtml(brand.name);
  // Colours are validated `#rrggbb` (brandingOf); the logo URL is http(s) only and escaped as an attribute.
  const header = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${name}" height="40" style="display:block;height:40px;max-width:240px;border:0">`
    : `<span style="font-size:20px;font-weight:600">${name}</span>`;
  const blocks = content.blocks
    .map((block) => {
      if ('code' in block) {
        return `<p style="margin:24px 0;padding:12px 16px;border:2px solid ${brand.secondaryColor};border-radius:8px;font-family:${MONO};font-size:${block.code.length > 12 ? '15px;word-break:break-all' : '32px;letter-spacing:6px'};font-weight:700;color:#18181b;text-align:center">${escapeHtml(block.code)}</p>`;
      }
      if ('link' in block) {
        // A button-like link, and the address spelled out below it for clients that strip links.
        return `<p style="margin:24px 0 8px;text-align:center"><a href="${escapeHtml(block.link)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:${brand.primaryColor};color:${brand.onPrimaryColor};font-size:16px;font-weight:600;text-decoration:none">${escapeHtml(block.label)}</a></p>
<p style="margin:0 0 16px;font-size:12px;line-height:18px;color:#52525b;word-break:break-all;text-align:center">${escapeHtml(block.link)}</p>`;
      }
      return `<p style="margin:0 0 16px;font-size:16px;line-height:24px">${escapeHtml(block.paragraph)}</p>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f4f5;color:#18181b;font-family:${FONT}">
<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(content.preheader)}</div>
<div style="max-width:560px;margin:0 auto;padding:24px 16px">
<div style="background:${brand.primaryColor};color:${brand.onPrimaryColor};padding:16px 24px;border-radius:8px 8px 0 0">${header}</div>
<div style="background:#ffffff;padding:24px;border-radius:0 0 8px 8px">
<p style="margin:0 0 16px;font-size:16px;line-height:24px">${escapeHtml(words.t('greeting'))}</p>
${blocks}
</div>
<p style="margin:16px 0 0;font-size:12px;line-height:18px;color:#71717a">${escapeHtml(words.t('footer'))}</p>
</div>
</body>
</html>
`;
}

/**
 * The subject, text part and HTML part of `message` in the context's language (English unless it names another),
 * branded for `tenant`, with links to the tenant's hosted pages when `context` names them. Every interpolated value
 * is escaped in HTML.
 */
export function renderMail(tenant: Brand, message: MailMessage, context: MailContext = {}): RenderedMail {
  const language = context.language ?? DEFAULT_LANGUAGE;
  const brand = brandingOf(tenant, MAIL_CATALOGUES[language].texts.unnamedTenant);
  const words = wordsOf(language, brand.name);
  const content = contentOf(words, message, context);
  return {
    subject: content.subject,
    text: renderText(brand, content, words),
    html: renderHtml(brand, content, words, language),
  };
}
