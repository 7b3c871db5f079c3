import { SESv2Client, SESv2ServiceException, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDeps } from '#shared/deps.ts';
import { AppError } from '#shared/errors.ts';
import type { LogFields, Logger } from '#shared/log.ts';
import { fromHeader, sesMailer, sesMailerFor } from '#shared/mail/ses-mailer.ts';
import { mailTags } from '#shared/mail/tags.ts';
import { aMerchant } from '#test/support/builders.ts';

const ses = mockClient(SESv2Client);
const client = new SESv2Client({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

afterEach(() => {
  ses.reset();
});

function recordingLogger(): Logger & { lines: { message: string; fields?: LogFields }[] } {
  const lines: { message: string; fields?: LogFields }[] = [];
  return {
    lines,
    info: (message, fields) => lines.push({ message, fields }),
    error: (message, fields) => lines.push({ message, fields }),
  };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('sesMailer.send', () => {
  it('sends one SendEmail with the branded sender, the recipient and UTF-8 text and HTML parts', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const tenant = aMerchant({ name: 'Acme Plants' });
    await sesMailer(client, 'no-reply@id.example').send(
      tenant,
      'ana@shop.test',
      { kind: 'LOGIN_CODE', code: '042917' },
      'en',
    );

    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.args[0].input;
    // The deployment is named too (the sender's domain by default): a tenant's name alone could pass as anyone.
    expect(input?.FromEmailAddress).toBe('"Acme Plants via id.example" <no-reply@id.example>');
    expect(input?.Destination).toEqual({ ToAddresses: ['ana@shop.test'] });
    const simple = input?.Content?.Simple;
    expect(simple?.Subject).toEqual({ Data: 'Your Acme Plants sign-in code', Charset: 'UTF-8' });
    expect(simple?.Body?.Text?.Charset).toBe('UTF-8');
    expect(simple?.Body?.Text?.Data).toContain('042917');
    expect(simple?.Body?.Html?.Charset).toBe('UTF-8');
    expect(simple?.Body?.Html?.Data).toContain('042917');
  });

  it("names the deployment after the tenant in the From, as configured: a tenant called like a bank stays 'via' us", async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-2' });
    const tenant = aMerchant({ name: 'Your Bank Security Team' });
    await sesMailer(client, 'no-reply@id.example', { senderName: 'Plant ID' }).send(
      tenant,
      'ana@shop.test',
      { kind: 'LOGIN_CODE', code: '042917' },
      'en',
    );
    const input = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
    expect(input?.FromEmailAddress).toBe('"Your Bank Security Team via Plant ID" <no-reply@id.example>');
  });

  it('answers 503 UNAVAILABLE with Retry-After when SES fails, naming neither the code nor the address', async () => {
    const rejection = new SESv2ServiceException({
      name: 'MessageRejected',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, requestId: 'req-ses-1' },
      message: 'Email address is not verified. The following identities failed the check: ana@shop.test 042917',
    });
    ses.on(SendEmailCommand).rejects(rejection);
    const log = recordingLogger();
    const tenant = aMerchant();

    const error = await caught(
      sesMailer(client, 'no-reply@id.example', { log }).send(
        tenant,
        'ana@shop.test',
        { kind: 'SIGNUP_CODE', code: '042917' },
        'en',
      ),
    );

    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.code).toBe('UNAVAILABLE');
    expect(appError.status).toBe(503);
    expect(appError.headers).toEqual({ 'retry-after': '5' });
    const everything = JSON.stringify({
      message: appError.message,
      detail: appError.detail,
      cause: String(appError.cause),
      log: log.lines,
    });
    expect(everything).not.toContain('042917');
    expect(everything).not.toContain('ana@shop.test');
    expect(String(appError.cause)).toContain('MessageRejected');
    expect(log.lines).toEqual([
      {
        message: 'mail not sent',
        fields: {
          kind: 'SIGNUP_CODE',
          tenantId: tenant.id,
          errorName: 'MessageRejected',
          httpStatusCode: 400,
          sesRequestId: 'req-ses-1',
        },
      },
    ]);
  });

  it('answers 503 UNAVAILABLE for a network failure too', async () => {
    ses.on(SendEmailCommand).rejects(new Error('connect ECONNREFUSED 127.0.0.1:8005'));
    const error = await caught(
      sesMailer(client, 'no-reply@id.example').send(aMerchant(), 'ana@shop.test', { kind: 'PASSWORD_CHANGED' }, 'en'),
    );
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
  });

  it.each(['ana@shop.test, eve@evil.test', 'Ana <ana@shop.test>', 'ana@shop.test\r\nBcc: eve@evil.test', 'ana'])(
    'refuses a recipient that is not one plain address (%j) without calling SES',
    async (to) => {
      const error = await caught(
        sesMailer(client, 'no-reply@id.example').send(aMerchant(), to, { kind: 'LOGIN_CODE', code: '1' }, 'en'),
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(AppError);
      expect((error as Error).message).not.toContain('shop.test');
      expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    },
  );
});

describe('sesMailer.send with a configuration set', () => {
  it('sends with ConfigurationSetName and tags naming the tenant (app, mid) and the kind of mail, nothing else', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-2' });
    const tenant = aMerchant({ app: 'app_9g0dd0z2gck08fv1', mid: 'mid_j4782e8dh6xs725j', name: 'Acme Plants' });
    await sesMailer(client, 'no-reply@id.example', { configurationSet: 'identity-feedback' }).send(
      tenant,
      'ana@shop.test',
      { kind: 'PASSWORD_RESET_CODE', code: '042917' },
      'en',
    );

    const input = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
    expect(input?.ConfigurationSetName).toBe('identity-feedback');
    expect(input?.EmailTags).toEqual([
      { Name: 'app', Value: 'app_9g0dd0z2gck08fv1' },
      { Name: 'mid', Value: 'mid_j4782e8dh6xs725j' },
      { Name: 'kind', Value: 'PASSWORD_RESET_CODE' },
    ]);
    // The tags never carry the address, the tenant's name or the code.
    expect(JSON.stringify(input?.EmailTags)).not.toMatch(/ana@shop\.test|Acme|042917/);
    expect(input?.Destination).toEqual({ ToAddresses: ['ana@shop.test'] });
  });

  it('every tag is one SES takes (ASCII letters, digits, _ and -, at most 256 characters), for every kind of mail', () => {
    const tenant = aMerchant();
    for (const kind of ['SIGNUP_CODE', 'ALREADY_REGISTERED', 'INVITATION', 'EMAIL_CHANGE_REQUESTED'] as const) {
      const tags = mailTags(tenant, kind);
      expect(tags.map((tag) => tag.Name)).toEqual(['app', 'mid', 'kind']);
      for (const tag of tags) {
        expect(tag.Name).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
        expect(tag.Value).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
      }
    }
  });

  it('leaves out a tag whose value SES would refuse, rather than have the mail refused', () => {
    expect(mailTags({ app: 'app with spaces', mid: 'mid_1' }, 'LOGIN_CODE')).toEqual([
      { Name: 'mid', Value: 'mid_1' },
      { Name: 'kind', Value: 'LOGIN_CODE' },
    ]);
  });

  it('sends neither a configuration set nor tags without one (locally)', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-3' });
    await sesMailer(client, 'no-reply@id.example').send(
      aMerchant(),
      'ana@shop.test',
      { kind: 'PASSWORD_CHANGED' },
      'en',
    );
    const input = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
    expect(input).not.toHaveProperty('ConfigurationSetName');
    expect(input).not.toHaveProperty('EmailTags');
  });

  it('sesMailerFor takes the configuration set from SES_CONFIGURATION_SET', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-4' });
    const deps = makeDeps({ TABLE_NAME: 'identity', SES_CONFIGURATION_SET: 'identity-feedback', LOG_LEVEL: 'error' });
    expect(deps.config.sesConfigurationSet).toBe('identity-feedback');
    await sesMailerFor(deps).send(aMerchant(), 'ana@shop.test', { kind: 'LOGIN_CODE', code: '042917' }, 'en');
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input.ConfigurationSetName).toBe('identity-feedback');
    expect(() => makeDeps({ TABLE_NAME: 'identity', SES_CONFIGURATION_SET: 'not a name' })).toThrow(
      /SES_CONFIGURATION_SET/,
    );
  });
});

function decodeEncodedWords(header: string): string {
  const words = [...header.matchAll(/=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=/g)];
  return Buffer.concat(words.map((w) => Buffer.from(w[1] ?? '', 'base64'))).toString('utf8');
}

describe('fromHeader', () => {
  it('quotes an ASCII display name', () => {
    expect(fromHeader('Acme', 'no-reply@id.example')).toBe('"Acme" <no-reply@id.example>');
  });

  it('escapes quotes and backslashes inside the quoted name (RFC 5322 quoted-string)', () => {
    expect(fromHeader('Evil" <admin@bank.example> \\', 'no-reply@id.example')).toBe(
      '"Evil\\" <admin@bank.example> \\\\" <no-reply@id.example>',
    );
  });

  it('encodes a non-ASCII name as RFC 2047 encoded-words that decode to the name', () => {
    const header = fromHeader('Café Müller 🌿', 'no-reply@id.example');
    expect(header).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <no-reply@id\.example>$/);
    expect(decodeEncodedWords(header)).toBe('Café Müller 🌿');
  });

  it('splits a long non-ASCII name into encoded-words of at most 75 characters, between code points', () => {
    const name = `Ünïcödé ${'🌿'.repeat(40)}`;
    const header = fromHeader(name, 'no-reply@id.example');
    const words = header.replace(/ <no-reply@id\.example>$/, '').split(' ');
    expect(words.length).toBeGreaterThan(1);
    for (const word of words) {
      expect(word.length).toBeLessThanOrEqual(75);
      // Each word decodes on its own: no code point is cut in two.
      expect(decodeEncodedWords(word)).not.toContain('\uFFFD');
    }
    expect(decodeEncodedWords(header)).toBe(name);
  });

  it('removes line breaks and control characters, so a name cannot add a header', () => {
    const header = fromHeader('Acme\r\nBcc: eve@evil.test', 'no-reply@id.example');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe('"Acme Bcc: eve@evil.test" <no-reply@id.example>');
  });

  it('falls back to the bare address when nothing of the name is left', () => {
    expect(fromHeader('\r\n\t', 'no-reply@id.example')).toBe('no-reply@id.example');
  });
});
