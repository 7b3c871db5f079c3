import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '#shared/i18n/languages.ts';
import type { MailMessage } from '#shared/mail/message.ts';
import { CODE_LIFETIME_MINUTES, renderMail } from '#shared/mail/templates.ts';
import { aMerchant } from '#test/support/builders.ts';

const CODE_MESSAGES: MailMessage[] = [
  { kind: 'SIGNUP_CODE', code: '042917' },
  { kind: 'LOGIN_CODE', code: '042917' },
  { kind: 'PASSWORD_RESET_CODE', code: '042917' },
  { kind: 'EMAIL_CHANGE_CODE', code: '042917' },
  { kind: 'REAUTH_CODE', code: '042917' },
  { kind: 'PASSWORD_RESET_BY_ADMIN', code: '042917', challengeId: 'chl_abc' },
];

/** An invitation's expiry: a Friday, in UTC. */
const EXPIRES_AT = '2025-03-14T09:30:00.000Z';
const invitation = (invitationToken: string, inviterName: string | null = null): MailMessage => ({
  kind: 'INVITATION',
  invitationToken,
  inviterName,
  expiresAt: EXPIRES_AT,
});

const ALL_MESSAGES: MailMessage[] = [
  ...CODE_MESSAGES,
  { kind: 'ALREADY_REGISTERED' },
  invitation('tok_abc-DEF_123', 'Ana Admin'),
  invitation('tok_abc-DEF_123'),
  { kind: 'PASSWORD_CHANGED' },
  { kind: 'PASSWORD_RESET_DONE' },
  { kind: 'EMAIL_CHANGED', newEmail: 'new@shop.test' },
  { kind: 'EMAIL_CHANGE_REQUESTED', newEmail: 'new@shop.test' },
  { kind: 'ACCOUNT_LOCKED', minutes: 15 },
];

const tenant = aMerchant({ name: 'Acme Plants' });

const EVERY_LANGUAGE = ALL_MESSAGES.flatMap((message) =>
  LANGUAGES.map((language) => [message.kind, language, message] as const),
);
const preheaderOf = (html: string) => html.match(/<div style="display:none[^>]*>([^<]*)<\/div>/)?.[1];

describe('renderMail', () => {
  it.each(EVERY_LANGUAGE)(
    '%s in %s: names the tenant in the subject, has a text and an HTML part, and every placeholder filled',
    (_, language, message) => {
      const mail = renderMail(tenant, message, { language });
      expect(mail.subject).toContain('Acme Plants');
      expect(mail.text).toContain('Acme Plants');
      expect(mail.html).toContain('Acme Plants');
      expect(mail.html).toMatch(/^<!doctype html>/);
      expect(mail.html).toContain(`<html lang="${language}">`);
      expect(mail.text).not.toContain('<');
      for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/\{[A-Za-z]+\}/);
    },
  );

  it.each(CODE_MESSAGES.map((m) => [m.kind, m] as const))(
    '%s: the code is in both parts, never in the subject, and expires in 10 minutes',
    (_, message) => {
      const mail = renderMail(tenant, message);
      expect(mail.text).toContain('042917');
      expect(mail.html).toContain('042917');
      expect(mail.subject).not.toContain('042917');
      expect(mail.text).toContain(`expires in ${CODE_LIFETIME_MINUTES} minutes`);
      expect(mail.html).toContain(`expires in ${CODE_LIFETIME_MINUTES} minutes`);
    },
  );

  it.each(CODE_MESSAGES.map((m) => [m.kind, m] as const))(
    '%s in German: the code in both parts, never in the subject or the preview line, and its 10 minutes said',
    (_, message) => {
      const mail = renderMail(tenant, message, { language: 'de' });
      expect(mail.text).toMatch(/^ {4}042917$/m);
      expect(mail.html).toContain('042917');
      expect(mail.subject).not.toContain('042917');
      expect(preheaderOf(mail.html)).not.toContain('042917');
      const expiry = `Er ist ${CODE_LIFETIME_MINUTES} Minuten lang gültig und kann nur einmal verwendet werden.`;
      expect(mail.text).toContain(expiry);
      expect(preheaderOf(mail.html)).toContain(expiry);
    },
  );

  it.each(ALL_MESSAGES.map((m) => [m.kind, m] as const))(
    '%s in German: no English sentence is left, and the greeting and footer are German',
    (_, message) => {
      const english = renderMail(tenant, message);
      const german = renderMail(tenant, message, { language: 'de' });
      expect(german.subject).not.toBe(english.subject);
      expect(german.text).toMatch(/^Guten Tag,$/m);
      expect(german.text).toContain('Diese E-Mail kommt von Acme Plants und betrifft Ihr Konto.');
      expect(german.html).toContain('Guten Tag,');
      const englishLines = new Set(english.text.split('\n').filter((line) => /[a-z]{3}/.test(line)));
      for (const line of german.text.split('\n')) {
        // The tenant's name and a request's literal (`invitationToken=…`, `challengeId=…`) read the same in any language.
        if (line !== 'Acme Plants' && !/(invitationToken|challengeId)=/.test(line))
          expect(englishLines).not.toContain(line);
      }
    },
  );

  it('INVITATION in German: the inviter, and the expiry in words, in UTC', () => {
    const mail = renderMail(tenant, invitation('tok_abc-DEF_123', 'Ana'), { language: 'de' });
    expect(mail.subject).toBe('Ana hat Sie zu Acme Plants eingeladen');
    const expiry =
      'Die Einladung kann einmal verwendet werden und gilt bis Freitag, 14. März 2025, 09:30 UTC. Danach bitten Sie Ana um eine neue.';
    expect(mail.text).toContain(expiry);
    expect(mail.html).toContain(expiry);
    expect(preheaderOf(mail.html)).toBe(
      'Ihre Einladung zu Acme Plants steht in dieser E-Mail. Sie gilt bis Freitag, 14. März 2025, 09:30 UTC.',
    );
    const bare = renderMail(tenant, invitation('tok_abc-DEF_123'), { language: 'de' });
    expect(bare.subject).toBe('Ihre Einladung zu Acme Plants');
    expect(bare.text).toContain('Danach bitten Sie Acme Plants um eine neue.');
    expect(bare.text).toMatch(/^ {4}invitationToken=tok_abc-DEF_123$/m);
  });

  it('in German, links keep their address and take German labels', () => {
    const hosted = { hostedOrigin: 'https://acme.id.example', to: 'fern@shop.test', language: 'de' } as const;
    const reset = renderMail(tenant, { kind: 'PASSWORD_RESET_CODE', code: '042917' }, hosted);
    expect(reset.text).toContain(
      'Neues Passwort festlegen: https://acme.id.example/reset-password?email=fern%40shop.test',
    );
    const invited = renderMail(tenant, invitation('tok_1'), hosted);
    expect(invited.text).toContain('Einladung annehmen: https://acme.id.example/sign-up?invitationToken=tok_1');
  });

  it('ACCOUNT_LOCKED in German: Minute, Minuten', () => {
    expect(renderMail(tenant, { kind: 'ACCOUNT_LOCKED', minutes: 15 }, { language: 'de' }).subject).toBe(
      'Anmeldung bei Acme Plants für 15 Minuten gesperrt',
    );
    expect(renderMail(tenant, { kind: 'ACCOUNT_LOCKED', minutes: 1 }, { language: 'de' }).text).toContain(
      'für 1 Minute gesperrt.',
    );
  });

  it("a tenant without a name that can be shown is named in the mail's language", () => {
    const unnamed = aMerchant({ name: '\u202e\r\n' });
    expect(renderMail(unnamed, { kind: 'PASSWORD_CHANGED' }).text).toMatch(/^Your account$/m);
    expect(renderMail(unnamed, { kind: 'PASSWORD_CHANGED' }, { language: 'de' }).text).toMatch(/^Ihr Konto$/m);
  });

  it('a tenant name holding braces is shown as it is, never read as a placeholder', () => {
    const braces = aMerchant({ name: 'Shop {code} {name}' });
    for (const language of LANGUAGES) {
      const mail = renderMail(braces, { kind: 'LOGIN_CODE', code: '042917' }, { language });
      expect(mail.subject).toContain('Shop {code} {name}');
      expect(mail.subject).not.toContain('042917');
    }
  });

  it('keeps the code out of the HTML preview line (preheader)', () => {
    const { html } = renderMail(tenant, { kind: 'LOGIN_CODE', code: '042917' });
    const preheader = html.match(/<div style="display:none[^>]*>([^<]*)<\/div>/)?.[1];
    expect(preheader).toContain('sign-in code');
    expect(preheader).not.toContain('042917');
  });

  it('INVITATION: names the inviter and the expiry in words, in UTC', () => {
    const mail = renderMail(tenant, invitation('tok_abc-DEF_123', 'Ana'));
    expect(mail.subject).toBe('Ana invited you to Acme Plants');
    expect(mail.text).toContain('Ana has invited you to join Acme Plants.');
    const expiry =
      'The invitation works once, until Friday 14 March 2025, 09:30 UTC. After that, ask Ana for a new one.';
    expect(mail.text).toContain(expiry);
    expect(mail.html).toContain(expiry);
    const preheader = mail.html.match(/<div style="display:none[^>]*>([^<]*)<\/div>/)?.[1];
    expect(preheader).toBe(
      'Your invitation to join Acme Plants is inside. It works until Friday 14 March 2025, 09:30 UTC.',
    );
  });

  it('INVITATION without an inviter (an API key, an admin without a name): the tenant invites', () => {
    const mail = renderMail(tenant, invitation('tok_abc-DEF_123'));
    expect(mail.subject).toBe('You are invited to Acme Plants');
    expect(mail.text).toContain('You have been invited to join Acme Plants.');
    expect(mail.text).toContain('After that, ask Acme Plants for a new one.');
  });

  it('INVITATION without hosted pages: the literal invitationToken=<token>, the only way to the token', () => {
    const mail = renderMail(tenant, invitation('tok_abc-DEF_123', 'Ana'));
    expect(mail.text).toMatch(/^ {4}invitationToken=tok_abc-DEF_123$/m);
    expect(mail.html).toContain('>invitationToken=tok_abc-DEF_123</p>');
  });

  describe('links to the hosted pages, when the deployment has them', () => {
    const hosted = { hostedOrigin: 'https://acme.id.example', to: 'fern+1@shop.test' };

    it('INVITATION: a link to the sign-up page carrying invitationToken=<token>, and no token block beside it', () => {
      const mail = renderMail(tenant, invitation('tok_abc-DEF_123', 'Ana'), hosted);
      const link = 'https://acme.id.example/sign-up?invitationToken=tok_abc-DEF_123';
      expect(mail.text).toContain(`Accept the invitation: ${link}`);
      expect(mail.html).toContain(`<a href="${link}"`);
      // The token appears in the link only: in the text part, on the link's line; in HTML, the link and its spelling out.
      expect(mail.text.split('\n').filter((line) => line.includes('tok_abc-DEF_123'))).toEqual([
        `Accept the invitation: ${link}`,
      ]);
      expect(mail.html.split('tok_abc-DEF_123')).toHaveLength(3);
      expect(mail.text).not.toMatch(/^ {4}/m);
      expect(mail.html).not.toContain('font-family:ui-monospace');
      expect(mail.text).toContain('until Friday 14 March 2025, 09:30 UTC');
    });

    it('PASSWORD_RESET_CODE: a link to the reset page with the address filled in, beside the code', () => {
      const mail = renderMail(tenant, { kind: 'PASSWORD_RESET_CODE', code: '042917' }, hosted);
      const link = 'https://acme.id.example/reset-password?email=fern%2B1%40shop.test';
      expect(mail.text).toContain(`Choose a new password: ${link}`);
      expect(mail.text).toMatch(/^ {4}042917$/m);
      expect(mail.html).toContain(`<a href="${link}"`);
    });

    it('PASSWORD_RESET_BY_ADMIN: says an administrator sent it, and its link carries the address and the challenge', () => {
      const mail = renderMail(
        tenant,
        { kind: 'PASSWORD_RESET_BY_ADMIN', code: '042917', challengeId: 'chl_abc' },
        hosted,
      );
      const link = 'https://acme.id.example/reset-password?email=fern%2B1%40shop.test&challenge=chl_abc';
      expect(mail.subject).toBe('Choose a new Acme Plants password');
      expect(mail.text).toContain('An administrator of Acme Plants sent you this code');
      expect(mail.text).toContain(`Choose a new password: ${link}`);
      expect(mail.text).toMatch(/^ {4}042917$/m);
      expect(mail.html).toContain(`<a href="${link.replace('&', '&amp;')}"`);
      // Without hosted pages the tenant's own app is given the challenge, as a literal.
      const bare = renderMail(tenant, { kind: 'PASSWORD_RESET_BY_ADMIN', code: '042917', challengeId: 'chl_abc' });
      expect(bare.text).toMatch(/^ {4}challengeId=chl_abc$/m);
      expect(bare.html).not.toContain('<a href');
    });

    it('encodes the token in the URL and escapes the link in HTML', () => {
      const mail = renderMail(tenant, invitation('"><b>t&x</b>'), hosted);
      expect(mail.text).toContain('/sign-up?invitationToken=%22%3E%3Cb%3Et%26x%3C%2Fb%3E');
      expect(mail.html).not.toContain('"><b>');
      expect(mail.html).toContain(
        'href="https://acme.id.example/sign-up?invitationToken=%22%3E%3Cb%3Et%26x%3C%2Fb%3E"',
      );
      // Without hosted pages the token stands on its own, escaped.
      const bare = renderMail(tenant, invitation('"><b>t&x</b>'));
      expect(bare.html).not.toContain('"><b>');
      expect(bare.html).toContain('invitationToken=&quot;&gt;&lt;b&gt;t&amp;x&lt;/b&gt;');
    });

    it('without hosted pages (or with an origin that is not one), no link: the mail says what it always said', () => {
      for (const context of [{}, { to: 'fern@shop.test' }, { hostedOrigin: 'javascript:alert(1)//x' }]) {
        for (const message of [
          invitation('tok_1'),
          { kind: 'PASSWORD_RESET_CODE', code: '042917' },
        ] satisfies MailMessage[]) {
          const mail = renderMail(tenant, message, context);
          expect(mail, message.kind).toEqual(renderMail(tenant, message));
          expect(mail.html).not.toContain('<a href');
          expect(mail.text).not.toMatch(/https?:|javascript:/);
        }
      }
    });

    it('other mails carry no link', () => {
      const linked = ['INVITATION', 'PASSWORD_RESET_CODE', 'PASSWORD_RESET_BY_ADMIN'];
      for (const message of ALL_MESSAGES.filter((m) => !linked.includes(m.kind))) {
        expect(renderMail(tenant, message, hosted).html, message.kind).not.toContain('<a href');
      }
    });
  });

  it('ALREADY_REGISTERED: suggests signing in or resetting the password, with no code', () => {
    const mail = renderMail(tenant, { kind: 'ALREADY_REGISTERED' });
    expect(mail.text).toMatch(/already have one/);
    expect(mail.text).toMatch(/sign in/);
    expect(mail.text).toMatch(/reset/);
    expect(mail.text).not.toMatch(/\d{6}/);
  });

  it('EMAIL_CHANGED names the new address; ACCOUNT_LOCKED the minutes', () => {
    expect(renderMail(tenant, { kind: 'EMAIL_CHANGED', newEmail: 'new@shop.test' }).text).toContain('new@shop.test');
    const locked = renderMail(tenant, { kind: 'ACCOUNT_LOCKED', minutes: 15 });
    expect(locked.subject).toContain('15 minutes');
    expect(locked.text).toContain('15 minutes');
    expect(renderMail(tenant, { kind: 'ACCOUNT_LOCKED', minutes: 0.5 }).text).toContain('1 minute.');
  });

  it('EMAIL_CHANGE_REQUESTED names the address asked for, says nothing changed yet, and carries no code', () => {
    const mail = renderMail(tenant, { kind: 'EMAIL_CHANGE_REQUESTED', newEmail: 'new@shop.test' });
    expect(mail.text).toContain('new@shop.test');
    expect(mail.text).toMatch(/Nothing has changed yet/);
    expect(mail.text).not.toMatch(/\d{6}/);
  });

  it('escapes a hostile tenant name, inviter and address in HTML, and keeps line breaks out of the subject', () => {
    const hostile = aMerchant({ name: '<script>alert("x")</script>\r\nBcc: eve@evil.test' });
    for (const message of [
      invitation('<b>t</b>', '<img src=x onerror=alert(1)>'),
      { kind: 'EMAIL_CHANGED', newEmail: '"><script>@x.test' },
      { kind: 'EMAIL_CHANGE_REQUESTED', newEmail: '"><script>@x.test' },
      { kind: 'LOGIN_CODE', code: '042917' },
    ] satisfies MailMessage[]) {
      const mail = renderMail(hostile, message);
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).not.toContain('<img src=x');
      expect(mail.html).not.toContain('"><script>');
      expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.text).toContain('<script>alert("x")</script> Bcc: eve@evil.test');
    }
  });

  it('uses valid tenant colours and falls back to neutral ones for anything else', () => {
    const branded = renderMail(aMerchant({ primaryColor: '#1A7F37', secondaryColor: '#FFD33D' }), {
      kind: 'LOGIN_CODE',
      code: '042917',
    });
    expect(branded.html).toContain('background:#1a7f37');
    expect(branded.html).toContain('border:2px solid #ffd33d');

    const hostile = renderMail(
      aMerchant({ primaryColor: 'red;background:url(https://evil.test/x)', secondaryColor: '#fff' }),
      { kind: 'LOGIN_CODE', code: '042917' },
    );
    expect(hostile.html).not.toContain('evil.test');
    expect(hostile.html).toContain('background:#27272a');
    expect(hostile.html).toContain('border:2px solid #d4d4d8');
  });

  it('shows an http(s) logo and omits any other', () => {
    const withLogo = renderMail(aMerchant({ logoUrl: 'https://cdn.shop.test/logo.png?a=1&b="2"' }), {
      kind: 'PASSWORD_CHANGED',
    });
    expect(withLogo.html).toContain('<img src="https://cdn.shop.test/logo.png?a=1&amp;b=%222%22"');
    for (const logoUrl of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://shop.test/logo.png',
      '//shop.test/logo.png',
      'not a url',
      'https://user:pass@shop.test/logo.png',
    ]) {
      const mail = renderMail(aMerchant({ logoUrl }), { kind: 'PASSWORD_CHANGED' });
      expect(mail.html, logoUrl).not.toContain('<img');
    }
  });
});
