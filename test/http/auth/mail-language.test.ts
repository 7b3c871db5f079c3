import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { adminApi, anEmail } from '#test/support/admin.ts';
import { aTenantWith, aUser, latestCodeTo, mailsTo, type TestTenant } from '#test/support/auth.ts';
import { post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const { call, aSuperAdmin } = adminApi(() => api.url);

const GERMAN = { 'accept-language': 'de-DE,de;q=0.9' };
const ENGLISH = { 'accept-language': 'en' };
/** What fetch sends when the caller names no language. */
const ANY = {};

/** The one mail an address received, its language read from the HTML part. */
async function onlyMailTo(email: string) {
  const mails = await mailsTo(api.stack.sesUrl, email);
  expect(mails).toHaveLength(1);
  const mail = mails[0] as (typeof mails)[number];
  return { ...mail, lang: /<html lang="([a-z]+)">/.exec(mail.body.html)?.[1] };
}

/** A POST sent without any Accept-Language (fetch adds `*`; a server or CLI may send none at all). */
function postWithoutLanguage(path: string, body: unknown, headers: Record<string, string>): Promise<number> {
  const url = new URL(`${api.url}${path}`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const signupBody = (tenant: TestTenant, email: string) => ({
  app: tenant.app,
  mid: tenant.mid,
  email,
  password: 'Monstera-42-leaf',
  firstName: 'Ada',
  lastName: 'Lovelace',
});

describe('every mail is written in the language of the request that caused it', () => {
  it('sign-up: a German code for Accept-Language de-DE, an English one for en, for *, and for none', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const signup = (email: string, language: Record<string, string>) =>
      post(`${api.url}/auth/signup`, signupBody(tenant, email), { ...tenant.headers, ...language });

    const german = anEmail('de');
    const started = await signup(german, GERMAN);
    expect(started.status).toBe(201);
    const mail = await onlyMailTo(german);
    expect(mail.lang).toBe('de');
    expect(mail.subject).toMatch(/^Bestätigen Sie Ihre E-Mail-Adresse für Shop /);
    expect(mail.body.text).toMatch(/^Guten Tag,$/m);
    expect(mail.body.text).toContain('Er ist 10 Minuten lang gültig und kann nur einmal verwendet werden.');
    // The German mail's code is the code: it activates the account.
    const code = await latestCodeTo(api.stack.sesUrl, german);
    const verified = await post(
      `${api.url}/auth/signup/verify`,
      { challengeId: started.body.data.challengeId, code },
      tenant.headers,
    );
    expect(verified.status).toBe(200);

    for (const language of [ENGLISH, ANY]) {
      const email = anEmail('en');
      expect((await signup(email, language)).status).toBe(201);
      const english = await onlyMailTo(email);
      expect(english.lang).toBe('en');
      expect(english.subject).toMatch(/^Confirm your e-mail address for Shop /);
    }
    const unnamed = anEmail('none');
    expect(await postWithoutLanguage('/auth/signup', signupBody(tenant, unnamed), tenant.headers)).toBe(201);
    expect((await onlyMailTo(unnamed)).lang).toBe('en');
  });

  it('sign-up of a registered address: the "already registered" notice in the language of that request', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const user = await aUser(tenant);
    const res = await post(`${api.url}/auth/signup`, signupBody(tenant, user.email), { ...tenant.headers, ...GERMAN });
    expect(res.status).toBe(201);
    const mail = await onlyMailTo(user.email);
    expect(mail.lang).toBe('de');
    expect(mail.subject).toMatch(/^Sie haben bereits ein Konto bei Shop /);
  });

  it('forgot-password: a German reset code for de-DE, an English one for en and for *', async () => {
    const tenant = await aTenantWith();
    for (const [language, expected] of [
      [GERMAN, /^Passwort für Shop .+ zurücksetzen$/],
      [ENGLISH, /^Reset your Shop .+ password$/],
      [ANY, /^Reset your Shop .+ password$/],
    ] as const) {
      const user = await aUser(tenant);
      const res = await post(
        `${api.url}/auth/forgot-password`,
        { email: user.email },
        { ...tenant.headers, ...language },
      );
      expect(res.status).toBe(202);
      const mail = await onlyMailTo(user.email);
      expect(mail.subject).toMatch(expected);
      expect(mail.lang).toBe(language === GERMAN ? 'de' : 'en');
    }
  });

  it('e-mail-code login: a German sign-in code for de-DE, an English one for en and for *', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    for (const [language, expected] of [
      [GERMAN, /^Ihr Anmeldecode für Shop /],
      [ENGLISH, /^Your Shop .+ sign-in code$/],
      [ANY, /^Your Shop .+ sign-in code$/],
    ] as const) {
      const user = await aUser(tenant);
      const res = await post(`${api.url}/auth/login`, { email: user.email }, { ...tenant.headers, ...language });
      expect(res.status).toBe(200);
      const mail = await onlyMailTo(user.email);
      expect(mail.subject).toMatch(expected);
      expect(mail.body.text).toMatch(/^ {4}\d{6}$/m);
      expect(mail.subject).not.toMatch(/\d{6}/);
    }
  });

  it("an invitation is written in the tenant's language, whatever the inviting admin reads", async () => {
    const admin = await aSuperAdmin();
    const english = anEmail('invited-en');
    expect((await call('POST', '/users/invitations', { ...admin.headers, ...GERMAN }, { email: english })).status).toBe(
      201,
    );
    expect((await onlyMailTo(english)).lang).toBe('en');

    const changed = await call('PATCH', `/merchants/${admin.tenant.id}`, admin.headers, { defaultLanguage: 'de' });
    expect(changed.status).toBe(200);
    const german = anEmail('invited-de');
    expect((await call('POST', '/users/invitations', { ...admin.headers, ...ENGLISH }, { email: german })).status).toBe(
      201,
    );
    const mail = await onlyMailTo(german);
    expect(mail.lang).toBe('de');
    expect(mail.body.text).toMatch(
      /Die Einladung kann einmal verwendet werden und gilt bis \w+, \d{1,2}\. \w+ \d{4}, /,
    );
  });

  it('a tenant whose language is German: a request naming none of ours gets German, one naming English English', async () => {
    const admin = await aSuperAdmin({ signupMode: 'OPEN' });
    const tenant = admin.tenant;
    await call('PATCH', `/merchants/${tenant.id}`, admin.headers, { defaultLanguage: 'de' });
    const signup = (email: string, language: Record<string, string>) =>
      post(`${api.url}/auth/signup`, signupBody(tenant, email), { ...tenant.headers, ...language });
    for (const [language, expected] of [
      [ANY, 'de'],
      [{ 'accept-language': 'fr-FR,fr;q=0.9' }, 'de'],
      [ENGLISH, 'en'],
    ] as const) {
      const email = anEmail('tenant-language');
      expect((await signup(email, language)).status).toBe(201);
      expect((await onlyMailTo(email)).lang).toBe(expected);
    }
    const unnamed = anEmail('none');
    expect(await postWithoutLanguage('/auth/signup', signupBody(tenant, unnamed), tenant.headers)).toBe(201);
    expect((await onlyMailTo(unnamed)).lang).toBe('de');
  });
});
