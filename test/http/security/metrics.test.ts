import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeRequestLinesTo } from '#shared/http/request-metrics.ts';
import { keys } from '#shared/store/keys.ts';
import { adminApi } from '#test/support/admin.ts';
import { aTenantWith, aUser, rotationPastGrace, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type EmfLine, expectValidEmf } from '#test/support/emf.ts';
import { fakeSes } from '#test/support/faults.ts';
import { expectProblem } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { DOCUMENTED_BOUNCE, deliverSesEvents, snsEventOf, withRecipient, withTags } from '#test/support/ses-events.ts';
import { plantsApi } from '../plants/helpers.ts';

/**
 * The operator's signals: each request's one log line, its summary and what the functions send CloudWatch in
 * Embedded Metric Format, for a sign-in, a lockout, a refresh token reused, a mail SES refused (MailsFailed by
 * kind) and a mail to a suppressed address (MailsSuppressed). Each metric has the dimensions the alarms read
 * (infra/monitoring.ts); no dimension and no metric carries an e-mail address, token, password or tenant, and the
 * line carries no e-mail address, token or password. The gateway runs the handlers in this process: their lines come
 * to the writer set here.
 */

// The test run keeps the lines quiet elsewhere (vitest.config.ts); this file's handlers build their deps after this.
process.env.LOG_LEVEL = 'info';

const api = useLocalStack();
const { call, logIn } = adminApi(() => api.url);
const deps = makeTestDeps();
const plants = plantsApi(api);
// SES in this process, faked: a mail it refuses is how a failed send is made (test/support/faults.ts).
const ses = fakeSes();

let lines: string[] = [];
let restoreLines: () => void;

beforeAll(() => {
  restoreLines = writeRequestLinesTo((line) => lines.push(line));
});

afterAll(() => restoreLines());

beforeEach(() => {
  lines = [];
});

/** Every line so far, each a valid EMF document. */
const parsed = (): EmfLine[] => lines.map(expectValidEmf);

/** The lines of `route` (of every route when undefined) whose directives put a metric in `dimensions`. */
function lineOf(route: string | undefined, dimensions: string[]): EmfLine[] {
  return parsed().filter(
    (line) =>
      line._aws.CloudWatchMetrics.some((d) => d.Dimensions.some((set) => set.join() === dimensions.join())) &&
      (route === undefined || line.route === route),
  );
}

/** The metrics of `line` that its directives put in exactly `dimensions`: name → unit, namespace. */
function metricsIn(
  line: EmfLine | undefined,
  dimensions: string[],
): { name: string; unit: string; namespace: string }[] {
  return (line?._aws.CloudWatchMetrics ?? []).flatMap((d) =>
    d.Dimensions.some((set) => set.join() === dimensions.join())
      ? d.Metrics.map((m) => ({ name: m.Name, unit: m.Unit ?? 'None', namespace: d.Namespace }))
      : [],
  );
}

/** What the counters of the requests so far add up to (dimension `service` alone). */
function counters(): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const line of parsed()) {
    for (const { name } of metricsIn(line, ['service'])) totals[name] = (totals[name] ?? 0) + Number(line[name]);
  }
  return totals;
}

const summaries = () => parsed().filter((line) => line.message === 'request');

/** The metrics' part of a line: its dimensions' values and its metrics' (what CloudWatch keeps as metrics). */
function metricPart(line: EmfLine): string {
  const names = line._aws.CloudWatchMetrics.flatMap((d) => [...d.Dimensions.flat(), ...d.Metrics.map((m) => m.Name)]);
  return JSON.stringify([line._aws, ...names.map((name) => line[name])]);
}

/** No metric carries any of these; with inSummaries, no line at all. */
async function expectNoneOf(secrets: Record<string, string>, options: { inSummaries: boolean }) {
  const metrics = parsed().map(metricPart).join('\n');
  const text = lines.join('\n');
  for (const [name, value] of Object.entries(secrets)) {
    expect(metrics.includes(value), `${name} in a metric`).toBe(false);
    if (options.inSummaries) expect(text.includes(value), `${name} in a line`).toBe(false);
  }
}

/** The tenant as a metric must never name it: its name, ids, subdomain and keys. */
async function tenantStrings(tenant: TestTenant): Promise<Record<string, string>> {
  const { Item } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: keys.merchant(tenant) }),
  );
  return {
    'tenant name': String(Item?.name),
    'tenant id': tenant.id,
    app: tenant.app,
    mid: tenant.mid,
    subdomain: tenant.subdomain,
    'public API key': tenant.publicApiKey,
  };
}

/** The request's one line: Requests and Latency by service and route, Requests by outcome too, in `namespace`. */
function expectRequestLines(route: string, outcome: string, namespace = 'IdentityService') {
  const [line, ...more] = summaries().filter((l) => l.route === route);
  expect(more).toEqual([]);
  expect(metricsIn(line, ['service', 'route'])).toEqual([
    { name: 'Requests', unit: 'None', namespace },
    { name: 'Latency', unit: 'Milliseconds', namespace },
  ]);
  expect(metricsIn(line, ['service', 'route', 'outcome'])).toEqual([{ name: 'Requests', unit: 'None', namespace }]);
  expect(line).toMatchObject({ service: 'local', route, outcome, Requests: 1 });
  expect(line?.Latency).toBeGreaterThan(0);
  // One field for the latency: the metric's.
  expect(line?.latencyMs).toBeUndefined();
  expect(line?.time).toBeUndefined();
}

describe('the metrics and the summary line of a request', () => {
  let tenant: TestTenant;
  let user: TestUser;
  beforeAll(async () => {
    tenant = await aTenantWith();
    user = await aUser(tenant);
  });

  it('a sign-in: Requests and Latency of route login, outcome success, one session started; no e-mail, token or tenant in a metric', async () => {
    const answer = await call('POST', '/auth/login', tenant.headers, { email: user.email, password: user.password });
    expect(answer.status).toBe(200);
    const { accessToken, refreshToken } = answer.body.data as { accessToken: string; refreshToken: string };

    expectRequestLines('login', 'success');
    expect(counters()).toEqual({ SessionsStarted: 1 });
    await expectNoneOf(
      { email: user.email, password: user.password, accessToken, refreshToken, 'user id': user.id },
      { inSummaries: false },
    );
    await expectNoneOf(await tenantStrings(tenant), { inSummaries: false });
    await expectNoneOf(
      { email: user.email, password: user.password, accessToken, refreshToken },
      { inSummaries: true },
    );

    // The log line says who and which tenant, for the operator's query (README, Operations).
    expect(summaries()).toEqual([
      expect.objectContaining({
        route: 'login',
        status: 200,
        outcome: 'success',
        app: tenant.app,
        mid: tenant.mid,
        userId: user.id,
        requestId: expect.any(String),
        Latency: expect.any(Number),
      }),
    ]);
  });

  it('a lockout: five refused passwords count FailedLogins, the fifth a Lockout, and the next is RateLimited', async () => {
    const locked = await aUser(tenant);
    for (let i = 0; i < 5; i++) {
      expectProblem(
        await call('POST', '/auth/login', tenant.headers, { email: locked.email, password: 'Wrong-pass-1' }),
        401,
        'INVALID_CREDENTIALS',
      );
    }
    expect(counters()).toEqual({ FailedLogins: 5, Lockouts: 1 });
    expect(lineOf('login', ['service', 'route', 'outcome']).map((line) => line.outcome)).toEqual(
      Array(5).fill('unauthenticated'),
    );

    lines = [];
    expectProblem(
      await call('POST', '/auth/login', tenant.headers, { email: locked.email, password: locked.password }),
      429,
      'TOO_MANY_ATTEMPTS',
    );
    expectRequestLines('login', 'rate_limited');
    expect(counters()).toEqual({ RateLimited: 1 });
    expect(summaries()).toEqual([
      expect.objectContaining({ route: 'login', status: 429, outcome: 'rate_limited', code: 'TOO_MANY_ATTEMPTS' }),
    ]);
    await expectNoneOf({ email: locked.email, password: locked.password }, { inSummaries: true });
    await expectNoneOf(await tenantStrings(tenant), { inSummaries: false });
  });

  it('a refresh token reused after its rotation: RefreshReuse, outcome unauthenticated; no token in any line', async () => {
    const first = await logIn(tenant, user.email, user.password);
    const rotated = await call('POST', '/auth/refresh', tenant.headers, { refreshToken: first.refreshToken });
    expect(rotated.status).toBe(200);
    const successor = (rotated.body.data as { refreshToken: string }).refreshToken;
    const sid = JSON.parse(Buffer.from(first.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')).sid;
    await rotationPastGrace(tenant, user.id, sid);

    lines = [];
    expectProblem(
      await call('POST', '/auth/refresh', tenant.headers, { refreshToken: first.refreshToken }),
      401,
      'REFRESH_TOKEN_REUSED',
    );
    expectRequestLines('refresh', 'unauthenticated');
    expect(counters()).toEqual({ RefreshReuse: 1 });
    expect(summaries()).toEqual([
      expect.objectContaining({
        route: 'refresh',
        outcome: 'unauthenticated',
        code: 'REFRESH_TOKEN_REUSED',
        userId: user.id,
        app: tenant.app,
      }),
    ]);
    await expectNoneOf(
      { 'reused token': first.refreshToken, successor, accessToken: first.accessToken, email: user.email },
      { inSummaries: true },
    );
    await expectNoneOf(await tenantStrings(tenant), { inSummaries: false });
  });
});

describe('mail', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
  });

  /** MailsFailed (dimensions service and kind) of the lines so far: kind → count. */
  function mailsFailed(): Record<string, number> {
    const totals: Record<string, number> = {};
    for (const line of lineOf(undefined, ['service', 'kind'])) {
      expect(metricsIn(line, ['service', 'kind'])).toEqual([
        { name: 'MailsFailed', unit: 'None', namespace: 'IdentityService' },
      ]);
      expect(line.service).toBe('local');
      totals[String(line.kind)] = (totals[String(line.kind)] ?? 0) + Number(line.MailsFailed);
    }
    return totals;
  }

  it('a mail SES refuses counts MailsFailed by its kind (a reset code, a login code); the answers stay what a sent mail gives', async () => {
    const user = await aUser(tenant);
    ses.refuse(user.email);
    try {
      const reset = await call('POST', '/auth/forgot-password', tenant.headers, { email: user.email });
      expect(reset.status).toBe(202);
      const code = await call('POST', '/auth/login', tenant.headers, { email: user.email, loginMode: 'OTP_EMAIL' });
      expect(code.status).toBe(200);
    } finally {
      ses.accept(user.email);
    }
    expect(ses.attemptsTo(user.email).map((mail) => mail.delivered)).toEqual([false, false]);
    expect(mailsFailed()).toEqual({ PASSWORD_RESET_CODE: 1, LOGIN_CODE: 1 });
    // Every other line as for any request: the service-only counters saw nothing.
    expect(counters()).toEqual({});
    await expectNoneOf({ email: user.email }, { inSummaries: true });
    await expectNoneOf(await tenantStrings(tenant), { inSummaries: false });
  });

  it('a mail to an address SES reported a hard bounce for is not sent, and counts MailsSuppressed', async () => {
    const user = await aUser(tenant);
    await deliverSesEvents(
      api.stack,
      snsEventOf(
        withRecipient(
          withTags(DOCUMENTED_BOUNCE, { app: tenant.app, mid: tenant.mid, kind: 'LOGIN_CODE' }),
          user.email,
        ),
      ),
    );
    lines = [];
    const reset = await call('POST', '/auth/forgot-password', tenant.headers, { email: user.email });
    expect(reset.status).toBe(202);
    expect(ses.attemptsTo(user.email)).toEqual([]);
    expect(counters()).toEqual({ MailsSuppressed: 1 });
    expect(mailsFailed()).toEqual({});
    await expectNoneOf({ email: user.email }, { inSummaries: true });
  });
});

describe('the plant store', () => {
  it('counts its requests in its own namespace, PlantStore, so that its traffic never moves the identity alarms', async () => {
    const { tenant, token } = await plants.aSignedInUser();
    lines = [];
    const created = await plants.createPlant({ id: 4242, name: 'Monstera' }, token);
    expect(created.status, created.text).toBe(200);
    expectRequestLines('createPlant', 'success', 'PlantStore');
    // (Its first request may fetch the identity's JWKS: that one is the identity's.)
    const inIdentity = parsed().filter((line) =>
      line._aws.CloudWatchMetrics.some((d) => d.Namespace === 'IdentityService'),
    );
    expect(inIdentity.filter((line) => line.route === 'createPlant')).toEqual([]);
    expect(summaries().filter((line) => line.route === 'createPlant')).toEqual([
      expect.objectContaining({ status: 200, outcome: 'success', app: tenant.app }),
    ]);
    await expectNoneOf({ token }, { inSummaries: true });
    await expectNoneOf(await tenantStrings(tenant), { inSummaries: false });
  });
});
