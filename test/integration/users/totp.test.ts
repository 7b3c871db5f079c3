import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { disableTotp, initTotp, verifyTotp } from '#shared/account/totp-enrolment.ts';
import type { UserPrincipal } from '#shared/auth/principal.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import type { Deps } from '#shared/deps.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

const STEP_MS = 30_000;
const client = { ip: '203.0.113.7', userAgent: 'vitest', language: 'en' as const };

/**
 * Deps whose clock the test moves by whole TOTP steps. It starts in the
 * middle of a step, so that step arithmetic never lands on a boundary.
 */
function steppedDeps() {
  const start = Math.floor(Date.now() / STEP_MS) * STEP_MS + STEP_MS / 2;
  let now = start;
  const deps = makeTestDeps({ clock: { now: () => new Date(now) } });
  return {
    deps,
    /** The instant `steps` steps from the start. */
    at: (steps: number) => new Date(start + steps * STEP_MS),
    /** Puts the clock `steps` steps from the start. */
    moveTo: (steps: number) => {
      now = start + steps * STEP_MS;
    },
  };
}

/** A fresh tenant and user, with TOTP enrolment started; the secret as an authenticator app reads it. */
async function pendingEnrolment(deps: Deps) {
  const created = await aTenantWith({}, deps);
  const tenant = (await merchantRepo(deps.store).get(created)) as Merchant;
  const user = await aUser(tenant, {}, deps);
  // Signed in at the clock's start: TOTP enrolment needs a recent authentication; the tests move the clock by a few steps only.
  const principal: UserPrincipal = {
    kind: 'user',
    userId: user.id,
    sessionId: 'ses_x',
    roles: [],
    authority: 99,
    authenticatedAt: deps.clock.now().toISOString(),
  };
  const { qrUri, backupCodes } = await initTotp(deps, tenant, principal);
  const secret = new URL(qrUri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${qrUri}`);
  return { tenant, user, principal, secret, backupCodes };
}

/** Whether `code` is also the code of one of the steps the server accepts at `clockAt` (a 1-in-300,000 chance). */
const collides = (secret: string, code: string, clockAt: Date) =>
  [-1, 0, 1].some((d) => totpCodeAt(secret, new Date(clockAt.getTime() + d * STEP_MS)) === code);

describe('verifyTotp (DynamoDB Local)', () => {
  it.each([-1, 1])('accepts a code when the clock is %i step(s) away from it', async (offset) => {
    const { deps, at, moveTo } = steppedDeps();
    const { tenant, user, principal, secret } = await pendingEnrolment(deps);
    const code = totpCodeAt(secret, at(0));
    moveTo(offset);
    await expect(verifyTotp(deps, tenant, principal, code, client)).resolves.toBeUndefined();
    expect((await userRepo(deps.store).get(tenant, user.id))?.totpEnabled).toBe(true);
  });

  it.each([-2, 2])(
    'refuses with INVALID_CODE a code when the clock is %i steps away from it, and TOTP stays off',
    async (offset) => {
      const { deps, at, moveTo } = steppedDeps();
      const { tenant, user, principal, secret } = await pendingEnrolment(deps);
      const code = totpCodeAt(secret, at(0));
      moveTo(offset);
      if (!collides(secret, code, at(offset))) {
        await expect(verifyTotp(deps, tenant, principal, code, client)).rejects.toMatchObject({
          code: 'INVALID_CODE',
        });
      }
      expect((await userRepo(deps.store).get(tenant, user.id))?.totpEnabled).toBe(false);
    },
  );

  it('lets exactly one of 10 simultaneous verifications with one code turn TOTP on', async () => {
    const { deps, at } = steppedDeps();
    const { tenant, user, principal, secret } = await pendingEnrolment(deps);
    const code = totpCodeAt(secret, at(0));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => verifyTotp(deps, tenant, principal, code, client)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') {
        // Past 5 proofs of one account in flight at once, the rest are refused unseen.
        expect(['INVALID_CODE', 'TOTP_ALREADY_ENABLED', 'TOO_MANY_ATTEMPTS']).toContain(
          (r.reason as { code?: string }).code,
        );
      }
    }
    expect((await userRepo(deps.store).get(tenant, user.id))?.totpEnabled).toBe(true);
    const { Items } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, user.id) },
      }),
    );
    expect((Items ?? []).filter((item) => item.type === 'TOTP_ENABLED')).toHaveLength(1);
  });
});

describe('a TOTP code once accepted (DynamoDB Local)', () => {
  it.each([
    ['at the same step again', 0],
    ['one step later, while the code is still inside the window', 1],
    ['one step earlier (a server whose clock is behind)', -1],
  ])('is refused with INVALID_CODE %s', async (_when, clockStep) => {
    const { deps, at, moveTo } = steppedDeps();
    const { tenant, user, principal, secret } = await pendingEnrolment(deps);
    const code = totpCodeAt(secret, at(0));
    await verifyTotp(deps, tenant, principal, code, client);

    moveTo(clockStep);
    await expect(disableTotp(deps, tenant, principal, code, client)).rejects.toMatchObject({ code: 'INVALID_CODE' });
    expect((await userRepo(deps.store).get(tenant, user.id))?.totpEnabled).toBe(true);
  });

  it('makes the codes of earlier steps unusable too, while later ones still work', async () => {
    const { deps, at, moveTo } = steppedDeps();
    const { tenant, user, principal, secret } = await pendingEnrolment(deps);
    const accepted = totpCodeAt(secret, at(0));
    await verifyTotp(deps, tenant, principal, accepted, client);

    const earlier = totpCodeAt(secret, at(-1));
    if (earlier !== accepted && earlier !== totpCodeAt(secret, at(1))) {
      await expect(disableTotp(deps, tenant, principal, earlier, client)).rejects.toMatchObject({
        code: 'INVALID_CODE',
      });
    }
    moveTo(1);
    await expect(disableTotp(deps, tenant, principal, totpCodeAt(secret, at(1)), client)).resolves.toBeUndefined();
    expect((await userRepo(deps.store).get(tenant, user.id))?.totpEnabled).toBe(false);
  });
});
