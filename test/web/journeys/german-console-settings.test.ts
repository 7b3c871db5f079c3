import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { openAsOwner } from './account-steps.ts';

const web = useWebStack();

describe('the console’s settings half in German', () => {
  it('settings: German headings, choices and preview; an http privacy link is refused in German; leaving asks in German', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await openAsOwner(web, tenant, '/console/settings', { locale: 'de-DE' });
    await page.getByRole('heading', { level: 1, name: 'Einstellungen' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Konsole' });
    await expect(nav.getByRole('link', { name: 'Anmelde-Clients' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('group', { name: 'Marke' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('radio', { name: /^Code per E-Mail\./ }).isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Primärfarbe auswählen', { exact: true }).count()).resolves.toBe(1);
    // The preview is the sign-in page in the reader's language.
    const name = await page.getByLabel('Name', { exact: true }).inputValue();
    const preview = page.getByTestId('sign-in-preview');
    await expect(preview.getByText(`Bei ${name} anmelden`).isVisible()).resolves.toBe(true);
    await expect(preview.getByText('Passwort vergessen?').isVisible()).resolves.toBe(true);

    const privacy = page.getByLabel('URL der Datenschutzerklärung (optional)');
    await privacy.fill('http://shop.example/privacy');
    await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
    await expect(privacy.getAttribute('aria-invalid')).resolves.toBe('true');
    await page
      .getByText('Geben Sie die https-Adresse Ihrer Datenschutzerklärung ein, etwa https://shop.example/privacy.')
      .waitFor();
    await page.getByRole('alert').filter({ hasText: 'Bitte prüfen Sie die markierten Felder.' }).waitFor();
    await expect(page.locator('.save-bar').getByText('Nicht gespeicherte Änderungen').isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'german-console-settings-refused', expectAccessible);

    // Leaving with the change unsaved asks first, in German; staying keeps it.
    await nav.getByRole('link', { name: 'Rollen' }).click();
    const dialog = page.getByRole('dialog', { name: /Ihre Änderungen an den Einstellungen sind nicht gespeichert/ });
    await dialog.waitFor();
    await expect(dialog.getByRole('button', { name: 'Ohne Speichern verlassen' }).isVisible()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Auf dieser Seite bleiben' }).click();
    await expect(privacy.inputValue()).resolves.toBe('http://shop.example/privacy');

    await privacy.fill('https://shop.example/privacy');
    await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
    await page.getByRole('status').filter({ hasText: 'Ihre Einstellungen sind gespeichert.' }).waitFor();
  });

  it('sign-in clients: a redirect URI with a fragment is refused in German; registered, the client is listed in German words', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/oidc-clients', { locale: 'de-DE' });
    await page.getByRole('heading', { level: 1, name: 'Anmelde-Clients' }).waitFor();
    await page.getByText('Es gibt keine Anmelde-Clients.').waitFor();
    await expect(page.getByRole('heading', { level: 2, name: 'Neuen Client registrieren' }).isVisible()).resolves.toBe(
      true,
    );

    await page.getByLabel('Name', { exact: true }).fill('Shop-Backoffice');
    await page.getByLabel('Vertraulich').check();
    const redirects = page.getByLabel('Weiterleitungs-URIs', { exact: true });
    await redirects.fill('https://shop.example.com/callback\nhttps://shop.example.com/cb#teil');
    await page.getByRole('button', { name: 'Client registrieren', exact: true }).click();
    await page.getByText('„https://shop.example.com/cb#teil“: darf keinen #-Teil haben.').waitFor();
    await expect(redirects.getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'german-console-oidc-clients-refused', expectAccessible);

    await redirects.fill('https://shop.example.com/callback');
    await page.getByRole('button', { name: 'Client registrieren', exact: true }).click();
    await page.getByRole('heading', { name: '„Shop-Backoffice“ ist registriert' }).waitFor();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Shop-Backoffice' }) });
    await expect(item.textContent()).resolves.toContain('Vertraulich (mit Secret)');
    await expect(item.textContent()).resolves.toContain('Authorization Code, Refresh-Token');
    await expect(item.textContent()).resolves.toContain('Access-Token 15 Minuten, Refresh-Token 7 Tage');
    await expect(item.getByRole('button', { name: 'Bearbeiten: Shop-Backoffice' }).isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'german-console-oidc-clients-created', expectAccessible);
  });

  it('API keys: a key without a label is refused in German; made, it is listed under German column names', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/api-keys', { locale: 'de-DE' });
    await page.getByRole('heading', { level: 1, name: 'API-Schlüssel' }).waitFor();
    await page.getByText('Es gibt keine API-Schlüssel.').waitFor();

    await page.getByRole('button', { name: 'Schlüssel erstellen', exact: true }).click();
    await page
      .getByText('Geben Sie dem Schlüssel eine Bezeichnung, etwa das System, das ihn verwenden wird.')
      .waitFor();
    await expectAccessible(page);

    await page.getByLabel('Bezeichnung').fill('Bestellabgleich');
    await page.getByRole('button', { name: 'Schlüssel erstellen', exact: true }).click();
    await page.getByRole('heading', { name: 'Ihr neuer Schlüssel „Bestellabgleich“' }).waitFor();
    const row = page.getByRole('row', { name: /Bestellabgleich/ });
    await expect(row.textContent()).resolves.toContain(`Sie (${tenant.adminEmail})`);
    await expect(row.getByRole('button', { name: 'Widerrufen: Bestellabgleich' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('columnheader').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['Bezeichnung', 'Präfix', 'Erstellt von', 'Erstellt', 'Zuletzt verwendet']),
    );
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'german-console-api-keys', expectAccessible);
  });
});
