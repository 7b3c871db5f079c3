import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Command, runCommand } from '#local/command-line.ts';
import { REPO_ROOT } from '#local/stack.ts';

export const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a repository script with tsx, as `npm run …` would, and collects its output. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((done, reject) => {
    const child = spawn(TSX, [script, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

/**
 * Runs an operator CLI's command in this process, with the environment a spawned one would get, and collects its
 * output: what runScript checks, without starting node and tsx again (a second and more of CPU each). Each CLI keeps a
 * test that spawns it (runScript), for its `npm run` entry.
 */
export async function runInProcess(command: Command, args: string[], env: Record<string, string>): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(command, {
    args,
    env: { ...process.env, ...env },
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

/** Starts a long-running script and resolves once its output contains `ready`. */
export function startScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: string,
  timeoutMs = 30_000,
): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(TSX, [script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
  });
  let output = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((done, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes(ready)) {
        clearTimeout(timer);
        done({ child, output: () => output, exited });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!output.includes(ready)) reject(new Error(`exited with ${code} before ready:\n${output}`));
    });
  });
}
