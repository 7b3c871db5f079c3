// The benchmark's peer: better-auth (https://www.better-auth.com) as a plain Node HTTP server, forked by
// bench/peer.ts with an IPC channel. Plain JS so it runs on bare node: no tsx, no typecheck.
//
// Configured as the docs show it, with what a benchmark needs switched off (rate limit, telemetry, warnings):
// - email + password sign-in; its password hashing stays as shipped (scrypt N=16384 r=16 p=1 on node:crypto,
//   run on libuv's thread pool): we compare against the peer as people deploy it, not a tuned one.
// - the bearer() plugin, so a client holds the session token (the `set-auth-token` response header) and
//   sends `Authorization: Bearer <token>` instead of a cookie.
// - SQLite through better-sqlite3, a file in a fresh folder of os.tmpdir() in WAL mode (better-sqlite3's
//   recommended setting), its schema made at start by better-auth's own migrations.
//
// Session refresh: better-auth sessions are opaque tokens with a sliding expiry, there is no refresh token.
// get-session extends the session (a write of expiresAt = now + expiresIn, and the cookie set again) when it
// was last extended more than `session.updateAge` ago (1 day by default), so on /api/auth a session check of a
// fresh session only reads. /api/auth-refresh is a second better-auth instance on the same database and
// secret with updateAge 0 (and the cookie cache off, as by default): every get-session there extends the
// session, which makes "one session refresh" measurable per request.
//
// IPC, parent → child / child → parent:
//   child sends { type: 'ready', url, origin } once listening on 127.0.0.1 (origin: one it trusts)
//   { type: 'seed', count, password, id } → { type: 'seeded', id, emails } (or { type: 'seeded', id, error })
//   { type: 'measure-start' } → { type: 'measure-started' }
//   { type: 'measure-stop' } → { type: 'measured', cpu: { wallMs, serverCpuMs } }
//   { type: 'stop' } → exits (so does a closed channel)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import { bearer } from 'better-auth/plugins';
import Database from 'better-sqlite3';

const SECRET = 'bench-peer-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const TRUSTED_ORIGIN = 'https://shop.bench.test';
const BASE_PATH = '/api/auth';
const REFRESH_BASE_PATH = '/api/auth-refresh';

const dir = mkdtempSync(join(os.tmpdir(), 'bench-peer-'));
const db = new Database(join(dir, 'better-auth.sqlite'));
db.pragma('journal_mode = WAL');
process.once('exit', () => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const server = createServer();
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const url = `http://127.0.0.1:${server.address().port}`;

/** @param {string} basePath @param {import('better-auth').BetterAuthOptions['session']} [session] */
const options = (basePath, session) => ({
  baseURL: url,
  basePath,
  secret: SECRET,
  trustedOrigins: [TRUSTED_ORIGIN],
  database: db,
  emailAndPassword: { enabled: true },
  plugins: [bearer()],
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  // Nothing per request: a wrong password is a warning; errors still show.
  logger: { level: 'error' },
  session,
});
const auth = betterAuth(options(BASE_PATH));
const refreshing = betterAuth(options(REFRESH_BASE_PATH, { updateAge: 0, cookieCache: { enabled: false } }));

const { runMigrations } = await getMigrations(options(BASE_PATH));
await runMigrations();

const handle = toNodeHandler(auth);
const handleRefreshing = toNodeHandler(refreshing);
server.on('request', (req, res) => {
  if (req.url?.startsWith(`${REFRESH_BASE_PATH}/`)) handleRefreshing(req, res);
  else handle(req, res);
});

let next = 0;
/**
 * `count` users peer{n}@bench.test (numbered on from earlier seeds) that sign in with `password`: the first signs
 * up through the API, so its hash is better-auth's own; the rest are copies of its user and credential account
 * rows under new ids, in one transaction.
 */
async function seed(count, password) {
  if (count <= 0) return [];
  const first = next;
  next += count;
  const emails = Array.from({ length: count }, (_, i) => `peer${first + i}@bench.test`);
  const { user } = await auth.api.signUpEmail({ body: { email: emails[0], password, name: `Peer ${first}` } });
  const userRow = db.prepare('SELECT * FROM "user" WHERE id = ?').get(user.id);
  const accountRow = db
    .prepare('SELECT * FROM "account" WHERE "userId" = ? AND "providerId" = ?')
    .get(user.id, 'credential');
  const insert = (table, row) => {
    const columns = Object.keys(row);
    return db.prepare(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
  };
  const insertUser = insert('user', userRow);
  const insertAccount = insert('account', accountRow);
  const newId = () => randomBytes(24).toString('base64url');
  db.transaction(() => {
    for (let i = 1; i < count; i++) {
      const userId = newId();
      insertUser.run({ ...userRow, id: userId, email: emails[i], name: `Peer ${first + i}` });
      insertAccount.run({ ...accountRow, id: newId(), userId, accountId: userId });
    }
  })();
  return emails;
}

let measuring = { cpu: process.cpuUsage(), at: performance.now() };
process.on('message', async (message) => {
  if (message.type === 'seed') {
    try {
      process.send({ type: 'seeded', id: message.id, emails: await seed(message.count, message.password) });
    } catch (error) {
      process.send({ type: 'seeded', id: message.id, error: String(error?.stack ?? error) });
    }
  } else if (message.type === 'measure-start') {
    measuring = { cpu: process.cpuUsage(), at: performance.now() };
    process.send({ type: 'measure-started' });
  } else if (message.type === 'measure-stop') {
    const { user, system } = process.cpuUsage(measuring.cpu);
    process.send({
      type: 'measured',
      cpu: { wallMs: performance.now() - measuring.at, serverCpuMs: (user + system) / 1000 },
    });
  } else if (message.type === 'stop') {
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', url, origin: TRUSTED_ORIGIN });
