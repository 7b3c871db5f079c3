import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { keys } from '#shared/store/keys.ts';
import { adminApi } from '#test/support/admin.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, expectProblem } from '#test/support/http.ts';
import {
  allRoutes,
  bodyAndQueryIdFields,
  CALLER_NAMES,
  headersOf,
  ID_FIELDS_BY_HAND,
  type Recipe,
  recipes,
  send,
  takesIds,
  type Variant,
} from '#test/support/isolation-recipes.ts';
import {
  A,
  B,
  baseline,
  challengeBody,
  EMAIL,
  expectBUntouched,
  expectStatus,
  kindOf,
  NEW_PASSWORD,
  useIsolationWorlds,
  type World,
} from '#test/support/isolation-world.ts';
import { useLocalStack } from '#test/support/server.ts';
import { itemKey, tenantItems } from '#test/support/tenant-snapshot.ts';

/**
 * Tenant isolation. Two tenants, A and B, hold the same
 * users under the same e-mail addresses (owner, member, TOTP user, invited
 * user, pending signup, password reset, lockout victim), the same role names,
 * grants, sessions, devices, activity, API keys, plants and pending challenges
 * of every kind. For every route of both route lists that takes an id (a path
 * parameter, or an id field that the scan of its request schemas finds), A's
 * strongest caller sends B's ids and look-alikes of A's and B's ids, and gets
 * the contract's refusal (404 NOT_FOUND; the documented code where the
 * contract names another); A's own id of the same shape is admitted; and
 * every stored item of B, in the identity table and in the plant store's, is
 * byte-for-byte what it was, while none of A's keys names an id of B.
 * Logins, resets and signups with the shared addresses through A touch A only.
 * At the end, B's ids are shown to have been live all along (they still work in B).
 *
 * The two tenants are made in test/support/isolation-world.ts; the requests
 * of each route (its recipe) are in test/support/isolation-recipes.ts.
 */

// Sign-in providers of kind GITHUB are saved without reaching GitHub (its endpoints are fixed): this one is never called.
const api = useLocalStack({ signInProviderEndpoints: () => ({ GITHUB: 'http://127.0.0.1:9' }) });
useIsolationWorlds(api);
const { call } = adminApi(() => api.url);
const deps = makeTestDeps();

describe('the routes that take an id', () => {
  it('each have a recipe here (path parameters, and id fields found in the request schemas or listed by hand)', () => {
    const missing = allRoutes
      .filter(takesIds)
      .map((route) => route.operationId)
      .filter((id) => !(id in recipes));
    expect(missing, 'routes that take an id without a recipe in test/support/isolation-recipes.ts').toEqual([]);
    const stale = Object.keys(recipes).filter((id) => !allRoutes.some((route) => route.operationId === id));
    expect(stale, 'recipes for routes no longer listed').toEqual([]);
  });

  it('the scan of the request schemas finds exactly the id fields listed by hand', () => {
    const scanned = Object.fromEntries(
      allRoutes
        .map((route) => [route.operationId, bodyAndQueryIdFields(route)] as const)
        .filter(([, fields]) => fields.length > 0),
    );
    expect(scanned).toEqual(ID_FIELDS_BY_HAND);
  });

  it('both tenants hold the same users, e-mail for e-mail, and B holds every kind of item the attacks aim at', async () => {
    const emails = async (world: World) => {
      const res = await call('GET', '/users', world.owner.headers);
      return (res.body as { email: string }[]).map((user) => user.email).sort();
    };
    const [ofA, ofB] = await Promise.all([emails(A), emails(B)]);
    expect(ofA).toEqual(ofB);
    expect(ofA).toEqual(expect.arrayContaining([EMAIL.owner, EMAIL.member, EMAIL.totp, EMAIL.invited, EMAIL.pending]));
    expect(A.roles.gardener.name).toBe(B.roles.gardener.name);

    const kinds = new Set(baseline.identity.map(kindOf));
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining([
        'MERCHANT',
        'SUBDOMAIN',
        'ORIGIN',
        'ROLE',
        'ROLE_NAME',
        'USER',
        'USER_EMAIL',
        'SESSION',
        'DEVICE',
        'ACTIVITY:LOGIN',
        'ACTIVITY:LOGIN_FAILED',
        'ACTIVITY:ROLE_ASSIGNED',
        'CHALLENGE:SIGNUP',
        'CHALLENGE:EMAIL_CHANGE',
        'CHALLENGE:PASSWORD_RESET',
        'CHALLENGE:LOGIN_OTP',
        'CHALLENGE:LOGIN_TOTP',
        'CHALLENGE:REAUTH',
        'INVITATION',
        'LOCK',
        'RATE',
        'SIGNUP_RATE',
        'API_KEY',
        'OIDC_CLIENT:confidential',
        'MAIL_SUPPRESSION',
        'PASSKEY',
        'PASSKEY_ID',
        'ACTIVITY:PASSKEY_ADDED',
        'SIGNIN_PROVIDER',
        'IDENTITY',
        'IDENTITY_OF',
        'PROVIDER_RESULT',
        'WEBHOOK_ENDPOINT',
        'WEBHOOK_EVENT:user.created',
        'WEBHOOK_ATTEMPT',
      ]),
    );
    expect(
      kinds.has('UNKNOWN'),
      baseline.identity
        .filter((i) => kindOf(i) === 'UNKNOWN')
        .map(itemKey)
        .join(),
    ).toBe(false);
    expect(baseline.identity.some((item) => item.entity === 'USER' && item.totpEnabled === true)).toBe(true);
    expect(baseline.plants.map((item) => item.id)).toEqual([B.plant.id]);
  });
});

// ---------------------------------------------------------------- the attacks, route by route

for (const route of allRoutes.filter((r) => r.operationId in recipes)) {
  const recipe = recipes[route.operationId] as Recipe;
  describe(`${route.method} ${route.path} (${route.operationId})`, () => {
    for (const caller of recipe.callers) {
      it(`answers ${recipe.refusal.says} to ${CALLER_NAMES[caller]} for B's ids and look-alikes; B's items stay byte-for-byte the same`, async () => {
        const headers = headersOf(caller, A);
        const variants = await recipe.foreign();
        expect(variants.length).toBeGreaterThan(0);
        const outcome = async (variant: Variant) => {
          const res = await send(route, variant, headers);
          const expected = variant.expect ?? recipe.refusal;
          try {
            await expected.check(res);
            return null;
          } catch (error) {
            return `${variant.name}: wanted ${expected.says}, got ${res.status} ${JSON.stringify(res.body)} (${
              (error as Error).message.split('\n')[0]
            })`;
          }
        };
        const wrong: (string | null)[] = [];
        if (recipe.sequential) for (const variant of variants) wrong.push(await outcome(variant));
        else wrong.push(...(await Promise.all(variants.map(outcome))));
        expect(wrong.filter((w) => w !== null)).toEqual([]);
        await expectBUntouched(`${route.operationId} as ${caller}`);
      });

      it(`admits ${CALLER_NAMES[caller]} with A's own id of the same shape (${recipe.admitted})`, async () => {
        const res = await send(route, await recipe.own(), headersOf(caller, A));
        expectStatus(res, recipe.admitted, `${route.operationId} with A's id`);
      });
    }
  });
}

// ---------------------------------------------------------------- credentials and e-mails shared by both tenants

describe("X-Api-Key with B's key, or a key made of A's and B's halves, on A's admin routes", () => {
  it("answers 401 UNAUTHENTICATED and B's key is untouched (its lastUsedAt too)", async () => {
    const [, , bKeyId, ...bRest] = B.apiKey.key.split('_');
    const [, , aKeyId, ...aRest] = A.apiKey.key.split('_');
    const variants = [
      B.apiKey.key,
      `sk_key_${bKeyId}_${aRest.join('_')}`,
      `sk_key_${aKeyId}_${bRest.join('_')}`,
      B.spareKey.key,
    ];
    const answers = await Promise.all(
      variants.map((key) => call('GET', '/users', { ...A.tenant.headers, 'x-api-key': key })),
    );
    for (const res of answers) expectProblem(res, 401, 'UNAUTHENTICATED');
    await expectBUntouched('X-Api-Key of B');
  });
});

describe('the same e-mail addresses through A', () => {
  it("count failed logins against A's victim only: A locks at its own 6th attempt (B's 2 failures are not A's), B's counter stays", async () => {
    const wrong = () =>
      call('POST', '/auth/login', A.tenant.headers, { email: EMAIL.victim, password: 'Wrong-pass-1' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const lock = (await tenantItems(deps, A.tenant)).find(
      (item) => item.pk === keys.lockout(A.tenant, EMAIL.victim).pk,
    );
    expect(lock, "A's lockout item").toBeDefined();
    await expectBUntouched("failed logins with B's victim's address through A");
  });

  it("refuse B's owner's password in A (401 INVALID_CREDENTIALS) and sign A's own owner in with A's", async () => {
    const withB = await call('POST', '/auth/login', A.tenant.headers, {
      email: EMAIL.owner,
      password: B.tenant.adminPassword,
    });
    expectProblem(withB, 401, 'INVALID_CREDENTIALS');
    const withA = await call('POST', '/auth/login', A.tenant.headers, {
      email: EMAIL.owner,
      password: A.tenant.adminPassword,
    });
    expectStatus(withA, 200, "A's owner logs in");
    expect(withA.body.data.user.id).toBe(A.owner.userId);
    await expectBUntouched("logins with B's owner's address through A");
  });

  it('open forgot-password, signup and e-mail code challenges in A only', async () => {
    const challengesOfA = async () =>
      (await tenantItems(deps, A.tenant)).filter((item) => item.entity === 'CHALLENGE').length;
    const before = await challengesOfA();
    const answers = await Promise.all([
      call('POST', '/auth/forgot-password', A.tenant.headers, { email: EMAIL.totp }),
      call('POST', '/auth/signup', A.tenant.headers, {
        app: A.tenant.app,
        mid: A.tenant.mid,
        email: EMAIL.totp,
        password: NEW_PASSWORD,
        firstName: 'Already',
        lastName: 'There',
      }),
      call('POST', '/auth/login', A.tenant.headers, { email: EMAIL.recover, loginMode: 'OTP_EMAIL' }),
    ]);
    expect(answers.map((res) => res.status)).toEqual([202, 201, 200]);
    expect(await challengesOfA()).toBe(before + 3);
    await expectBUntouched("forgot-password, signup and e-mail code login with B's addresses through A");
  });
});

// ---------------------------------------------------------------- B's ids were live all along

describe("B's ids, after every attack through A", () => {
  it('still work in B: the attacks were aimed at live tokens, challenges, keys and sessions', async () => {
    const h = B.tenant.headers;
    const totp = totpCodeAt(B.totpUser.totpSecret ?? '', new Date());
    const checks: [string, Promise<Answer>, number][] = [
      ['refresh', call('POST', '/auth/refresh', h, { refreshToken: B.member.refreshToken }), 200],
      ['API key', call('GET', '/users', { ...h, 'x-api-key': B.apiKey.key }), 200],
      ['spare API key', call('GET', '/roles', { ...h, 'x-api-key': B.spareKey.key }), 200],
      ['signup verify', call('POST', '/auth/signup/verify', h, challengeBody(B.challenges.signup)), 200],
      ['login verify (e-mail code)', call('POST', '/auth/login/verify', h, challengeBody(B.challenges.loginOtp)), 200],
      [
        'login verify (TOTP)',
        call('POST', '/auth/login/verify', h, { challengeId: B.challenges.loginTotp.id, code: totp }),
        200,
      ],
      [
        'reset password',
        call('POST', '/auth/reset-password', h, { ...challengeBody(B.challenges.reset), newPassword: NEW_PASSWORD }),
        204,
      ],
      [
        'e-mail change verify',
        call('POST', '/users/me/email-change/verify', B.member.headers, challengeBody(B.challenges.emailChange)),
        200,
      ],
      [
        'revoke the spare session',
        call('DELETE', `/users/me/sessions/${B.member.spareSessionId}`, B.member.headers),
        204,
      ],
      [
        'invitation',
        call('POST', '/auth/signup', h, {
          app: B.tenant.app,
          mid: B.tenant.mid,
          email: EMAIL.invited,
          password: NEW_PASSWORD,
          firstName: 'Invited',
          lastName: 'B',
          invitationToken: B.invitation.token,
        }),
        201,
      ],
      [
        'victim login (2 failures, not locked)',
        call('POST', '/auth/login', h, { email: EMAIL.victim, password: B.victim.password }),
        200,
      ],
      ['owner reads the member', call('GET', `/users/${B.member.userId}`, B.owner.headers), 200],
    ];
    const answers = await Promise.all(
      checks.map(async ([name, answer, status]) => ({ name, res: await answer, status })),
    );
    expect(
      answers
        .filter(({ res, status }) => res.status !== status)
        .map(({ name, res }) => `${name}: ${res.status} ${JSON.stringify(res.body)}`),
    ).toEqual([]);
  });
});
