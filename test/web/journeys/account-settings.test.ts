import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, openAccount, signIn } from './account-steps.ts';

const web = useWebStack();
let counter = 0;
const newAddress = () => `moved-${process.pid}-${Date.now().toString(36)}-${++counter}@shop.test`;

describe('the profile', () => {
  it('a changed name and phone are saved and still there after a reload; a name cannot be emptied', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await openAccount(web, tenant, user);
    const profile = page.getByRole('region', { name: 'Profile' });

    await profile.getByLabel('First name').fill('');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect(profile.getByRole('alert').textContent()).resolves.toBe(
      'Some of what you entered is not valid. Check the highlighted fields.',
    );
    await expect(profile.getByText('First name needs at least 1 character.').isVisible()).resolves.toBe(true);
    await expect(profile.getByLabel('First name').getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible(page);

    // A phone is a number: letters are refused at the field, in a sentence, before anything is sent.
    await profile.getByLabel('First name').fill('Ada');
    await profile.getByLabel('Phone').fill('0800 FLOWERS');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    const phoneProblem = profile.getByText(
      'The phone number must be 5 to 15 digits, with spaces, dashes or parentheses if you like, and + only in front.',
    );
    await phoneProblem.waitFor();
    await expect(profile.getByLabel('Phone').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(profile.getByLabel('Phone').getAttribute('aria-describedby')).resolves.toContain(
      (await phoneProblem.getAttribute('id')) ?? 'none',
    );
    await expectAccessible(page);
    await screenshot(page, 'account-profile-bad-phone');

    await profile.getByLabel('Last name').fill('Lovelace');
    await profile.getByLabel('Phone').fill('+44 20 7946 0000');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText('Your profile was saved.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-profile-saved');

    await page.reload();
    await page.getByRole('region', { name: 'Profile' }).waitFor();
    await expect(profile.getByLabel('First name').inputValue()).resolves.toBe('Ada');
    await expect(profile.getByLabel('Last name').inputValue()).resolves.toBe('Lovelace');
    await expect(profile.getByLabel('Phone').inputValue()).resolves.toBe('+44 20 7946 0000');
  });

  it('a phone stored before phones were checked is shown as it is, and saving the names keeps it', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    await userRepo(web.localStack().deps.store).update(tenant, user.id, { phone: 'evenings: 020 7946 0000' });
    const page = await openAccount(web, tenant, user);
    const profile = page.getByRole('region', { name: 'Profile' });
    await expect(profile.getByLabel('Phone').inputValue()).resolves.toBe('evenings: 020 7946 0000');
    await profile.getByLabel('First name').fill('Grace');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText('Your profile was saved.').waitFor();
    await page.reload();
    await expect(page.getByRole('region', { name: 'Profile' }).getByLabel('Phone').inputValue()).resolves.toBe(
      'evenings: 020 7946 0000',
    );
  });
});

describe('the password', () => {
  it('a changed password is the one to sign in with; the other session ends; the change is in the activity', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const other = await web.open(tenant, '/sign-in');
    await signIn(other, user);
    const page = await web.open(tenant, '/sign-in');
    await signIn(page, user);
    const section = page.getByRole('region', { name: 'Password' });
    const newPassword = `Quill-${Date.now().toString(36)}-42`;

    await section.getByLabel('Current password').fill('not-my-password-1');
    await section.getByLabel('New password').fill(newPassword);
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByRole('alert').textContent()).resolves.toBe('Your current password is not right.');

    await section.getByLabel('Current password').fill(user.password);
    await section.getByLabel('New password').fill('short1');
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByText('Needs at least 8 characters.').isVisible()).resolves.toBe(true);

    await section.getByLabel('New password').fill(newPassword);
    await section.getByRole('button', { name: 'Change password' }).click();
    await section.getByText(/Your password was changed\. Every other session of your account was signed out/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-password-changed');

    // The activity, read again after the change: the change, then the two sign-ins.
    const activity = page.getByRole('list', { name: 'Your activity, newest first' });
    await activity.getByText('Password changed').waitFor();
    const kinds = await activity.locator('.what').allTextContents();
    expect(kinds.slice(0, 3)).toEqual(['Password changed', 'Signed in', 'Signed in']);

    // The other browser's session ended: on its next look it is sent to sign-in.
    await other.bringToFront();
    await other.evaluate('window.dispatchEvent(new Event("focus"))');
    await other.waitForURL(/\/sign-in\?expired=1/);

    const fresh = await web.open(tenant, '/sign-in');
    await fresh.getByLabel('E-mail address').fill(user.email);
    await fresh.getByLabel('Password').fill(user.password);
    await fresh.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(fresh.getByRole('alert').textContent()).resolves.toBe('The e-mail address or password is not right.');
    await signIn(fresh, { email: user.email, password: newPassword });
  });

  it('with two-step verification on, the change asks for a code too (a backup code here)', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: true });
    const user = await aUser(tenant, { totp: true });
    const secret = user.totpSecret as string;
    const page = await web.open(tenant, '/sign-in');
    await signIn(page, user, { totpCode: totpCodeAt(secret, new Date()) });
    const section = page.getByRole('region', { name: 'Password' });
    const newPassword = `Quill-${Date.now().toString(36)}-43`;

    await section.getByLabel('Current password').fill(user.password);
    await section.getByLabel('New password').fill(newPassword);
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByText('Is required.').isVisible()).resolves.toBe(true);

    await section.getByLabel('Authenticator code').fill(user.backupCodes?.[0] as string);
    await section.getByRole('button', { name: 'Change password' }).click();
    await section.getByText(/Your password was changed/).waitFor();
    await expectAccessible(page);

    const fresh = await web.open(tenant, '/sign-in');
    await signIn(
      fresh,
      { email: user.email, password: newPassword },
      { totpCode: totpCodeAt(secret, new Date(Date.now() + 30_000)) },
    );
  });
});

describe('the e-mail address', () => {
  it('changes with the code mailed to the new address; the new address is shown, and signs in', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await openAccount(web, tenant, user);
    const section = page.getByRole('region', { name: 'E-mail address' });
    const address = newAddress();

    await section.getByLabel('New e-mail address').fill(address);
    await section.getByRole('button', { name: 'Send a code' }).click();
    await section.getByText(`We have sent a 6-digit code to ${address}.`, { exact: false }).waitFor();
    // Focus moved to the code's field.
    await expect(page.evaluate('document.activeElement?.name')).resolves.toBe('code');
    await expectAccessible(page);
    await screenshot(page, 'account-email-code');

    await section.getByLabel('Code from the e-mail').fill(await web.latestCode(address));
    await section.getByText(`Your e-mail address is now ${address}.`, { exact: false }).waitFor();
    await expect(section.getByText(`Your address is ${address}.`).isVisible()).resolves.toBe(true);
    await expect(page.getByText(`Signed in as ${address}`).isVisible()).resolves.toBe(true);
    await expectAccessible(page);

    const fresh = await web.open(tenant, '/sign-in');
    await signIn(fresh, { email: address, password: user.password });
    await expect(fresh.getByText(`Signed in as ${address}`).isVisible()).resolves.toBe(true);
  });
});

describe('confirming it is you (re-authentication)', () => {
  it('a sign-in older than 10 minutes: the e-mail change asks for the password in a dialog, then goes on', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await openAccount(web, tenant, user);
    await ageSignIns(tenant, user.id);
    const section = page.getByRole('region', { name: 'E-mail address' });
    const address = newAddress();

    await section.getByLabel('New e-mail address').fill(address);
    await section.getByRole('button', { name: 'Send a code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    // Focus is in the prompt, on its password field.
    await expect(page.evaluate('document.activeElement?.getAttribute("autocomplete")')).resolves.toBe(
      'current-password',
    );
    await expectAccessible(page);
    await screenshot(page, 'account-reauth-prompt');

    // Escape closes it; the change did not happen, and says why.
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
    await expect(section.getByRole('alert').textContent()).resolves.toBe(
      'For your safety, confirm it is you before making this change.',
    );

    await section.getByRole('button', { name: 'Send a code' }).click();
    await dialog.waitFor();
    await page.keyboard.type('wrong-password-9');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert').textContent()).resolves.toBe('That password is not right.');
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    // The change goes on by itself.
    await section.getByText(`We have sent a 6-digit code to ${address}.`, { exact: false }).waitFor();
    await expect(dialog.count()).resolves.toBe(0);
    await section.getByLabel('Code from the e-mail').fill(await web.latestCode(address));
    await section.getByText(`Your e-mail address is now ${address}.`, { exact: false }).waitFor();
  });

  it('where the tenant signs in by e-mail code, the prompt mails a code, and asks for the authenticator code too', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL', totpAllowed: true });
    const user = await aUser(tenant, { totp: true });
    const secret = user.totpSecret as string;
    const page = await web.open(tenant, '/sign-in');
    await signIn(page, user, { totpCode: totpCodeAt(secret, new Date()) });
    await ageSignIns(tenant, user.id);
    const section = page.getByRole('region', { name: 'E-mail address' });
    const address = newAddress();

    await section.getByLabel('New e-mail address').fill(address);
    await section.getByRole('button', { name: 'Send a code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.getByLabel('With a code sent to my e-mail').check();
    await dialog.getByRole('button', { name: 'E-mail me a code' }).click();
    await dialog.getByLabel('Code from the e-mail').waitFor();
    await expect(page.evaluate('document.activeElement?.name')).resolves.toBe('code');
    await expectAccessible(page);
    await screenshot(page, 'account-reauth-prompt-code');
    await dialog.getByLabel('Code from the e-mail').fill(await web.latestCode(user.email));
    await dialog.getByLabel('Authenticator code').fill(totpCodeAt(secret, new Date(Date.now() + 30_000)));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await section.getByText(`We have sent a 6-digit code to ${address}.`, { exact: false }).waitFor();
  });
});
