import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '#functions/mail/ses-events.ts';
import type { LogFields } from '#shared/log.ts';
import { mailSuppressionKey, mailSuppressionRepo } from '#shared/store/mail-suppression-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { merchantOf } from '#test/support/faults.ts';
import {
  DOCUMENTED_BOUNCE,
  DOCUMENTED_COMPLAINT,
  DOCUMENTED_DELIVERY_DELAY,
  DOCUMENTED_REJECT,
  snsEventOf,
  withRecipient,
  withTags,
} from '#test/support/ses-events.ts';

/**
 * The SES events function (functions/mail/ses-events.ts), fed AWS's documented example records
 * (test/support/ses-events.ts) through SNS's Lambda event, against DynamoDB Local: a hard bounce or a complaint
 * suppresses the recipient in the tenant its tags name, and only there; a transient bounce, a delay or a reject
 * suppresses nothing; garbage is logged and skipped, never thrown; no line logs an address.
 */

const lines: { level: 'info' | 'error'; message: string; fields?: LogFields }[] = [];
const deps = makeTestDeps({
  log: {
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  },
});
const suppressions = mailSuppressionRepo(deps.store);

let tenant: Merchant;
let other: Merchant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([merchantOf(await aTenantWith()), merchantOf(await aTenantWith())]);
});
beforeEach(() => {
  lines.length = 0;
});

const ours = (of: Merchant, kind = 'PASSWORD_RESET_CODE') => ({ app: of.app, mid: of.mid, kind });
const invoke = (...messages: (Record<string, unknown> | string)[]) =>
  handler(snsEventOf(...messages), { awsRequestId: 'req-ses-events', deps } as never);

/** No log line names the address. */
function expectNoAddressLogged(address: string) {
  expect(JSON.stringify(lines)).not.toContain(address);
  expect(JSON.stringify(lines)).not.toContain(address.split('@')[0]);
}

describe('SES events from SNS (functions/mail/ses-events.ts)', () => {
  it("a Permanent bounce (AWS's example) suppresses the recipient in the tagged tenant: BOUNCE, at the bounce's time", async () => {
    const address = anEmail('bounced');
    await invoke(withRecipient(withTags(DOCUMENTED_BOUNCE, ours(tenant)), address));

    expect(await suppressions.get(tenant, address)).toEqual({ reason: 'BOUNCE', at: '2017-08-05T00:41:02.669Z' });
    // Stored by the normalised address, with what the operator needs and nothing more.
    const { Item } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: mailSuppressionKey(tenant, address) }),
    );
    expect(Item).toMatchObject({
      entity: 'MAIL_SUPPRESSION',
      email: address,
      reason: 'BOUNCE',
      mailKind: 'PASSWORD_RESET_CODE',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
    });
    expect(lines).toContainEqual({
      level: 'info',
      message: 'ses event: mail suppressed',
      fields: expect.objectContaining({
        eventType: 'Bounce',
        bounceType: 'Permanent',
        reason: 'BOUNCE',
        mailKind: 'PASSWORD_RESET_CODE',
        app: tenant.app,
        mid: tenant.mid,
        recipients: 1,
        recorded: 1,
        requestId: 'req-ses-events',
      }),
    });
    expectNoAddressLogged(address);
  });

  it("a complaint (AWS's example) suppresses the recipient: COMPLAINT", async () => {
    const address = anEmail('complained');
    await invoke(withRecipient(withTags(DOCUMENTED_COMPLAINT, ours(tenant, 'INVITATION')), address));
    expect(await suppressions.get(tenant, address)).toEqual({ reason: 'COMPLAINT', at: '2017-08-05T00:41:02.669Z' });
    expectNoAddressLogged(address);
  });

  it('a Transient bounce suppresses nothing (logged)', async () => {
    const address = anEmail('mailbox-full');
    const transient = withRecipient(withTags(DOCUMENTED_BOUNCE, ours(tenant)), address);
    transient.bounce.bounceType = 'Transient';
    transient.bounce.bounceSubType = 'MailboxFull';
    await invoke(transient);
    expect(await suppressions.get(tenant, address)).toBeNull();
    expect(lines).toContainEqual(
      expect.objectContaining({
        message: 'ses event: bounce not permanent, nothing suppressed',
        fields: expect.objectContaining({ bounceType: 'Transient', bounceSubType: 'MailboxFull', app: tenant.app }),
      }),
    );
    expectNoAddressLogged(address);
  });

  it('an Undetermined bounce, a delivery delay and a reject (AWS examples) suppress nothing', async () => {
    const address = anEmail('delayed');
    const undetermined = withRecipient(withTags(DOCUMENTED_BOUNCE, ours(tenant)), address);
    undetermined.bounce.bounceType = 'Undetermined';
    await invoke(
      undetermined,
      withRecipient(withTags(DOCUMENTED_DELIVERY_DELAY, ours(tenant)), address),
      withRecipient(withTags(DOCUMENTED_REJECT, ours(tenant)), address),
    );
    expect(await suppressions.get(tenant, address)).toBeNull();
    expect(lines.map((line) => line.message)).toEqual([
      'ses event: bounce not permanent, nothing suppressed',
      'ses event: delivery delayed, nothing suppressed',
      'ses event: mail rejected by SES, nothing suppressed',
    ]);
    expectNoAddressLogged(address);
  });

  it("a bounce tagged with another tenant's app and mid suppresses the address in that tenant only", async () => {
    const address = anEmail('shared');
    await invoke(withRecipient(withTags(DOCUMENTED_BOUNCE, ours(other)), address));
    expect(await suppressions.get(other, address)).toMatchObject({ reason: 'BOUNCE' });
    expect(await suppressions.get(tenant, address)).toBeNull();
  });

  it('keys the address case-insensitively, and takes the address out of a display-name form', async () => {
    const address = anEmail('cased');
    await invoke(withRecipient(withTags(DOCUMENTED_BOUNCE, ours(tenant)), `Ana Lee <${address.toUpperCase()}>`));
    expect(await suppressions.get(tenant, address)).toMatchObject({ reason: 'BOUNCE' });
  });

  it('the same event delivered twice records once; an older one never replaces a newer one', async () => {
    const address = anEmail('twice');
    const bounce = withRecipient(withTags(DOCUMENTED_BOUNCE, ours(tenant)), address);
    await invoke(bounce, bounce);
    expect(
      lines.filter((line) => line.message === 'ses event: mail suppressed').map((l) => l.fields?.recorded),
    ).toEqual([1, 0]);
    const later = withRecipient(withTags(DOCUMENTED_COMPLAINT, ours(tenant)), address);
    later.complaint.timestamp = '2017-08-06T00:00:00.000Z';
    await invoke(later, bounce);
    expect(await suppressions.get(tenant, address)).toEqual({ reason: 'COMPLAINT', at: '2017-08-06T00:00:00.000Z' });
  });

  it('a clearing holds against a late delivery of an older event; a bounce after it suppresses again', async () => {
    const address = anEmail('cleared');
    const bounce = withRecipient(withTags(DOCUMENTED_BOUNCE, ours(tenant)), address);
    await invoke(bounce);
    expect(await suppressions.clear(tenant, address, 'usr_admin', new Date())).toBe(true);
    expect(await suppressions.get(tenant, address)).toBeNull();

    const olderButUnseen = withRecipient(withTags(DOCUMENTED_COMPLAINT, ours(tenant)), address);
    olderButUnseen.complaint.timestamp = '2017-08-07T00:00:00.000Z';
    await invoke(olderButUnseen);
    expect(await suppressions.get(tenant, address)).toBeNull();

    const fresh = withRecipient(withTags(DOCUMENTED_BOUNCE, ours(tenant)), address);
    fresh.bounce.timestamp = new Date(Date.now() + 1000).toISOString();
    await invoke(fresh);
    expect(await suppressions.get(tenant, address)).toMatchObject({ reason: 'BOUNCE', at: fresh.bounce.timestamp });
    // Nothing to clear answers false (the route still answers 204).
    expect(await suppressions.clear(tenant, anEmail('never'), 'usr_admin', new Date())).toBe(false);
  });

  it('skips garbage without throwing: not JSON, not a record, no tenant tags, no recipients, an empty event', async () => {
    const address = anEmail('untagged');
    const noRecipients = withTags(DOCUMENTED_BOUNCE, ours(tenant));
    noRecipients.bounce.bouncedRecipients = [{ emailAddress: 'not an address' }];
    const badTenant = withRecipient(withTags(DOCUMENTED_BOUNCE, { app: 'app with space', mid: 'mid_1' }), address);
    await expect(
      invoke(
        'Hello from SNS!',
        '{"eventType":',
        '[1,2]',
        JSON.stringify({ mail: {} }),
        withRecipient(DOCUMENTED_BOUNCE, address),
        badTenant,
        noRecipients,
      ),
    ).resolves.toBeUndefined();
    await expect(handler({} as never, { awsRequestId: 'req-empty', deps } as never)).resolves.toBeUndefined();
    await expect(
      handler({ Records: [{}] } as never, { awsRequestId: 'req-empty', deps } as never),
    ).resolves.toBeUndefined();
    expect(lines.filter((line) => line.level === 'error').map((line) => line.fields?.reason)).toEqual([
      'not JSON',
      'not JSON',
      'not an object',
      'no eventType',
      'no tenant tags',
      'no tenant tags',
      'no recipients',
      'not JSON',
    ]);
    expect(await suppressions.get(tenant, address)).toBeNull();
    expectNoAddressLogged(address);
  });
});
