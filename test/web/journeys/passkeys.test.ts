import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns } from './account-steps.ts';

/**
 * Passkeys in Chromium, with the DevTools protocol's virtual authenticator (a platform authenticator that holds
 * discoverable credentials and verifies its user): offered after a password and TOTP sign-in and added, then
 * signing in by the e-mail field's autofill and by the button with no TOTP step, proving it is you again with it,
 * and removed: the browser still holds it, the service refuses it.
 */

const web = useWebStack();

/** A platform authenticator that verifies its user; `presence`: it answers at once, without a touch to simulate. */
async function virtualAuthenticator(page: Page, presence: boolean) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: presence,
    },
  });
  return { cdp, authenticatorId };
}

/** Presence on: the authenticator answers the next request by itself (as a person touching it). */
const touch = (cdp: CDPSession, authenticatorId: string, enabled: boolean) =>
  cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled });

const passkeysRegion = (page: Page) => page.getByRole('region', { name: 'Passkeys', exact: true });

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(/\/sign-in/);
}

describe('passkeys', () => {
  it('offered after a TOTP sign-in and added; then signs in by autofill and by the button with no TOTP step; proves it is you again; removed, it is refused', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: true });
    const user = await aUser(tenant, { totp: true });
    const page = await web.open(tenant, '/sign-in');
    const { cdp, authenticatorId } = await virtualAuthenticator(page, true);
    // The page asks the browser what it can do when it loads: with the authenticator there.
    await page.reload();

    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Authenticator code').fill(totpCodeAt(user.totpSecret ?? '', new Date()));

    // Signed in by password and TOTP: a passkey is offered for next time.
    await page.getByRole('heading', { name: 'Sign in faster next time' }).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'passkey-offer');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.waitForURL(/\/account$/);
    const rows = passkeysRegion(page).getByRole('row');
    await expect.poll(() => rows.count()).toBe(2);
    await expect(passkeysRegion(page).getByRole('cell', { name: 'One device only' }).isVisible()).resolves.toBe(true);
    const held = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(held.credentials).toHaveLength(1);
    expect(held.credentials[0]?.rpId).toBe(`${tenant.subdomain}.localhost`);
    await expectAccessible(page);
    await passkeysRegion(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'account-passkeys');

    // The e-mail field offers the passkey (conditional UI): the authenticator picks it at once, no TOTP step.
    await signOut(page);
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    await expect(page.url()).toMatch(/\/account$/);

    // The button: this time the authenticator waits for a touch, so the autofill request stays open.
    await touch(cdp, authenticatorId, false);
    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await expect(page.getByLabel('E-mail address').getAttribute('autocomplete')).resolves.toBe('username webauthn');
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'sign-in-with-passkey');
    await touch(cdp, authenticatorId, true);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    // The account's activity says how.
    await page
      .getByRole('list', { name: 'Your activity, newest first' })
      .getByText('Signed in with a passkey')
      .first()
      .waitFor();

    // Older than 10 minutes: renaming asks again, and the passkey answers.
    await ageSignIns(tenant, user.id);
    await passkeysRegion(page)
      .getByRole('button', { name: /^Rename/ })
      .click();
    await passkeysRegion(page)
      .getByLabel(/New name for/)
      .fill('Work laptop');
    await passkeysRegion(page).getByRole('button', { name: 'Save name' }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
    await prompt.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'reauth-with-passkey');
    await prompt.getByRole('button', { name: 'Use a passkey' }).click();
    await passkeysRegion(page).getByText('Passkey renamed to “Work laptop”.').waitFor();
    await passkeysRegion(page).getByRole('cell', { name: 'Work laptop', exact: true }).waitFor();

    // Removed: the authenticator still holds it; the service no longer takes it.
    await passkeysRegion(page)
      .getByRole('button', { name: /^Remove/ })
      .click();
    await passkeysRegion(page).getByRole('button', { name: 'Remove passkey' }).click();
    await passkeysRegion(page).getByText('Passkey “Work laptop” removed. It no longer signs you in.').waitFor();
    await passkeysRegion(page).getByText('You have no passkey yet.').waitFor();
    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page
      .getByText('This passkey is not one of this account’s, or it was removed. Sign in another way.')
      .first()
      .waitFor();
    expect(page.url()).toMatch(/\/sign-in/);
  });

  it('offered right after a sign-up; "Not now" goes on to the account and is not asked again in this browser', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const email = anEmail('passkey');
    const page = await web.open(tenant, '/sign-up');
    await virtualAuthenticator(page, true);
    await page.reload();
    await page.getByLabel('First name').fill('Fern');
    await page.getByLabel('Last name').fill('Gully');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('Sprout-leaf-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(email));

    await page.getByRole('heading', { name: 'Sign in faster next time' }).waitFor();
    await page.getByRole('button', { name: 'Not now' }).click();
    await page.waitForURL(/\/account$/);
    await passkeysRegion(page).getByText('You have no passkey yet.').waitFor();

    // Signing in again by password in this browser goes straight on: the answer was kept.
    await signOut(page);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Sprout-leaf-42');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
  });
});
