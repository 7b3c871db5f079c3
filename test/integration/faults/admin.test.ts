import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, expect } from 'vitest';
import { handler as assignRoleHandler } from '#functions/roles/assign-role.ts';
import { handler as revokeRoleHandler } from '#functions/roles/revoke-role.ts';
import { handler as deleteUserHandler } from '#functions/users/delete-user.ts';
import { handler as inviteUserHandler } from '#functions/users/invite-user.ts';
import { keys } from '#shared/store/keys.ts';
import { anEmail, aStoredUser } from '#test/support/admin.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import {
  ALLOWED,
  anIp,
  aRequest,
  aSessionOf,
  type Change,
  describeAnswer,
  describeUnderFaults,
  effectOf,
  invokeWith,
  type Operation,
  useFaultStack,
} from '#test/support/faults.ts';

/**
 * Administration under DynamoDB faults, at every call in turn (the bearer
 * check's reads included): role assign and revoke, invitations and user
 * deletion answer 503 UNAVAILABLE and change nothing, and work when retried. A user deletion
 * is committed by one transaction (profile, e-mail claim, lockout, audit
 * record); a fault in the clean-up after it still answers 204, for the user
 * is gone in every way a client can see.
 */

const {
  tenants: [tenant],
  admin,
} = useFaultStack({ signedInAdmin: true });
let userRoleId: string;
beforeAll(async () => {
  const deps = makeTestDeps();
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :roles)',
      ExpressionAttributeValues: { ':pk': keys.merchant(tenant).pk, ':roles': keys.rolePrefix },
    }),
  );
  userRoleId = Items.find((role) => role.name === 'USER')?.id as string;
});

const assignRole: Operation<{ ip: string; userId: string }> = {
  handler: assignRoleHandler,
  setup: async (ip) => ({ ip, userId: (await aStoredUser(tenant)).id }),
  tenant: () => tenant,
  request: (f) =>
    aRequest('POST', '/roles/assign', {
      tenant,
      ip: f.ip,
      bearer: admin.token,
      body: { userId: f.userId, roleId: userRoleId },
    }),
  succeeded: (answer) => expect(answer.status, JSON.stringify(answer.body)).toBe(204),
};

/** Gives a user the USER role, through the assign handler with no faults. */
async function assignRoleTo(userId: string) {
  const answer = await invokeWith(
    makeTestDeps(),
    assignRoleHandler,
    aRequest('POST', '/roles/assign', {
      tenant,
      ip: anIp(),
      bearer: admin.token,
      body: { userId, roleId: userRoleId },
    }),
  );
  expect(answer.status).toBe(204);
}

const revokeRole: Operation<{ ip: string; userId: string }> = {
  ...assignRole,
  handler: revokeRoleHandler,
  setup: async (ip) => {
    const user = await aStoredUser(tenant);
    await assignRoleTo(user.id);
    return { ip, userId: user.id };
  },
  request: (f) =>
    aRequest('POST', '/roles/revoke', {
      tenant,
      ip: f.ip,
      bearer: admin.token,
      body: { userId: f.userId, roleId: userRoleId },
    }),
};

const invite: Operation<{ ip: string; email: string }> = {
  handler: inviteUserHandler,
  setup: async (ip) => ({ ip, email: anEmail('invited') }),
  tenant: () => tenant,
  request: (f) =>
    aRequest('POST', '/users/invitations', { tenant, ip: f.ip, bearer: admin.token, body: { email: f.email } }),
  succeeded: (answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ status: 'INVITED' });
  },
  allowed: [ALLOWED.mailDayCount],
  afterCommit: {
    // The mail went out: the invitation stands. Only its INVITED record (the activity write) may be missing then.
    // Found by its partition, not counted from the end: a run may make one more read after it (a key refresh).
    commitAt: (calls) => calls.findIndex((call) => call.writes && call.partitions.some((p) => p.endsWith('#ACT'))) - 1,
    async check(run, trace) {
      const problems: string[] = [];
      if (run.answer.status !== 201) problems.push(`answered ${describeAnswer(run.answer)}, not 201: the mail is out`);
      const effect = effectOf(run.changes);
      const without = trace.effect.filter((change) => change !== 'ACTIVITY added');
      if (JSON.stringify(effect) !== JSON.stringify(without)) problems.push(`wrote ${effect.join('; ')}`);
      if (!run.errorsLogged.some((message) => message.includes('INVITED activity not recorded'))) {
        problems.push('the missing record was not logged');
      }
      return problems;
    },
  },
};

/** A user who has signed in: a session, a device and activity for the deletion to remove. */
async function aUserWithASession() {
  const user = await aStoredUser(tenant);
  await aSessionOf(tenant, user.id);
  return user;
}

const isAudit = (change: Change) => (change.after ?? change.before)?.entity === 'AUDIT';

const deleteUser: Operation<{ ip: string; userId: string; email: string }> = {
  handler: deleteUserHandler,
  setup: async (ip) => {
    const user = await aUserWithASession();
    return { ip, userId: user.id, email: user.email };
  },
  tenant: () => tenant,
  request: (f) =>
    aRequest('DELETE', `/users/${f.userId}`, {
      tenant,
      ip: f.ip,
      bearer: admin.token,
      pathParameters: { id: f.userId },
    }),
  succeeded: (answer) => expect(answer.status, JSON.stringify(answer.body)).toBe(204),
  // Every run's deletion adds to the tenant's one audit partition.
  othersChange: (change, f) => isAudit(change) && (change.after ?? change.before)?.subjectId !== f.userId,
  afterCommit: {
    // The transaction that removes the profile, the e-mail claim and the lockout and records the deletion.
    commitAt: (calls) => calls.findIndex((call) => call.command === 'TransactWriteItems'),
    async check(run, trace) {
      const problems: string[] = [];
      const { userId, email } = run.fixture;
      const gone = (entity: string) => run.changes.some((c) => c.before?.entity === entity && !c.after);
      if (run.answer.status !== 204)
        problems.push(`answered ${describeAnswer(run.answer)}, not 204: the user is deleted`);
      if (!gone('USER') || !gone('USER_EMAIL')) problems.push('the profile or the e-mail claim is still there');
      if (!run.changes.some((c) => isAudit(c) && c.after?.subjectId === userId)) problems.push('no audit record');
      // What the clean-up leaves is in the deleted user's own partitions, which nothing reads any more.
      const elsewhere = run.changes.filter(
        (c) => !isAudit(c) && !c.key.startsWith(`#U#${userId}`) && c.after !== undefined,
      );
      if (elsewhere.length > 0) problems.push(`changed ${elsewhere.map((c) => c.key).join(', ')}`);
      const whole = JSON.stringify(effectOf(run.changes)) === JSON.stringify(trace.effect);
      if (!whole && !run.errorsLogged.some((message) => message.includes('clean-up'))) {
        problems.push('the clean-up stopped short and nothing was logged');
      }
      // The address is free again.
      await aStoredUser(tenant, { email }).catch(() => problems.push(`the address ${email} is still taken`));
      return problems;
    },
  },
};

const cases: [string, Operation<any>][] = [
  ['POST /roles/assign', assignRole],
  ['POST /roles/revoke', revokeRole],
  ['POST /users/invitations', invite],
  ['DELETE /users/{id} (a fault after its commit still answers 204)', deleteUser],
];

describeUnderFaults(cases, 60_000);
