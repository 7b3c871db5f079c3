import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Exit codes of the operator CLIs: 0 done, 1 refused or failed, 2 bad command line (with the usage). */
export function usageError(usage: string, message: string): never {
  process.stderr.write(`error: ${message}\n${usage}\n`);
  process.exit(2);
}

type Value = string | boolean | string[] | undefined;

/**
 * The operator CLIs' command line: strict flags (an unknown one is a usage
 * error), plus `--json` and `--help` for all; `--help` prints the usage.
 */
export function commandLine(
  usage: string,
  options: NonNullable<ParseArgsConfig['options']>,
): { values: Record<string, Value>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      strict: true,
      options: {
        ...options,
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (parsed.values.help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    return { values: parsed.values as Record<string, Value>, positionals: parsed.positionals };
  } catch (error) {
    return usageError(usage, error instanceof Error ? error.message : String(error));
  }
}
