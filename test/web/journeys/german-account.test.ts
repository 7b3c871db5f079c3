import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { userRepo } from '#shared/store/user-repo.ts';
import { anInvitedUser, aStoredUser } from '#test/support/admin.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { openAsOwner, someLogins } from './account-steps.ts';

/**
 * The account page and the console's user management for a reader whose browser asks for German: every heading,
 * button, status word and sentence in German, and nothing wider than a phone.
 */

const web = useWebStack();
const GERMAN = { locale: 'de-DE' };
const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

describe('the account page in German', () => {
  it('profile, the new password’s checklist, a refused current password, the sessions and the activity', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    // A second session, from a script: a device the page cannot name.
    await someLogins(web, tenant, user, 1);
    const page = await web.openSignedIn(tenant, user, '/account', GERMAN);
    await heading1(page, 'Ihr Konto').waitFor();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect(page.getByRole('navigation', { name: 'Bereiche des Kontos' }).first().isVisible()).resolves.toBe(true);

    const profile = page.getByRole('region', { name: 'Profil' });
    await profile.getByLabel('Vorname').fill('Ada');
    await profile.getByRole('button', { name: 'Profil speichern' }).click();
    await profile.getByText('Ihr Profil wurde gespeichert.').waitFor();

    const password = page.getByRole('region', { name: 'Passwort' });
    await password.getByLabel('Neues Passwort').fill('kurz');
    await password.getByText('Es braucht:').waitFor();
    await expect(password.getByRole('listitem').allTextContents()).resolves.toEqual(
      expect.arrayContaining([expect.stringMatching(/Mindestens \d+ Zeichen/), expect.stringContaining('Eine Ziffer')]),
    );
    await password.getByLabel('Aktuelles Passwort').fill('not-my-password-1');
    await password.getByLabel('Neues Passwort').fill('eine lange neue Passphrase 42');
    await password.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(password.getByRole('alert').textContent()).resolves.toBe('Ihr aktuelles Passwort stimmt nicht.');

    const sessions = page.getByRole('region', { name: 'Wo Sie angemeldet sind' });
    await sessions.getByText('Dieses Gerät').waitFor();
    await sessions.getByRole('columnheader', { name: 'Zuletzt aktiv' }).waitFor();
    await sessions
      .getByRole('button', {
        name: /^Abmelden \(Sitzung auf Unbekannter Browser auf einem unbekannten System, zuletzt aktiv /,
      })
      .click();
    await sessions
      .getByText('Die Sitzung auf Unbekannter Browser auf einem unbekannten System wurde abgemeldet.')
      .waitFor();
    await sessions.getByRole('button', { name: 'Überall abmelden…' }).waitFor();

    const activity = page.getByRole('region', { name: 'Letzte Aktivitäten' });
    await activity.getByText('Eine Sitzung wurde abgemeldet', { exact: true }).waitFor();
    await activity.getByText('Angemeldet', { exact: true }).first().waitFor();

    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'de-account');
  });
});

describe('the console’s users in German', () => {
  it('the list with status words, a search that finds nobody, the invite dialog and a user’s page', async () => {
    const tenant = await aTenantWith();
    const deps = web.localStack().deps;
    await aStoredUser(tenant, { firstName: 'Ann', lastName: 'Lee' }, deps);
    const bob = await aStoredUser(tenant, { firstName: 'Bob', lastName: 'Marsh' }, deps);
    await userRepo(deps.store).update(tenant, bob.id, { status: 'DISABLED' });
    await anInvitedUser(tenant, deps);

    const page = await openAsOwner(web, tenant, '/console/users', { ready: null, ...GERMAN });
    await heading1(page, 'Benutzer').waitFor();
    await page.getByText('4 Benutzer', { exact: true }).waitFor();
    await page.getByRole('columnheader', { name: 'Letzte Anmeldung' }).waitFor();
    await expect(page.locator('caption').textContent()).resolves.toBe(
      'Benutzer, nach E-Mail-Adresse sortiert, A bis Z',
    );
    const statuses = await page.locator('tbody .badge.status').allTextContents();
    expect(statuses.sort()).toEqual(['Aktiv', 'Aktiv', 'Deaktiviert', 'Eingeladen']);
    await expect(
      page
        .getByRole('row', { name: /Ann Lee/ })
        .getByRole('cell')
        .nth(4)
        .textContent(),
    ).resolves.toBe('Nie');
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'de-console-users');

    await page.getByLabel('Status').selectOption({ label: 'Eingeladen' });
    await page.getByLabel('Nach Name oder E-Mail suchen').fill('niemand');
    await page.getByText('Unter den eingeladenen Benutzern passt keiner zu „niemand“.').waitFor();
    await page.getByText('0 von 4 Benutzern passen').waitFor();
    await page.getByRole('button', { name: 'Alle Benutzer zeigen' }).click();
    await page.getByText('4 Benutzer', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Benutzer einladen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Jemanden einladen' });
    await dialog.getByLabel('E-Mail-Adresse').fill('keine-adresse');
    await dialog.getByRole('button', { name: 'Einladung senden' }).click();
    await dialog.getByText('Geben Sie eine E-Mail-Adresse ein, etwa name@example.com.').waitFor();
    await dialog.getByLabel('Vorname (optional)').waitFor();
    await dialog.getByRole('button', { name: 'Abbrechen' }).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'de-console-invite-dialog');
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('link', { name: 'Ann Lee' }).click();
    await heading1(page, 'Ann Lee').waitFor();
    for (const name of ['Profil', 'Status', 'Rollen', 'Authenticator-App', 'Geräte', 'Aktivität', 'Löschen']) {
      await page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
    }
    await page.getByRole('link', { name: 'Zurück zu den Benutzern' }).waitFor();
    await page.getByRole('button', { name: 'Als kompromittiert markieren' }).waitFor();
    await page.getByRole('button', { name: 'Deaktivieren', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: /^Ann Lee deaktivieren\?/ });
    await confirm.getByRole('button', { name: 'Deaktivieren', exact: true }).click();
    await page.getByText('Der Benutzer ist deaktiviert und überall abgemeldet.').waitFor();
    await page.getByRole('region', { name: 'Status' }).getByText('Deaktiviert', { exact: true }).waitFor();
    const activity = page.getByRole('region', { name: 'Aktivität' });
    await activity.getByRole('cell', { name: 'Konto deaktiviert' }).waitFor();
    await activity.getByRole('cell', { name: 'Ein Administrator' }).waitFor();
    await page.getByText(/^\d+ (Eintrag|Einträge) angezeigt, der gesamte Verlauf\.$/).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'de-console-user');
  });
});
