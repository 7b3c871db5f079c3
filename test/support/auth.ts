import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MailPurpose } from '#shared/auth/mail-limits.ts';
import { hashPassword } from '#shared/auth/passwords.ts';
import { hashBackupCode, newBackupCodes, newTotpSecret, totpSecretContext } from '#shared/auth/totp.ts';
import type { Deps } from '#shared/deps.ts';
import { newId } from '#shared/random.ts';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { type CreatedTenant, createTenant } from '#shared/tenancy/create-tenant.ts';
import type { LoginMode, SignupMode } from '#shared/tenancy/schemas.ts';
import { REFRESH_REUSE_GRACE_MS } from '#shared/tokens/refresh-token.ts';
import { defaultGrant } from '#shared/users/new-user.ts';
import type { User } from '#shared/users/types.ts';
import { makeTestDeps } from './deps.ts';

let counter = 0;
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++counter}`;

export interface TestTenant extends CreatedTenant {
  /** X-App-ID and X-Mid-Key, with a JSON content type. */
  headers: Record<string, string>;
}

/**
 * A fresh tenant, as the operator CLI makes it, with the login policy a test
 * needs (set on the merchant item directly: the merchant settings route
 * belongs to the administration issue).
 */
export async function aTenantWith(
  options: { loginMode?: LoginMode; signupMode?: SignupMode; origins?: string[]; totpAllowed?: boolean } = {},
  deps: Deps = makeTestDeps(),
): Promise<TestTenant> {
  const created = await createTenant(deps, {
    name: `Shop ${unique()}`,
    adminEmail: `owner-${unique()}@shop.test`,
    origins: options.origins ?? ['https://shop.example'],
    subdomain: `t-${unique()}`,
    ...(options.loginMode ? { loginMode: options.loginMode } : {}),
    ...(options.signupMode ? { signupMode: options.signupMode } : {}),
    ...(options.totpAllowed === undefined ? {} : { totpAllowed: options.totpAllowed }),
  });
  return {
    ...created,
    headers: { 'content-type': 'application/json', 'x-app-id': created.app, 'x-mid-key': created.mid },
  };
}

/** Changes a tenant's login policy in place (takes effect on the next request). */
export async function setLoginPolicy(
  tenant: { app: string; mid: string },
  policy: { loginMode?: LoginMode; signupMode?: SignupMode },
  deps: Deps = makeTestDeps(),
): Promise<void> {
  const entries = Object.entries(policy);
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: keys.merchant(tenant),
      UpdateExpression: `SET ${entries.map((_, i) => `#k${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#k${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
    }),
  );
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** Base32 TOTP secret, when made with `totp: true`. */
  totpSecret?: string;
  backupCodes?: string[];
}

/**
 * A user straight in the store (status ACTIVE unless asked), with the
 * DEFAULT role, a password, and TOTP when asked: what signup and TOTP
 * enrolment would leave behind.
 */
export async function aUser(
  tenant: { app: string; mid: string },
  options: { email?: string; password?: string; status?: User['status']; totp?: boolean } = {},
  deps: Deps = makeTestDeps(),
): Promise<TestUser> {
  const now = deps.clock.now();
  const email = options.email ?? `user-${unique()}@shop.test`;
  const password = options.password ?? `Fern-${unique()}-9`;
  const totpSecret = options.totp ? newTotpSecret() : undefined;
  const backupCodes = options.totp ? newBackupCodes(deps.random) : undefined;
  const id = newId(deps.random, 'usr');
  const user: User = {
    id,
    email,
    emailStatus: 'VALIDATED',
    emailValidationExpiresAt: null,
    firstName: 'Test',
    lastName: 'User',
    phone: null,
    status: options.status ?? 'ACTIVE',
    passwordHash: await hashPassword(deps.config.argon2, password),
    totpEnabled: Boolean(totpSecret),
    totpSecret: totpSecret ? await deps.vault.encrypt(Buffer.from(totpSecret, 'utf8'), totpSecretContext(id)) : null,
    totpLastStep: null,
    backupCodes: backupCodes ? backupCodes.map((code) => hashBackupCode(id, code)) : [],
    totpPendingSecret: null,
    totpPendingBackupCodes: [],
    grants: await defaultGrant(deps, tenant, now),
    registeredAt: now.toISOString(),
    lastLoginAt: null,
    lockedUntil: null,
    credentialEpoch: 0,
    passkeyCount: 0,
    liveSessions: {},
    invitationHash: null,
  };
  if ((await userRepo(deps.store).create(tenant, user)) !== 'CREATED') throw new Error(`e-mail ${email} taken`);
  return { id, email, password, ...(totpSecret ? { totpSecret, backupCodes } : {}) };
}

/** Every item of a user's partition (profile, sessions, used refresh tokens, devices), read consistently. */
export async function userPartitionItems(
  tenant: TestTenant,
  userId: string,
  deps: Deps = makeTestDeps(),
): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.userPartition(tenant, userId) },
      ConsistentRead: true,
    }),
  );
  return Items;
}

/**
 * Moves a session's last refresh-token rotation past its grace (REFRESH_REUSE_GRACE_MS), as far as the store
 * knows: the token rotated out is then a replay (REFRESH_TOKEN_REUSED) without waiting out the grace.
 */
export async function rotationPastGrace(
  tenant: TestTenant,
  userId: string,
  sessionId: string,
  deps: Deps = makeTestDeps(),
): Promise<void> {
  const items = await userPartitionItems(tenant, userId, deps);
  const session = items.find((item) => item.entity === 'SESSION' && item.id === sessionId);
  if (!session?.prevRotatedAt) throw new Error('no rotation recorded on the session');
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: { pk: session.pk, sk: session.sk },
      UpdateExpression: 'SET prevRotatedAt = :then',
      ExpressionAttributeValues: {
        ':then': new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1_000).toISOString(),
      },
    }),
  );
}

interface StoredMail {
  destination: { to: string[] | string };
  subject: string;
  body: { text: string; html: string };
}

/** The mails the SES emulator holds for one address, oldest first. */
export async function mailsTo(sesUrl: string, to: string): Promise<StoredMail[]> {
  const res = await fetch(`${sesUrl}/store`);
  const { emails } = (await res.json()) as { emails: StoredMail[] };
  return emails.filter((mail) => {
    const recipients = Array.isArray(mail.destination.to) ? mail.destination.to : [mail.destination.to];
    return recipients.some((r) => r.toLowerCase().includes(to.toLowerCase()));
  });
}

/** The 6-digit code of the latest mail to an address. */
export async function latestCodeTo(sesUrl: string, to: string): Promise<string> {
  const mails = await mailsTo(sesUrl, to);
  const code = /^\s*(\d{6})\s*$/m.exec(mails.at(-1)?.body.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${to} (${mails.length} mails)`);
  return code;
}

/**
 * As if the mail limit's minute had passed for an address: its per-recipient
 * counter for `purpose` removed (the tenant's budget stays). For tests that
 * need a second code at once, which the limit holds back for a minute
 * (docs/security.md#mail-limits-and-budgets) and an http test cannot wait for.
 */
export async function forgetMailsTo(
  tenant: { app: string; mid: string },
  purpose: MailPurpose,
  email: string,
  deps: Deps = makeTestDeps(),
): Promise<void> {
  await deps.store.doc.send(
    new DeleteCommand({
      TableName: deps.store.tableName,
      Key: keys.mailRecipient(tenant, purpose, email.trim().toLowerCase()),
    }),
  );
}
