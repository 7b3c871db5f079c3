import { readFile } from 'node:fs/promises';
import jsQRModule from 'jsqr';
import * as OTPAuth from 'otpauth';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, openAccount, setTotpPolicy, signIn } from './account-steps.ts';

const web = useWebStack();

// jsqr is CommonJS: under NodeNext its function is the default export's default (the types say so; the
// runtime's interop may hand the function itself).
type JsQr = typeof jsQRModule.default;
const jsQR: JsQr = (jsQRModule as unknown as { default?: JsQr }).default ?? (jsQRModule as unknown as JsQr);

/** The otpauth:// URI a camera would read from the QR code on the page: its PNG, decoded by jsQR. */
function decodeQr(png: Buffer): string {
  const image = PNG.sync.read(png);
  const found = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (!found) throw new Error(`no QR code in the ${image.width}×${image.height} screenshot`);
  return found.data;
}

describe('two-step verification set up from the account page', () => {
  it('a user scans the QR code, confirms a code, keeps the backup codes; then signs in with the app, and with a backup code', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: true });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.origin(tenant) });
    await signIn(page, user);

    const section = page.getByRole('region', { name: 'Two-step verification' });
    await expect(section.getByText('Off', { exact: true }).isVisible()).resolves.toBe(true);
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();

    // The QR code, as a camera sees it: a screenshot of the element, decoded.
    const qr = section.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-totp-setup');
    const uri = decodeQr(await qr.screenshot());
    const totp = OTPAuth.URI.parse(uri);
    if (!(totp instanceof OTPAuth.TOTP)) throw new Error(`not a TOTP URI: ${uri}`);
    expect(totp.label).toBe(user.email);
    expect(totp.issuer).toMatch(/^Shop /);
    // The setup key shown for typing by hand is the same secret.
    const shown = (await section.locator('.secret').textContent())?.replace(/\s+/g, '');
    expect(shown).toBe(totp.secret.base32);

    await section.getByLabel('Code from the app').fill(totp.generate());

    // The backup codes, shown this once, with copy and download.
    await section.getByRole('heading', { name: 'Your backup codes' }).waitFor();
    await expect(section.getByText('These codes are shown only now.').isVisible()).resolves.toBe(true);
    const codes = (
      await section.getByRole('list', { name: 'Backup codes' }).getByRole('listitem').allTextContents()
    ).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await expectAccessible(page);
    await screenshot(page, 'account-totp-backup-codes');

    await section.getByRole('button', { name: 'Copy the codes' }).click();
    await section.getByText('The codes are copied to your clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(codes.join('\n'));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('link', { name: 'Download as a text file' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`backup-codes-${tenant.subdomain}.txt`);
    const file = await readFile(await download.path(), 'utf8');
    for (const code of codes) expect(file).toContain(code);

    await section.getByRole('button', { name: 'I have saved my backup codes' }).click();
    await expect(section.getByText('On', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(section.getByRole('list', { name: 'Backup codes' }).count()).resolves.toBe(0);

    // Another browser: the password, then the app's code. The step after the one just used (the service takes
    // each step once; it accepts the next one, as it allows a clock 30 s ahead).
    const second = await web.open(tenant, '/sign-in');
    await signIn(second, user, { totpCode: totp.generate({ timestamp: Date.now() + 30_000 }) });
    await expect(second.getByText(`Signed in as ${user.email}`).isVisible()).resolves.toBe(true);

    // A third: the password, then one of the backup codes read from the page.
    const third = await web.open(tenant, '/sign-in');
    await signIn(third, user, { backupCode: codes[3] as string });
    await expect(third.getByText(`Signed in as ${user.email}`).isVisible()).resolves.toBe(true);
  });

  it('after the profile is saved twice, the code field is still the one its label names', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: true });
    const user = await aUser(tenant);
    const page = await openAccount(web, tenant, user);
    const profile = page.getByRole('region', { name: 'Profile' });
    for (const name of ['Ada', 'Grace']) {
      await profile.getByLabel('First name').fill(name);
      await profile.getByRole('button', { name: 'Save profile' }).click();
      await profile.getByText('Your profile was saved.').waitFor();
    }

    const section = page.getByRole('region', { name: 'Two-step verification' });
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await section.getByRole('img', { name: /QR code/ }).waitFor();
    // A click on the label, then typing: what a user does, and where a shared id sent the code into First name.
    await section.getByText('Code from the app', { exact: true }).click();
    await page.keyboard.type('123456');
    await expect(section.getByLabel('Code from the app').inputValue()).resolves.toBe('123456');
    await expect(profile.getByLabel('First name').inputValue()).resolves.toBe('Grace');
  });

  it('is turned off with a code where the tenant allows it, after the user confirms it is them', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: true });
    const user = await aUser(tenant, { totp: true });
    const secret = user.totpSecret as string;
    const page = await web.open(tenant, '/sign-in');
    await signIn(page, user, { totpCode: totpCodeAt(secret, new Date()) });
    await ageSignIns(tenant, user.id);

    const section = page.getByRole('region', { name: 'Two-step verification' });
    await expect(section.getByText('On', { exact: true }).isVisible()).resolves.toBe(true);
    await section.getByLabel('Code from your authenticator app').fill(user.backupCodes?.[0] as string);
    await section.getByRole('button', { name: 'Turn off two-step verification' }).click();
    // The sign-in is old: the prompt asks for the password and, TOTP being on, a code (another backup code).
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByLabel('Authenticator code').fill(user.backupCodes?.[1] as string);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    await section.getByText('Two-step verification is off. Your backup codes no longer work.').waitFor();
    await expect(section.getByText('Off', { exact: true }).isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'account-totp-off');

    // Signing in now asks for the password only.
    const fresh = await web.open(tenant, '/sign-in');
    await signIn(fresh, user);
  });

  it('cannot be turned off where the tenant requires it', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: true });
    await setTotpPolicy(tenant, { allowUserDisableTotp: false });
    const user = await aUser(tenant, { totp: true });
    const page = await web.open(tenant, '/sign-in');
    await signIn(page, user, { totpCode: totpCodeAt(user.totpSecret as string, new Date()) });
    const section = page.getByRole('region', { name: 'Two-step verification' });
    await section.getByText(/requires two-step verification: it cannot be turned off\.$/).waitFor();
    await expect(section.getByRole('button', { name: 'Turn off two-step verification' }).count()).resolves.toBe(0);
  });

  it('is not offered where the tenant does not allow authenticator apps', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: false });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await signIn(page, user);
    await page.getByRole('region', { name: 'Profile' }).waitFor();
    await expect(page.getByRole('region', { name: 'Two-step verification' }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Two-step verification' }).count()).resolves.toBe(0);
  });
});
