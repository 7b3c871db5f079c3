import { describe, expect, it } from 'vitest';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { IdentityClient, memoryCookieStore } from '../../../client/src/index.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

/** The tenant's first admin, signed in with the SDK as a page of the tenant's own origin would be. */
async function adminOf(tenant: TestTenant): Promise<IdentityClient> {
  const origin = web.origin(tenant);
  // Node does not resolve *.localhost as Chromium does: the same server by its plain name, with the page's Origin.
  const api = new URL('/api/v1', origin);
  api.hostname = 'localhost';
  const client = new IdentityClient({
    baseUrl: api.href,
    fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, origin } }),
    cookies: memoryCookieStore(),
  });
  await client.discover({ slug: tenant.subdomain });
  const result = await client.login({ email: tenant.adminEmail, password: tenant.adminPassword });
  if (!('user' in result)) throw new Error('the admin got a challenge');
  return client;
}

/** The link to the hosted sign-up page in the latest invitation mail to `email`. */
async function invitationLink(email: string): Promise<string> {
  const mail = (await web.mailsTo(email)).at(-1);
  const link = /(https?:\/\/\S+\/sign-up\?invitationToken=\S+)/.exec(mail?.body.text ?? '')?.[1];
  if (!link) throw new Error(`no sign-up link in the mail to ${email}: ${mail?.body.text}`);
  return link;
}

describe('sign-up by invitation', () => {
  it('the link in the invitation mail opens sign-up with the token filled in; then sign-in', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const email = anEmail('invited');
    const admin = await adminOf(tenant);
    await admin.admin.users.invite({ email, firstName: 'Ivy', lastName: 'Vine' });

    const link = await invitationLink(email);
    const token = new URL(link).searchParams.get('invitationToken');
    expect(new URL(link).origin).toBe(web.origin(tenant));
    // The contract's literal stays in the mail beside the link.
    expect((await web.mailsTo(email)).at(-1)?.body.text).toContain(`invitationToken=${token}`);

    const url = new URL(link);
    const page = await web.open(tenant, `${url.pathname}${url.search}`);
    await page.getByRole('heading', { name: /^Accept your invitation to Shop / }).waitFor();
    await expect(page.getByLabel('Invitation').inputValue()).resolves.toBe(token);
    await expect(page.getByLabel('Invitation').getAttribute('readonly')).resolves.not.toBeNull();
    await expectAccessible(page);
    await screenshot(page, 'sign-up-invitation');

    await page.getByLabel('First name').fill('Ivy');
    await page.getByLabel('Last name').fill('Vine');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('Climbing-ivy-77');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(/\/sign-in\?registered=1&email=/);
    await page.getByText('Your account is ready. Sign in to go on.').waitFor();
    await expect(page.getByLabel('E-mail address').inputValue()).resolves.toBe(email);
    await expectAccessible(page);
    await screenshot(page, 'sign-up-invitation-registered');

    await page.getByLabel('Password').fill('Climbing-ivy-77');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByText(email).first().waitFor();
  });

  it('an invitation used for another address is refused with a sentence', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const email = anEmail('invited');
    await (await adminOf(tenant)).admin.users.invite({ email, firstName: 'Ivy', lastName: 'Vine' });
    const url = new URL(await invitationLink(email));
    const page = await web.open(tenant, `${url.pathname}${url.search}`);
    await page.getByLabel('First name').fill('Eve');
    await page.getByLabel('Last name').fill('Dropper');
    await page.getByLabel('E-mail address').fill(anEmail('eve'));
    await page.getByLabel('Password').fill('Climbing-ivy-77');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^This invitation cannot be used/);
    expect(new URL(page.url()).pathname).toBe('/sign-up');
    await expectAccessible(page);
    await screenshot(page, 'sign-up-invitation-refused');
  });
});
