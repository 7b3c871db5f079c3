import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookRepo } from '#shared/store/webhook-repo.ts';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { bearer, post } from '#test/support/http.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, apiOf, openAsOwner } from './account-steps.ts';

/**
 * Webhooks in the console: an admin adds an endpoint pointed at a receiver on loopback and is shown its signing secret
 * once; changes its events, rotates its secret (confirming it is them), turns it off and on, sends a test event and
 * asks for a replay, and deletes it. An address inside a private network is refused at the URL field; an endpoint
 * the service turned off says why. Deliveries themselves are not the subject here.
 */

// Deliveries as on AWS (the table's stream, the queue), on a table of this file's own: tenants are made in it.
const web = useWebStack({ webhooks: {} });
const aTenant = () => aTenantWith({}, web.localStack().deps);

/** The receiver: answers every POST 200, keeping what it was sent. */
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: { type?: string } }[] = [];
beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  receiverUrl = `http://127.0.0.1:${address.port}/hooks/identity`;
});
afterAll(() => new Promise<void>((resolve) => receiver?.close(() => resolve())));

/** The endpoint as the admin API answers it (the admin signed in through the API, just now). */
async function endpointOf(tenant: TestTenant, endpointId: string) {
  const api = apiOf(web, tenant);
  const login = await post(
    `${api}/auth/login`,
    { email: tenant.adminEmail, password: tenant.adminPassword },
    tenant.headers,
  );
  expect(login.status, login.text).toBe(200);
  const res = await fetch(`${api}/webhook-endpoints/${endpointId}`, {
    headers: bearer(tenant, login.body.data.accessToken),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { eventTypes: string[]; enabled: boolean; description: string | null };
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const box = (page: Page, name: RegExp | string) => page.getByRole('checkbox', { name });
const isFocused = (page: Page, label: string) =>
  field(page, label).evaluate((element) => element === element.ownerDocument.activeElement);

/** The delivery log's rows of an event type: "Refresh" until there are `count` of them (deliveries take a moment). */
async function attemptsOf(page: Page, eventType: string, count: number): Promise<string[][]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = page
      .getByRole('region', { name: 'Delivery attempts, newest first' })
      .locator('tbody:not(.skeleton-rows) tr')
      .filter({ hasText: eventType });
    if ((await rows.count()) >= count) {
      const texts: string[][] = [];
      for (const row of await rows.all()) {
        texts.push((await row.locator('td').allTextContents()).map((text) => text.trim()));
      }
      return texts;
    }
    if (Date.now() > deadline) throw new Error(`no ${count} attempts of ${eventType} in the delivery log`);
    await page.waitForTimeout(250);
    await page.getByRole('button', { name: 'Refresh' }).click();
  }
}

async function confirmItIsYou(page: Page, tenant: TestTenant) {
  const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
  await prompt.waitFor();
  await prompt.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
  await prompt.getByRole('button', { name: 'Confirm' }).click();
}

describe('webhooks in the console', () => {
  it('an admin adds an endpoint (its secret shown once), changes its events, rotates its secret, turns it off and on, and deletes it', async () => {
    const tenant = await aTenant();
    const page = await openAsOwner(web, tenant, '/console/webhooks', { ready: null });

    // None yet: what webhooks are, and the way to add one.
    await page.getByText('There are no webhook endpoints yet.', { exact: false }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expect(nav.getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).resolves.toBe('page');
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-webhooks-empty', expectAccessible);

    // Sent empty: each missing field says so, and the URL is focused.
    await page.getByRole('link', { name: 'Add endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a webhook endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Enter the endpoint’s URL.').waitFor();
    await page.getByText('Choose at least one event.').waitFor();
    await expect(isFocused(page, 'URL')).resolves.toBe(true);

    // "Select all events" picks the fifteen, in three groups; an address inside a private network is refused at its
    // field, with why.
    await box(page, 'Select all events').check();
    const events = page.getByRole('group', { name: 'Events', exact: true });
    await expect(events.getByRole('checkbox', { checked: true }).count()).resolves.toBe(16);
    for (const group of ['Users', 'Sessions', 'Invitations']) {
      await events.getByRole('group', { name: group }).waitFor();
    }
    await field(page, 'URL').fill('https://10.0.0.1/x');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const urlProblem = page
      .locator('.field .problem')
      .filter({ hasText: 'This address cannot receive webhooks: it must start with https:// and name a public host.' });
    await urlProblem.waitFor();
    await expect(urlProblem.textContent()).resolves.toContain('a host inside a private network');
    await expect(field(page, 'URL').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(field(page, 'URL').getAttribute('aria-describedby')).resolves.toContain(
      (await urlProblem.getAttribute('id')) ?? 'none',
    );
    await expect(isFocused(page, 'URL')).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'console-webhook-url-refused');
    await screenshotsOnPhoneAndDark(page, 'console-webhook-url-refused', expectAccessible);

    // Two events, the receiver on loopback: added; its page shows the signing secret, this once.
    await box(page, 'Select all events').uncheck();
    await box(page, /^Account created/).check();
    await box(page, /^Signed in/).check();
    await expect(
      box(page, 'Select all events').evaluate((input) => (input as { indeterminate: boolean }).indeterminate),
    ).resolves.toBe(true);
    await field(page, 'URL').fill(receiverUrl);
    await field(page, 'Description (optional)').fill('CRM sync');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    const secretHeading = page.getByRole('heading', { name: 'The endpoint is added: its signing secret' });
    await secretHeading.waitFor();
    const firstSecret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(firstSecret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await expect(page.getByTestId('endpoint-url').textContent()).resolves.toBe(receiverUrl);
    await expectAccessible(page);
    await screenshot(page, 'console-webhook-added');
    await screenshotsOnPhoneAndDark(page, 'console-webhook-added', expectAccessible);
    const endpointId = new URL(page.url()).pathname.split('/').pop() ?? '';
    expect(endpointId).toMatch(/^whe_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(page.getByTestId('webhook-secret').count()).resolves.toBe(0);
    // Never again: not after a reload either.
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    await expect(page.getByTestId('webhook-secret').count()).resolves.toBe(0);

    // Another event instead of one: saved, and the service holds just what is ticked.
    await box(page, /^Role assigned/).check();
    await box(page, /^Signed in/).uncheck();
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'The endpoint is saved.' }).waitFor();
    await expect(endpointOf(tenant, endpointId)).resolves.toMatchObject({
      eventTypes: ['user.created', 'user.role_assigned'],
      description: 'CRM sync',
    });

    // A new secret, after the admin (signed in a while ago) confirms it is them; the old one keeps working a day.
    await ageSignIns(tenant, tenant.adminUserId, 11, web.localStack().deps);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: /^Make a new signing secret\?/ });
    await expect(rotate.textContent()).resolves.toContain('keeps signing beside it for 24 hours');
    await rotate.getByRole('button', { name: 'Rotate', exact: true }).click();
    await confirmItIsYou(page, tenant);
    await page.getByRole('heading', { name: 'The new signing secret' }).waitFor();
    const secondSecret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secondSecret).toMatch(/^whsec_/);
    expect(secondSecret).not.toBe(firstSecret);
    await page.getByText('The old secret keeps working until', { exact: false }).waitFor();
    await page.getByText('Still signs until', { exact: false }).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-webhook-rotated', expectAccessible);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    // Off: a test event is refused until it is on again; on, one is queued.
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('status').filter({ hasText: 'The endpoint is turned off.' }).waitFor();
    await expect(endpointOf(tenant, endpointId)).resolves.toMatchObject({ enabled: false });
    // Nothing delivered yet: the page says so.
    await expect(page.getByTestId('last-success').textContent()).resolves.toBe('None yet');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('alert').filter({ hasText: 'The endpoint is turned off. Turn it on first.' }).waitFor();
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('status').filter({ hasText: 'The endpoint is turned on.' }).waitFor();
    await expect(endpointOf(tenant, endpointId)).resolves.toMatchObject({ enabled: true });
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'A test event is on its way.' }).waitFor();

    // Delivered: the log shows its attempt, answered 200; the receiver got it, signed.
    const [test] = await attemptsOf(page, 'webhook.test', 1);
    expect(test?.slice(1, 6)).toEqual([
      'Test eventwebhook.test',
      '1',
      '200',
      expect.stringMatching(/^\d+ ms$/),
      'None',
    ]);
    const delivered = received.find((request) => request.body.type === 'webhook.test');
    expect(delivered?.headers['webhook-signature']).toMatch(/^v1,/);
    await expectAccessible(page);
    await screenshot(page, 'console-webhook-delivered');
    // Sent again from its row: a second attempt.
    await page.getByRole('button', { name: 'Redeliver Test event, attempt 1' }).first().click();
    await page.getByRole('status').filter({ hasText: 'The event “Test event” will be sent again.' }).waitFor();
    await attemptsOf(page, 'webhook.test', 2);
    // Opened again, the page tells when a delivery last got through.
    await page.reload();
    await expect(page.getByTestId('last-success').locator('time').getAttribute('datetime')).resolves.toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
    await expect(page.getByTestId('last-success').textContent()).resolves.toContain('(noted at most once an hour)');

    // A replay says how many events it sends; a time to come is refused at its field.
    await page.getByRole('button', { name: 'Replay events' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /No events to send|\d+ events? will be sent again/ })
      .waitFor();
    await field(page, 'Since').fill('2999-01-01T00:00');
    await page.getByRole('button', { name: 'Replay events' }).click();
    await page.locator('.field .problem').filter({ hasText: 'Choose a time that has passed.' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Delivery log' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'console-webhook-page');
    await screenshotsOnPhoneAndDark(page, 'console-webhook-page', expectAccessible);

    // The list: its URL and description, two events, on.
    await page.getByRole('link', { name: 'Back to the webhooks' }).click();
    const table = page.getByRole('region', { name: 'Webhook endpoints' });
    await table.locator('tbody:not(.skeleton-rows) tr').first().waitFor();
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual(['Endpoint', 'Events', 'Status']);
    const cells = (await table.locator('tbody:not(.skeleton-rows) td').allTextContents()).map((text) => text.trim());
    expect(cells).toEqual([`${receiverUrl}CRM sync`, '2 events', 'OnNo failing deliveries']);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-webhooks-list', expectAccessible);

    // Deleted, after the dialog says what it means; the list says so.
    await table.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: /^Delete the endpoint/ });
    await expect(dialog.textContent()).resolves.toContain('Nothing more is sent to it.');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `The endpoint ${receiverUrl} was deleted.` })
      .waitFor();
    await page.getByText('There are no webhook endpoints yet.', { exact: false }).waitFor();
  });

  it('an endpoint the service turned off after a day of failures says so, in the list and on its page', async () => {
    const tenant = await aTenant();
    const repo = webhookRepo(web.localStack().deps.store);
    const page = await openAsOwner(web, tenant, '/console/webhooks/new', { ready: '#main form' });
    await field(page, 'URL').fill(receiverUrl);
    await box(page, /^User deleted/).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('heading', { name: 'The endpoint is added: its signing secret' }).waitFor();
    const endpointId = new URL(page.url()).pathname.split('/').pop() ?? '';

    // As the deliverer leaves it after 24 hours of failed attempts.
    const stored = await repo.get(tenant, endpointId);
    if (!stored) throw new Error('the endpoint is not stored');
    const failedAt = new Date(Date.now() - 25 * 3600_000).toISOString();
    const now = new Date().toISOString();
    const saved = await repo.save(
      tenant,
      { ...stored, enabled: false, disabledReason: 'FAILING', disabledAt: now, failingSince: failedAt, updatedAt: now },
      stored.updatedAt,
    );
    expect(saved).toBe(true);

    await page.goto(`${web.origin(tenant)}/console/webhooks`);
    const table = page.getByRole('region', { name: 'Webhook endpoints' });
    await table.getByRole('cell', { name: /^Off\s*Turned off: every delivery failed for 24 hours$/ }).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-webhooks-failing', expectAccessible);

    // Its page says what happened and what to do; turned on, it says nothing of it any more.
    await table.getByRole('link', { name: receiverUrl }).click();
    const warning = page.locator('.warning').filter({ hasText: 'Turned off: every delivery failed for 24 hours' });
    await warning.waitFor();
    await expect(warning.textContent()).resolves.toContain('turn the endpoint on again');
    await expectAccessible(page);
    await screenshot(page, 'console-webhook-failing');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('status').filter({ hasText: 'The endpoint is turned on.' }).waitFor();
    await expect(warning.count()).resolves.toBe(0);
    await expect(repo.get(tenant, endpointId)).resolves.toMatchObject({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
  });

  it('in German: the list and the form, with the refusal of an address, fit a phone', async () => {
    const tenant = await aTenant();
    const page = await openAsOwner(web, tenant, '/console/webhooks', { ready: null, locale: 'de-DE' });
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('Es gibt noch keine Webhook-Endpunkte.', { exact: false }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Endpunkt hinzufügen' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook-Endpunkt hinzufügen' }).waitFor();
    await field(page, 'URL').fill('http://example.com/hooks');
    await box(page, 'Alle Ereignisse auswählen').check();
    await page.getByRole('button', { name: 'Endpunkt hinzufügen' }).click();
    await page.getByText('An diese Adresse können keine Webhooks gesendet werden.', { exact: false }).waitFor();
    await page.getByText('Diese beginnt nicht mit https://.', { exact: false }).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-webhook-add-de', expectAccessible);
  });
});
