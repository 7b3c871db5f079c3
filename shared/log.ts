/**
 * Structured JSON logs, one line per event, for CloudWatch and the local
 * console alike. Callers pass fields explicitly; nothing here dumps requests,
 * so tokens, passwords, codes and keys are never logged by accident.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function write(level: 'info' | 'error', message: string, fields: LogFields = {}) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const jsonLogger: Logger = {
  info: (message, fields) => write('info', message, fields),
  error: (message, fields) => write('error', message, fields),
};

/**
 * The logger of a LOG_LEVEL: `info` (every line: the default) or `error` (failures only: the tests, whose
 * thousands of requests would each print their summary line).
 */
export function loggerAt(level: 'info' | 'error'): Logger {
  return level === 'error' ? { info: () => {}, error: jsonLogger.error } : jsonLogger;
}

/**
 * Each request's one line (shared/http/request-metrics.ts), which is its summary and its metrics: the `service`
 * dimension it names, and whether it is written. An info line: LOG_LEVEL=error turns it off (the tests, whose
 * thousands of requests would each print one).
 */
export interface RequestLog {
  /** SERVICE_NAME: the stack's name on AWS (infra/http-api.ts), so that two deployments in one account stay apart. */
  readonly service: string;
  readonly on: boolean;
}

export function requestLogAt(level: 'info' | 'error', service: string): RequestLog {
  return { service, on: level === 'info' };
}

/** A logger that adds `fields` to every line: the handler gives the domain one with the request id. */
export function withFields(log: Logger, fields: LogFields): Logger {
  return {
    info: (message, more) => log.info(message, { ...fields, ...more }),
    error: (message, more) => log.error(message, { ...fields, ...more }),
  };
}

/** The parts of an unexpected error worth logging: its kind and where, never request data. */
export function describeError(error: unknown): LogFields {
  if (error instanceof Error) {
    return { errorName: error.name, errorMessage: error.message, stack: error.stack };
  }
  return { errorName: typeof error };
}
