import { SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SesEmulator, startSesEmulator } from '#local/ses.ts';
import { AppError } from '#shared/errors.ts';
import type { Mailer, MailMessage } from '#shared/mail/message.ts';
import { sesMailer } from '#shared/mail/ses-mailer.ts';
import { aMerchant } from '#test/support/builders.ts';

/** A mail as the SES v2 emulator keeps it (`GET /store`). */
interface StoredMail {
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

let emulator: SesEmulator;
let mailer: Mailer;
let counter = 0;

beforeAll(async () => {
  emulator = await startSesEmulator(0);
  const client = new SESv2Client({
    endpoint: emulator.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  mailer = sesMailer(client, 'no-reply@id.example');
});

afterAll(() => emulator?.close());

/** A fresh recipient, so each test finds its own mail whatever else the store holds. */
function aRecipient(): string {
  counter++;
  return `user${counter}-${Date.now().toString(36)}@shop.test`;
}

async function mailTo(address: string): Promise<StoredMail> {
  const store = (await (await fetch(`${emulator.url}/store`)).json()) as { emails: StoredMail[] };
  const found = store.emails.filter((mail) => mail.destination.to.includes(address));
  expect(found).toHaveLength(1);
  return found[0] as StoredMail;
}

const tenant = aMerchant({ name: 'Acme Plants', primaryColor: '#1a7f37', logoUrl: 'https://cdn.shop.test/logo.png' });

const CODE_KINDS = ['SIGNUP_CODE', 'LOGIN_CODE', 'PASSWORD_RESET_CODE', 'EMAIL_CHANGE_CODE'] as const;

describe('sesMailer against the SES v2 emulator', () => {
  it.each(CODE_KINDS)('%s: delivers the code in text and HTML, not in the subject', async (kind) => {
    const to = aRecipient();
    await mailer.send(tenant, to, { kind, code: '042917' }, 'en');

    const mail = await mailTo(to);
    expect(mail.destination.to).toEqual([to]);
    expect(mail.from).toBe('"Acme Plants via id.example" <no-reply@id.example>');
    expect(mail.subject).toContain('Acme Plants');
    expect(mail.subject).not.toContain('042917');
    expect(mail.body.text).toContain('042917');
    expect(mail.body.html).toContain('042917');
    expect(mail.body.text).toContain('10 minutes');
    expect(mail.body.html).toContain('<img src="https://cdn.shop.test/logo.png"');
  });

  it('INVITATION: delivers invitationToken=<token> in text and HTML', async () => {
    const to = aRecipient();
    await mailer.send(
      tenant,
      to,
      {
        kind: 'INVITATION',
        invitationToken: 'inv_Xy-z_09',
        inviterName: 'Ana',
        expiresAt: '2025-03-14T09:30:00.000Z',
      },
      'en',
    );

    const mail = await mailTo(to);
    expect(mail.subject).toBe('Ana invited you to Acme Plants');
    expect(mail.body.text).toContain('invitationToken=inv_Xy-z_09');
    expect(mail.body.html).toContain('invitationToken=inv_Xy-z_09');
  });

  it.each([
    { kind: 'ALREADY_REGISTERED' },
    { kind: 'PASSWORD_CHANGED' },
    { kind: 'PASSWORD_RESET_DONE' },
    { kind: 'EMAIL_CHANGED', newEmail: 'new@shop.test' },
    { kind: 'ACCOUNT_LOCKED', minutes: 15 },
  ] satisfies MailMessage[])('$kind: delivers a branded notice with both parts', async (message) => {
    const to = aRecipient();
    await mailer.send(tenant, to, message, 'en');

    const mail = await mailTo(to);
    expect(mail.subject).toContain('Acme Plants');
    expect(mail.body.text).toContain('Acme Plants');
    expect(mail.body.html).toContain('Acme Plants');
    if (message.kind === 'EMAIL_CHANGED') expect(mail.body.text).toContain('new@shop.test');
    if (message.kind === 'ACCOUNT_LOCKED') expect(mail.body.text).toContain('15 minutes');
  });

  it('escapes a hostile tenant name in HTML and drops a non-http logo', async () => {
    const hostile = aMerchant({ name: 'Evil "Shop" <script>alert(1)</script>', logoUrl: 'javascript:alert(1)' });
    const to = aRecipient();
    await mailer.send(hostile, to, { kind: 'LOGIN_CODE', code: '042917' }, 'en');

    const mail = await mailTo(to);
    expect(mail.from).toBe('"Evil \\"Shop\\" <script>alert(1)</script> via id.example" <no-reply@id.example>');
    expect(mail.subject).toBe('Your Evil "Shop" <script>alert(1)</script> sign-in code');
    expect(mail.body.html).not.toContain('<script>');
    expect(mail.body.html).toContain('Evil &quot;Shop&quot; &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.body.html).not.toContain('<img');
    expect(mail.body.html).not.toContain('javascript:');
    expect(mail.body.text).toContain('Evil "Shop" <script>alert(1)</script>');
  });

  it('sends a non-ASCII tenant name as RFC 2047 encoded-words', async () => {
    const to = aRecipient();
    await mailer.send(aMerchant({ name: 'Café Grün 🌿' }), to, { kind: 'PASSWORD_CHANGED' }, 'en');

    const mail = await mailTo(to);
    expect(mail.from).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <no-reply@id\.example>$/);
    expect(mail.subject).toBe('Your Café Grün 🌿 password was changed');
    expect(mail.body.html).toContain('Café Grün 🌿');
  });

  it('in German: the subject and both parts arrive as UTF-8, umlauts intact', async () => {
    const to = aRecipient();
    await mailer.send(tenant, to, { kind: 'PASSWORD_RESET_CODE', code: '042917' }, 'de');

    const mail = await mailTo(to);
    expect(mail.subject).toBe('Passwort für Acme Plants zurücksetzen');
    expect(mail.body.text).toContain(
      'Mit diesem Code legen Sie ein neues Passwort für Ihr Konto bei Acme Plants fest:',
    );
    expect(mail.body.text).toMatch(/^ {4}042917$/m);
    expect(mail.body.html).toContain('<html lang="de">');
    expect(mail.body.html).toContain('Er ist 10 Minuten lang gültig');
  });

  it('answers 503 UNAVAILABLE when SES cannot be reached', async () => {
    const unreachable = sesMailer(
      new SESv2Client({
        // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
        endpoint: 'http://127.0.0.1:9',
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: 1,
      }),
      'no-reply@id.example',
    );
    const error = await unreachable
      .send(tenant, aRecipient(), { kind: 'LOGIN_CODE', code: '042917' }, 'en')
      .catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: 503, headers: { 'retry-after': '5' } });
    expect(String(error.message)).not.toContain('042917');
  });
});
