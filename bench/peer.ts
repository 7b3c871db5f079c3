// The benchmark's peer: better-auth run as a plain Node HTTP server (bench/peer/server.mjs, its own package in
// bench/peer/, kept out of the root package.json), loaded side by side with our service.
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const PEER_DIR = join(import.meta.dirname, 'peer');

export interface Peer {
  /** http://127.0.0.1:port, no trailing slash. */
  url: string;
  pid: number;
  /** An Origin the peer trusts (only checked on requests that carry cookies; bearer requests carry none). */
  origin: string;
  /** POST, JSON { email, password }: 200 with the session token in the `set-auth-token` header. */
  signInPath: string;
  /** GET with `Authorization: Bearer <token>`: 200 with { session, user }; reads only (updateAge is 1 day). */
  sessionPath: string;
  /** GET with `Authorization: Bearer <token>`: as sessionPath, but every call extends the session (a write). */
  refreshPath: string;
  /** Adds `count` users that sign in with `password`; answers their e-mails. */
  seed(count: number, password: string): Promise<string[]>;
  measureStart(): Promise<void>;
  /** Since measureStart: wall time and the peer process's CPU (user + system, thread pool included). */
  measureStop(): Promise<{ wallMs: number; serverCpuMs: number }>;
  stop(): void;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

/** The better-auth version installed in bench/peer/node_modules. */
export function peerVersion(): string {
  return readJson(join(PEER_DIR, 'node_modules', 'better-auth', 'package.json')).version;
}

/** Installs bench/peer's packages (from its lock file) when they are missing or not the pinned versions. */
function ensureInstalled(): void {
  const pinned: Record<string, string> = readJson(join(PEER_DIR, 'package.json')).dependencies;
  const installed = (name: string) => {
    const path = join(PEER_DIR, 'node_modules', name, 'package.json');
    return existsSync(path) ? readJson(path).version : undefined;
  };
  if (Object.entries(pinned).every(([name, version]) => installed(name) === version)) return;
  execFileSync('npm', ['ci', '--prefix', PEER_DIR, '--no-audit', '--no-fund'], { stdio: 'inherit' });
}

export async function startPeer(): Promise<Peer> {
  ensureInstalled();
  // execArgv [] : the bench runs under tsx, the peer is plain JS and needs no loader.
  const child: ChildProcess = fork(join(PEER_DIR, 'server.mjs'), [], {
    cwd: PEER_DIR,
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  const nextMessage = <T>(type: string, id?: number) =>
    new Promise<T>((done, fail) => {
      const listener = (message: { type: string; id?: number }) => {
        if (message.type !== type || (id !== undefined && message.id !== id)) return;
        child.off('message', listener);
        child.off('exit', exited);
        done(message as T);
      };
      const exited = (code: number | null, signal: string | null) => {
        child.off('message', listener);
        fail(new Error(`the peer exited (${signal ?? code}) while the bench waited for '${type}'`));
      };
      child.on('message', listener);
      child.once('exit', exited);
    });

  const { url, origin } = await nextMessage<{ url: string; origin: string }>('ready');
  let seeds = 0;
  return {
    url,
    pid: child.pid as number,
    origin,
    signInPath: '/api/auth/sign-in/email',
    sessionPath: '/api/auth/get-session',
    refreshPath: '/api/auth-refresh/get-session',
    async seed(count, password) {
      const id = ++seeds;
      const reply = nextMessage<{ emails?: string[]; error?: string }>('seeded', id);
      child.send({ type: 'seed', count, password, id });
      const { emails, error } = await reply;
      if (error !== undefined || emails === undefined) throw new Error(`the peer could not seed users: ${error}`);
      return emails;
    },
    async measureStart() {
      const started = nextMessage('measure-started');
      child.send({ type: 'measure-start' });
      await started;
    },
    async measureStop() {
      const reply = nextMessage<{ cpu: { wallMs: number; serverCpuMs: number } }>('measured');
      child.send({ type: 'measure-stop' });
      return (await reply).cpu;
    },
    stop() {
      if (child.connected) child.send({ type: 'stop' });
      else child.kill();
    },
  };
}
