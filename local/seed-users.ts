import { initTotp, verifyTotp } from '#shared/account/totp-enrolment.ts';
import { activityItem } from '#shared/activity/record.ts';
import { assignRole, createRole } from '#shared/admin/roles.ts';
import { setUserStatus } from '#shared/admin/users.ts';
import { createInvitation } from '#shared/auth/invitations.ts';
import { hashPassword } from '#shared/auth/passwords.ts';
import type { UserPrincipal } from '#shared/auth/principal.ts';
import { beginSession } from '#shared/auth/session-start.ts';
import { signup } from '#shared/auth/signup.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import type { Deps } from '#shared/deps.ts';
import { isAppError } from '#shared/errors.ts';
import { ADMIN_AUTHORITY, effectiveRoles } from '#shared/roles/authority.ts';
import { roleRepo } from '#shared/store/role-repo.ts';
import { userAdminRepo } from '#shared/store/user-admin-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { subdomainFromName } from '#shared/tenancy/create-tenant.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { createUser, newUser } from '#shared/users/new-user.ts';
import type { User } from '#shared/users/types.ts';
import { fraction, type Person, personAt } from './seed-people.ts';

/**
 * `npm run users -- seed`: users that make a tenant look lived in, each made the way the service makes one (sign-up,
 * an invitation and its acceptance, TOTP enrolment, logins, an admin's role grants and disabling), at times spread
 * over the past year, through the domain functions, as the tenant's first admin where an admin acts.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The shop's own roles the seed grants, made in the tenant when it has none of that name. */
const SHOP_ROLES = [
  { name: 'SUPPORT', priority: 10, description: 'Answers customers: looks up their accounts' },
  { name: 'CATALOG_EDITOR', priority: 20, description: 'Edits the plant catalogue' },
  { name: 'WHOLESALE', priority: 60, description: 'Trade prices, granted for a season' },
] as const;

type RoleName = 'ADMIN' | 'USER' | (typeof SHOP_ROLES)[number]['name'];

interface Profile {
  status: 'ACTIVE' | 'INVITED' | 'DISABLED';
  roles?: RoleName[];
  totp?: true;
  /** An address at the shop's own domain. */
  staff?: true;
  /** Came by an admin's invitation, accepted; else signed up. */
  invited?: true;
  /** Accepted the invitation and has not signed in since. */
  neverSignedIn?: true;
  /** An invitation past its 7 days, never accepted (still INVITED; its address shows unvalidated). */
  lapsed?: true;
  /** Invited without a name. */
  nameless?: true;
}

/**
 * The mix, repeated every 20 users: 15 active (3 with TOTP), 3 invited, 2 disabled; every 20 users also hold
 * USER (10), ADMIN, SUPPORT, CATALOG_EDITOR (1 each) and WHOLESALE (2, granted until a date); the others DEFAULT
 * alone, as every user does. Its first few already show each kind, so that a small seed is a mix too.
 */
const PROFILES: readonly Profile[] = [
  { status: 'ACTIVE', roles: ['USER'] },
  { status: 'ACTIVE', roles: ['USER'], totp: true },
  { status: 'INVITED' },
  { status: 'ACTIVE', roles: ['USER'] },
  { status: 'DISABLED', roles: ['USER'] },
  { status: 'ACTIVE', roles: ['ADMIN'], totp: true, staff: true, invited: true },
  { status: 'ACTIVE' },
  { status: 'ACTIVE', roles: ['USER', 'WHOLESALE'] },
  { status: 'INVITED', nameless: true },
  { status: 'ACTIVE', roles: ['USER'] },
  { status: 'ACTIVE', roles: ['SUPPORT'], staff: true, invited: true },
  { status: 'ACTIVE', roles: ['USER'], totp: true },
  { status: 'ACTIVE', invited: true, neverSignedIn: true },
  { status: 'DISABLED' },
  { status: 'ACTIVE', roles: ['USER'] },
  { status: 'INVITED', lapsed: true },
  { status: 'ACTIVE', roles: ['CATALOG_EDITOR'], staff: true, invited: true },
  { status: 'ACTIVE', roles: ['USER'] },
  { status: 'ACTIVE', roles: ['USER', 'WHOLESALE'] },
  { status: 'ACTIVE' },
];

export interface SeedSummary {
  seeded: number;
  active: number;
  /** Of the active ones. */
  totp: number;
  invited: number;
  disabled: number;
  /** Grants made, by role name (DEFAULT, which every user holds, not counted). */
  roles: Record<string, number>;
  /** An active user without TOTP, holding USER: one to sign in as with the run's password. */
  signInAs: string | null;
}

/** The same deps with the clock stopped at `at`: what the service would have done then. */
const depsAt = (deps: Deps, at: number): Deps => ({ ...deps, clock: { now: () => new Date(at) } });

/** The tenant's first admin, acting: a principal that signed in just now, at each instant it acts. */
async function firstAdmin(deps: Deps, tenant: Merchant) {
  const admin = tenant.adminUserId ? await userRepo(deps.store).get(tenant, tenant.adminUserId) : null;
  if (!admin) throw new Error(`the tenant "${tenant.subdomain}" has no first admin to act as`);
  const { names, authority } = effectiveRoles(admin, deps.clock.now());
  if (authority > ADMIN_AUTHORITY) throw new Error(`${admin.email} is no longer an admin of "${tenant.subdomain}"`);
  return {
    id: admin.id,
    client: personAt(0, { domain: staffDomain(tenant) }).client,
    at: (at: number): UserPrincipal => ({
      kind: 'user',
      userId: admin.id,
      sessionId: 'ses_seed',
      roles: names,
      authority,
      authenticatedAt: new Date(at).toISOString(),
    }),
  };
}

/** A user acting on their own account, signed in at `at`. */
const selfAt = (userId: string, at: number): UserPrincipal => ({
  kind: 'user',
  userId,
  sessionId: 'ses_seed',
  roles: [],
  authority: Number.MAX_SAFE_INTEGER,
  authenticatedAt: new Date(at).toISOString(),
});

const staffDomain = (tenant: Merchant) => `${subdomainFromName(tenant.name)}.example`;

/** The ids of the roles the mix grants, the shop's made (by the first admin) where the tenant lacks them. */
async function rolesOf(deps: Deps, tenant: Merchant, admin: UserPrincipal): Promise<Record<RoleName, string>> {
  const ids: Partial<Record<RoleName, string>> = {};
  for (const name of ['ADMIN', 'USER'] as const) {
    const id = await roleRepo(deps.store).idByName(tenant, name);
    if (!id) throw new Error(`the tenant "${tenant.subdomain}" has no ${name} role`);
    ids[name] = id;
  }
  for (const role of SHOP_ROLES) {
    ids[role.name] =
      (await roleRepo(deps.store).idByName(tenant, role.name)) ??
      (await createRole(deps, tenant, admin, { ...role, custom: true })).id;
  }
  return ids as Record<RoleName, string>;
}

/** The instants of one user's story, drawn from its index: registered within the past year, mostly lately. */
function storyOf(index: number, profile: Profile, now: number) {
  const registeredAt = now - 2 * DAY - 363 * DAY * fraction(index, 10) ** 1.5;
  const span = now - registeredAt;
  // Most users were here lately; some not for months.
  const lastLoginAt = Math.min(
    now - MINUTE,
    Math.max(registeredAt + 5 * MINUTE, now - span * fraction(index, 11) ** 3),
  );
  const invitedAt = profile.lapsed
    ? now - 8 * DAY - 20 * DAY * fraction(index, 12)
    : profile.status === 'INVITED'
      ? now - HOUR - 6 * DAY * fraction(index, 12)
      : registeredAt - HOUR - 2 * DAY * fraction(index, 12);
  return {
    invitedAt,
    registeredAt,
    lastLoginAt,
    grantedAt: Math.min(registeredAt + 10 * MINUTE + DAY * fraction(index, 13), lastLoginAt),
    // The season's trade grant: given within the past two months, for half a year.
    seasonAt: Math.max(registeredAt + HOUR, now - 60 * DAY * fraction(index, 14)),
    totpAt: registeredAt + (lastLoginAt - registeredAt) * (0.1 + 0.5 * fraction(index, 15)),
    disabledAt: lastLoginAt + (now - lastLoginAt) * (0.2 + 0.7 * fraction(index, 16)),
  };
}

/** An address already taken in the tenant: the person tries another. */
const TAKEN = Symbol('taken');

async function orTaken<T>(make: () => Promise<T>): Promise<T | typeof TAKEN> {
  try {
    return await make();
  } catch (error) {
    if (isAppError(error) && error.code === 'ALREADY_EXISTS') return TAKEN;
    throw error;
  }
}

interface Seeding {
  deps: Deps;
  tenant: Merchant;
  admin: Awaited<ReturnType<typeof firstAdmin>>;
  roleIds: Record<RoleName, string>;
  password: string;
  now: number;
}

/** The index-th person as one profile of the mix; answers the user's address. */
async function seedOne(s: Seeding, profile: Profile, index: number): Promise<string> {
  const story = storyOf(index, profile, s.now);
  const domain = profile.staff ? staffDomain(s.tenant) : undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const person = personAt(index, { ...(domain ? { domain } : {}), attempt });
    if (profile.status === 'INVITED') {
      if ((await invite(s, profile, person, story.invitedAt)) === TAKEN) continue;
      return person.email;
    }
    const userId = await join(s, profile, person, story);
    if (userId === TAKEN) continue;
    await live(s, profile, person, userId, story);
    return person.email;
  }
  throw new Error(`no free address for person ${index}`);
}

/** A pending invitation, as an admin's POST /users/invitations makes it (the mail itself is not sent). */
function invite(s: Seeding, profile: Profile, person: Person, at: number) {
  return orTaken(() =>
    createInvitation(depsAt(s.deps, at), s.tenant, {
      email: person.email,
      firstName: profile.nameless ? null : person.firstName,
      lastName: profile.nameless ? null : person.lastName,
      invitedBy: s.admin.id,
    }),
  );
}

/** An account: signed up (the address proven, the session of the sign-up), or invited and accepted. */
async function join(s: Seeding, profile: Profile, person: Person, story: ReturnType<typeof storyOf>) {
  if (profile.invited) {
    const invitation = await orTaken(() =>
      createInvitation(depsAt(s.deps, story.invitedAt), s.tenant, {
        email: person.email,
        firstName: person.firstName,
        lastName: person.lastName,
        invitedBy: s.admin.id,
      }),
    );
    if (invitation === TAKEN) return TAKEN;
    await signup(
      depsAt(s.deps, story.registeredAt),
      s.tenant,
      {
        app: s.tenant.app,
        mid: s.tenant.mid,
        email: person.email,
        password: s.password,
        firstName: person.firstName,
        lastName: person.lastName,
        invitationToken: invitation.invitationToken,
      },
      person.client,
    );
    return invitation.userId;
  }
  const at = depsAt(s.deps, story.registeredAt);
  const user = await newUser(at, s.tenant, {
    email: person.email,
    status: 'ACTIVE',
    emailStatus: 'VALIDATED',
    firstName: person.firstName,
    lastName: person.lastName,
    passwordHash: await hashPassword(at.config.argon2, s.password),
  });
  const signedUp = activityItem(at, s.tenant, user.id, 'SIGNUP', { ...person.client, actorId: user.id });
  if ((await createUser(at, s.tenant, user, [signedUp])) === 'EMAIL_TAKEN') return TAKEN;
  // Verifying the sign-up's code signs the new user in.
  if (story.lastLoginAt - story.registeredAt > HOUR) await logIn(s, user.id, person, story.registeredAt, ['otp']);
  return user.id;
}

/** What happened to an account since: roles granted, TOTP set up, the last sign-in, and being disabled. */
async function live(s: Seeding, profile: Profile, person: Person, userId: string, story: ReturnType<typeof storyOf>) {
  for (const role of profile.roles ?? []) {
    const season = role === 'WHOLESALE';
    const at = season ? story.seasonAt : story.grantedAt;
    await assignRole(
      depsAt(s.deps, at),
      s.tenant,
      s.admin.at(at),
      { userId, roleId: s.roleIds[role], ...(season ? { expiresAt: new Date(at + 180 * DAY).toISOString() } : {}) },
      s.admin.client,
    );
  }
  if (profile.totp && s.tenant.totpAllowed !== false) {
    const at = depsAt(s.deps, story.totpAt);
    const { qrUri } = await initTotp(at, s.tenant, selfAt(userId, story.totpAt));
    const secret = new URL(qrUri).searchParams.get('secret') ?? '';
    const code = totpCodeAt(secret, new Date(story.totpAt));
    await verifyTotp(at, s.tenant, selfAt(userId, story.totpAt), code, person.client);
  }
  if (!profile.neverSignedIn) {
    await logIn(s, userId, person, story.lastLoginAt, profile.totp ? ['pwd', 'otp', 'mfa'] : ['pwd']);
  }
  if (profile.status === 'DISABLED') {
    await setUserStatus(
      depsAt(s.deps, story.disabledAt),
      s.tenant,
      s.admin.at(story.disabledAt),
      userId,
      'DISABLED',
      s.admin.client,
    );
  }
}

/** A sign-in at `at`, recorded as the service records one: its session, device, lastLoginAt and LOGIN activity. */
async function logIn(s: Seeding, userId: string, person: Person, at: number, amr: string[]) {
  const user: User | null = await userRepo(s.deps.store).get(s.tenant, userId);
  if (!user) throw new Error(`user ${userId} vanished while being seeded`);
  // The tokens of a seeded sign-in would reach no one: none are signed.
  await beginSession(depsAt(s.deps, at), s.tenant, user, person.client, { amr }, null, async () => null);
}

/**
 * Seeds `count` users in the tenant, their passwords all `password`. The people continue after the tenant's users
 * (a second run makes others), and a person whose address is taken takes another: a run never fails on one.
 */
export async function seedUsers(
  deps: Deps,
  tenant: Merchant,
  options: { count: number; password: string; now?: number },
): Promise<SeedSummary> {
  const now = options.now ?? deps.clock.now().getTime();
  const admin = await firstAdmin(deps, tenant);
  const seeding: Seeding = {
    deps,
    tenant,
    admin,
    roleIds: await rolesOf(depsAt(deps, now - 400 * DAY), tenant, admin.at(now - 400 * DAY)),
    password: options.password,
    now,
  };
  const first = (await userAdminRepo(deps.store).listAll(tenant)).length;
  const profiles = Array.from({ length: options.count }, (_, i) => PROFILES[i % PROFILES.length] as Profile);
  const emails: string[] = new Array(options.count);
  // A few at once: DynamoDB Local and argon2 each keep a core busy.
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < options.count; i = next++) {
      emails[i] = await seedOne(seeding, profiles[i] as Profile, first + i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, options.count) }, worker));

  const summary: SeedSummary = {
    seeded: options.count,
    active: 0,
    totp: 0,
    invited: 0,
    disabled: 0,
    roles: {},
    signInAs: null,
  };
  profiles.forEach((profile, i) => {
    const totp = Boolean(profile.totp) && tenant.totpAllowed !== false;
    if (profile.status === 'ACTIVE') summary.active++;
    if (profile.status === 'INVITED') summary.invited++;
    if (profile.status === 'DISABLED') summary.disabled++;
    if (totp) summary.totp++;
    for (const role of profile.roles ?? []) summary.roles[role] = (summary.roles[role] ?? 0) + 1;
    const plainUser = profile.status === 'ACTIVE' && !totp && profile.roles?.includes('USER');
    if (plainUser && summary.signInAs === null) summary.signInAs = emails[i] ?? null;
  });
  return summary;
}
