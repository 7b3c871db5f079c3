import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * What an operator CLI sees of its process: its arguments (without `node script`), its environment and its two
 * output streams. `npm run …` runs a command as the process (runAsMain); the tests run it in theirs (runCommand).
 */
export interface CommandIo {
  args: string[];
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
}

/** An operator CLI: answers its exit code, 0 done, 1 refused or failed, 2 bad command line (with the usage). */
export type Command = (io: CommandIo) => Promise<number>;

/** Ends a command early with its exit code, once it has written why. */
class CommandExit extends Error {
  readonly code: number;

  constructor(code: number) {
    super(`exit ${code}`);
    this.code = code;
  }
}

export function usageError(io: CommandIo, usage: string, message: string): never {
  io.err(`error: ${message}\n${usage}\n`);
  throw new CommandExit(2);
}

type Value = string | boolean | string[] | undefined;

/**
 * The operator CLIs' command line: strict flags (an unknown one is a usage
 * error), plus `--json` and `--help` for all; `--help` prints the usage.
 */
export function commandLine(
  io: CommandIo,
  usage: string,
  options: NonNullable<ParseArgsConfig['options']>,
): { values: Record<string, Value>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: io.args,
      allowPositionals: true,
      strict: true,
      options: {
        ...options,
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return usageError(io, usage, error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) helpAndExit(io, usage);
  return { values: parsed.values as Record<string, Value>, positionals: parsed.positionals };
}

/** `--help`: the usage on stdout, exit code 0. */
export function helpAndExit(io: CommandIo, usage: string): never {
  io.out(`${usage}\n`);
  throw new CommandExit(0);
}

/** Runs a command and answers its exit code. */
export async function runCommand(command: Command, io: CommandIo): Promise<number> {
  try {
    return await command(io);
  } catch (error) {
    if (error instanceof CommandExit) return error.code;
    throw error;
  }
}

/** The file a path names, its symbolic links followed (a checkout reached through a link names its files twice). */
const realPath = (path: string) => (existsSync(path) ? realpathSync(path) : resolve(path));

/**
 * Runs a command as this process when its module is the script node was started with (`tsx local/….ts`), and not
 * when a test imports it.
 */
export async function runAsMain(moduleUrl: string, command: Command): Promise<void> {
  if (!process.argv[1] || realPath(process.argv[1]) !== realPath(fileURLToPath(moduleUrl))) return;
  process.exitCode = await runCommand(command, {
    args: process.argv.slice(2),
    env: process.env,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
