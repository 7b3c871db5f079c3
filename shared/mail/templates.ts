import { type Brand, type Branding, brandingOf, cleanDisplayText, escapeHtml } from './branding.ts';
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

/** What a mail may know beyond the tenant and the message: where its links lead. */
export interface MailContext {
  /**
   * The tenant's hosted pages (`hostedOrigin(config, subdomain)`), when the
   * deployment has them: invitation and reset mails then link to the page that
   * takes what they carry.
   */
  hostedOrigin?: string | undefined;
  /** The recipient, filled into the reset page's link. */
  to?: string | undefined;
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

function minutes(count: number): string {
  return count === 1 ? '1 minute' : `${count} minutes`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * An instant in words, in UTC (the recipient's zone is unknown), spelled out so that no reader takes day for
 * month: "Friday 14 March 2025, 09:30 UTC".
 */
function dateInWords(iso: string): string {
  const at = new Date(iso);
  const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
  return `${WEEKDAYS[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${time} UTC`;
}

/** A link to one of the tenant's hosted pages, or none when the deployment has none. */
function pageLink(context: MailContext, path: string, query: Record<string, string | undefined>): string | undefined {
  if (!context.hostedOrigin || !/^https?:\/\/[^/?#\s]+$/.test(context.hostedOrigin)) return undefined;
  const pairs = Object.entries(query).flatMap(([key, value]) => (value ? [`${key}=${encodeURIComponent(value)}`] : []));
  return `${context.hostedOrigin}${path}${pairs.length ? `?${pairs.join('&')}` : ''}`;
}

function contentOf(name: string, message: MailMessage, context: MailContext): Content {
  const expiry = `It expires in ${minutes(CODE_LIFETIME_MINUTES)} and works once.`;
  switch (message.kind) {
    case 'SIGNUP_CODE':
      return {
        subject: `Confirm your e-mail address for ${name}`,
        preheader: `Your ${name} confirmation code is inside. ${expiry}`,
        blocks: [
          { paragraph: `Use this code to finish creating your ${name} account:` },
          { code: message.code },
          { paragraph: expiry },
          { paragraph: 'If you did not sign up, ignore this e-mail: no account is created without the code.' },
        ],
      };
    case 'LOGIN_CODE':
      return {
        subject: `Your ${name} sign-in code`,
        preheader: `Your ${name} sign-in code is inside. ${expiry}`,
        blocks: [
          { paragraph: `Use this code to sign in to ${name}:` },
          { code: message.code },
          { paragraph: expiry },
          {
            paragraph:
              'If you did not try to sign in, ignore this e-mail: nobody can sign in without the code. Never share it; we will never ask you for it.',
          },
        ],
      };
    case 'PASSWORD_RESET_CODE': {
      // The page asks for the address, the code and the new password; the address is filled in.
      const page = pageLink(context, '/reset-password', { email: context.to });
      return {
        subject: `Reset your ${name} password`,
        preheader: `Your ${name} password reset code is inside. ${expiry}`,
        blocks: [
          { paragraph: `Use this code to choose a new password for your ${name} account:` },
          { code: message.code },
          { paragraph: expiry },
          ...(page
            ? [
                { paragraph: 'Enter it on this page, in the browser where you asked for it:' },
                { link: page, label: 'Choose a new password' },
              ]
            : []),
          { paragraph: 'If you did not ask to reset your password, ignore this e-mail: your password stays as it is.' },
        ],
      };
    }
    case 'PASSWORD_RESET_BY_ADMIN': {
      // Not asked for in this browser: the link carries the challenge the code answers.
      const page = pageLink(context, '/reset-password', { email: context.to, challenge: message.challengeId });
      return {
        subject: `Choose a new ${name} password`,
        preheader: `A code to choose a new ${name} password is inside. ${expiry}`,
        blocks: [
          {
            paragraph: `An administrator of ${name} sent you this code to choose a new password for your account:`,
          },
          { code: message.code },
          { paragraph: expiry },
          ...(page
            ? [
                { paragraph: 'Enter it on this page:' },
                { link: page, label: 'Choose a new password' },
                {
                  paragraph: 'Once the code has expired, the page sends you a new one: choose "Send a new code" there.',
                },
              ]
            : // Without hosted pages the tenant's own app takes the reset: it needs the challenge, as that literal.
              [
                { paragraph: `Enter it in ${name} with this request:` },
                { code: `challengeId=${message.challengeId}` },
              ]),
          {
            paragraph:
              'If you did not expect this, you may ignore it: your password stays as it is until you choose a new one.',
          },
        ],
      };
    }
    case 'EMAIL_CHANGE_CODE':
      return {
        subject: `Confirm your new e-mail address for ${name}`,
        preheader: `Your ${name} confirmation code is inside. ${expiry}`,
        blocks: [
          { paragraph: `Use this code to make this address the e-mail address of your ${name} account:` },
          { code: message.code },
          { paragraph: expiry },
          { paragraph: 'If you did not ask for this, ignore this e-mail: nothing changes without the code.' },
        ],
      };
    case 'ALREADY_REGISTERED':
      return {
        subject: `You already have a ${name} account`,
        preheader: `Someone tried to sign up to ${name} with this e-mail address.`,
        blocks: [
          {
            paragraph: `Someone tried to create a ${name} account with this e-mail address, but you already have one.`,
          },
          {
            paragraph:
              'If that was you, sign in instead. If you forgot your password, use "Forgot password" on the sign-in page to reset it.',
          },
          { paragraph: 'If it was not you, ignore this e-mail: nothing has changed in your account.' },
        ],
      };
    case 'INVITATION': {
      const inviter = message.inviterName ? cleanDisplayText(message.inviterName, 64) : '';
      const page = pageLink(context, '/sign-up', { invitationToken: message.invitationToken });
      const until = dateInWords(message.expiresAt);
      return {
        subject: inviter ? `${inviter} invited you to ${name}` : `You are invited to ${name}`,
        preheader: `Your invitation to join ${name} is inside. It works until ${until}.`,
        blocks: [
          {
            paragraph: inviter
              ? `${inviter} has invited you to join ${name}.`
              : `You have been invited to join ${name}.`,
          },
          // The link carries the token (`invitationToken=<token>`, which clients look for): nothing else to copy.
          ...(page
            ? [
                { paragraph: 'To accept, open this link and create your account:' },
                { link: page, label: 'Accept the invitation' },
              ]
            : // Without hosted pages the tenant's own app takes the token: the mail carries it, as that literal.
              [
                { paragraph: `To accept, sign up to ${name} with this invitation:` },
                { code: `invitationToken=${message.invitationToken}` },
              ]),
          {
            paragraph: `The invitation works once, until ${until}. After that, ask ${inviter || name} for a new one.`,
          },
          {
            paragraph: 'If you did not expect this invitation, ignore this e-mail: no account is created without you.',
          },
        ],
      };
    }
    case 'PASSWORD_CHANGED':
      return {
        subject: `Your ${name} password was changed`,
        preheader: `The password of your ${name} account was just changed.`,
        blocks: [
          {
            paragraph: `The password of your ${name} account was just changed, and your other sessions were signed out.`,
          },
          { paragraph: 'If you did this, there is nothing more to do.' },
          {
            paragraph:
              'If you did not, someone else knows your password: reset it now with "Forgot password" on the sign-in page.',
          },
        ],
      };
    case 'PASSWORD_RESET_DONE':
      return {
        subject: `Your ${name} password was reset`,
        preheader: `The password of your ${name} account was reset.`,
        blocks: [
          {
            paragraph: `The password of your ${name} account was reset with a code sent to this address, and every session was signed out.`,
          },
          { paragraph: 'If you did this, there is nothing more to do.' },
          {
            paragraph:
              'If you did not, someone can read your e-mail: secure your mailbox first, then reset your password again.',
          },
        ],
      };
    case 'EMAIL_CHANGED': {
      const newEmail = cleanDisplayText(message.newEmail, 320);
      return {
        subject: `Your ${name} e-mail address was changed`,
        preheader: `The e-mail address of your ${name} account was changed.`,
        blocks: [
          { paragraph: `The e-mail address of your ${name} account was changed to ${newEmail}.` },
          { paragraph: 'Sign-in codes and account notices now go to that address, no longer to this one.' },
          { paragraph: `If you did not do this, contact ${name} at once.` },
        ],
      };
    }
    case 'EMAIL_CHANGE_REQUESTED': {
      const newEmail = cleanDisplayText(message.newEmail, 320);
      return {
        subject: `A change of your ${name} e-mail address was requested`,
        preheader: `Someone asked to move your ${name} account to another e-mail address.`,
        blocks: [
          { paragraph: `Someone signed in to your ${name} account asked to change its e-mail address to ${newEmail}.` },
          { paragraph: 'Nothing has changed yet: the change needs a code sent to that address.' },
          {
            paragraph: `If this was not you, sign out every session and change your password now, then contact ${name}.`,
          },
        ],
      };
    }
    case 'REAUTH_CODE':
      return {
        subject: `Confirm it is you at ${name}`,
        preheader: `Your ${name} confirmation code is inside. ${expiry}`,
        blocks: [
          {
            paragraph: `Use this code to confirm it is you before changing the security settings of your ${name} account:`,
          },
          { code: message.code },
          { paragraph: expiry },
          {
            paragraph:
              'If you did not ask for this, someone may be using your signed-in session: sign out every session and change your password. Never share this code.',
          },
        ],
      };
    case 'ACCOUNT_LOCKED': {
      const lockedFor = minutes(Math.max(1, Math.ceil(message.minutes)));
      return {
        subject: `Sign-in to ${name} is blocked for ${lockedFor}`,
        preheader: `Too many failed attempts to sign in to your ${name} account.`,
        blocks: [
          {
            paragraph: `There were too many failed attempts to sign in to your ${name} account, so signing in is blocked for ${lockedFor}.`,
          },
          { paragraph: 'If that was you, wait and try again, or reset your password with "Forgot password".' },
          {
            paragraph:
              'If it was not you, someone may be guessing your password: once you can sign in, make sure it is long and used nowhere else.',
          },
        ],
      };
    }
  }
}

function renderText(brand: Branding, content: Content): string {
  const body = content.blocks.map((block) =>
    'code' in block ? `    ${block.code}` : 'link' in block ? `${block.label}: ${block.link}` : block.paragraph,
  );
  return [brand.name, '', 'Hello,', '', ...body.flatMap((line) => [line, '']), '--', footerOf(brand), ''].join('\n');
}

function footerOf(brand: Branding): string {
  return `Sent by ${brand.name} about your account. Replies to this address are not read.`;
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace";

function renderHtml(brand: Branding, content: Content): string {
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
<html lang="en">
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
<p style="margin:0 0 16px;font-size:16px;line-height:24px">Hello,</p>
${blocks}
</div>
<p style="margin:16px 0 0;font-size:12px;line-height:18px;color:#71717a">${escapeHtml(footerOf(brand))}</p>
</div>
</body>
</html>
`;
}

/**
 * The subject, text part and HTML part of `message`, branded for `tenant`, with links to the tenant's hosted pages
 * when `context` names them. Every interpolated value is escaped in HTML.
 */
export function renderMail(tenant: Brand, message: MailMessage, context: MailContext = {}): RenderedMail {
  const brand = brandingOf(tenant);
  const content = contentOf(brand.name, message, context);
  return { subject: content.subject, text: renderText(brand, content), html: renderHtml(brand, content) };
}
