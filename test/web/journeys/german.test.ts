import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

/** The screen checked with axe at its width and on a phone, light and dark, and photographed each way. */
async function checkScreen(page: Page, name: string) {
  await expectAccessible(page);
  await screenshot(page, name);
  await screenshotsOnPhoneAndDark(page, name, expectAccessible);
}

describe('a browser set to German', () => {
  it('signs up, gets its code in a German mail, signs out and signs in again: every screen in German', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN', loginMode: 'PASSWORD' });
    const email = anEmail('farn');
    const password = 'Farnwedel-Blatt-42';
    const page = await web.open(tenant, '/sign-up', { locale: 'de-DE' });

    await page.getByRole('heading', { name: /^Ihr Konto bei Shop .* erstellen$/ }).waitFor();
    const name = await page.locator('.brand-name').first().innerText();
    await expect(page.evaluate('document.documentElement.lang')).resolves.toBe('de');
    // The heading names the service; the tab names it once, after the page.
    await expect(page.title()).resolves.toBe(`Konto erstellen · ${name}`);
    await checkScreen(page, 'de-sign-up');
    await page.getByLabel('Vorname').fill('Frieda');
    await page.getByLabel('Nachname').fill('Farn');
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Konto erstellen' }).click();

    await page.getByRole('heading', { name: 'Prüfen Sie Ihr Postfach' }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      `Wir haben einen 6-stelligen Code an ${email} gesendet. Geben Sie ihn unten ein, um Ihr Konto fertig zu erstellen. Er gilt 10 Minuten.`,
    );
    await expect(page.getByRole('button', { name: /^Neuen Code in [01]:\d\d senden$/ }).count()).resolves.toBe(1);
    await checkScreen(page, 'de-sign-up-code');

    // The page asked the service in German, so the mail is written in German.
    const [mail] = await web.mailsTo(email);
    expect(mail?.subject).toBe(`Bestätigen Sie Ihre E-Mail-Adresse für ${name}`);
    expect(mail?.body.text).toContain(`Mit diesem Code schließen Sie die Registrierung bei ${name} ab:`);
    await page.getByLabel('Code aus der E-Mail').fill(await web.latestCode(email));
    await page.waitForURL(/\/account$/);
    await page.getByText(email).first().waitFor();

    await page.getByRole('button', { name: 'Abmelden', exact: true }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.getByRole('heading', { name: `Bei ${name} anmelden` }).waitFor();
    await expect(page.title()).resolves.toBe(`Anmelden · ${name}`);
    await expect(page.getByRole('link', { name: 'Passwort vergessen?' }).count()).resolves.toBe(1);
    await checkScreen(page, 'de-sign-in');

    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill('nicht-das-Passwort-1');
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('E-Mail-Adresse oder Passwort stimmen nicht.');
    await checkScreen(page, 'de-sign-in-wrong-password');

    await page.getByLabel('Passwort', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.waitForURL(/\/account$/);
    await page.getByText(email).first().waitFor();
    await expect(page.getByRole('button', { name: 'Abmelden', exact: true }).count()).resolves.toBe(1);
  });
});
