import type { RequestLog } from '../log.ts';
import {
  type Counter,
  LATENCY,
  MAIL_KIND_DIMENSION,
  MAILS_FAILED,
  type MailKind,
  OUTCOME_DIMENSION,
  type Outcome,
  REQUESTS,
  ROUTE_DIMENSION,
  SERVICE_DIMENSION,
  type Signals,
} from '../metrics.ts';

/**
 * Each request's one log line, which is also its metrics: the summary's fields at the top level and an `_aws` block
 * in CloudWatch's Embedded Metric Format (EMF), so that CloudWatch Logs turns the line into metrics, with no call to
 * CloudWatch and no extra latency. One line, not a summary plus a line per dimension set: CloudWatch Logs bills every
 * byte and every event. Names and dimensions: shared/metrics.ts; the alarms and the dashboard read them
 * (infra/monitoring.ts). The shape, written here by hand (an EMF library writes one directive per line and no
 * fields of ours):
 *
 *   {"message":"request", …the summary's fields…, "Requests":1, "Latency":12.3, …counters…,
 *    "_aws":{"Timestamp":<ms>,"CloudWatchMetrics":[directive, …]}}
 *
 * Each directive names a namespace, its dimension sets and its metrics, each metric counted in each set; each
 * metric and dimension it names is a member of the line (a metric a number, a dimension a string). The directives:
 * - `Requests` by [service, route] and by [service, route, outcome] (a route's traffic, and its 5xx rate);
 * - `Latency` by [service, route] alone (a p99 is per route, over every outcome; per outcome would be more metrics);
 * - the counters by [service], only when the request counted some;
 * - `MailsFailed` by [service, kind], only when SES refused a mail.
 * `kind` is one member of the line, so a request whose refused mails were of two kinds (rare) writes one more line
 * per further kind, `message` "mails failed", with that kind's `MailsFailed` alone.
 */

/** What one request reports, at its end: the summary's fields and what it counted. */
export interface RequestReport {
  /** API Gateway's request id (the answer's `apigw-requestid`). */
  requestId: string;
  /** The route's operationId. */
  route: string;
  status: number;
  outcome: Outcome;
  /** The problem code of a refusal; absent on success. */
  code?: string | undefined;
  /** The handler's own time (ms): the `Latency` metric. */
  latencyMs: number;
  /** The tenant: in the line, never a dimension. */
  app?: string | undefined;
  mid?: string | undefined;
  userId?: string | undefined;
  apiKeyId?: string | undefined;
  ip?: string | undefined;
  counters: readonly Counter[];
  /** The kind of each mail SES refused during the request. */
  mailsFailed?: readonly MailKind[];
  /** When the request ended (ms since the epoch): EMF's `Timestamp`, the metrics' time. */
  timestamp: number;
}

/** A request's signals (shared/metrics.ts), kept until its answer. */
export interface RequestSignals extends Signals {
  readonly counters: Counter[];
  readonly mailsFailed: MailKind[];
  readonly userId: string | undefined;
}

export function requestSignals(): RequestSignals {
  const counters: Counter[] = [];
  const mailsFailed: MailKind[] = [];
  let userId: string | undefined;
  return {
    counters,
    mailsFailed,
    get userId() {
      return userId;
    },
    count: (counter) => {
      counters.push(counter);
    },
    mailFailed: (kind) => {
      mailsFailed.push(kind);
    },
    user: (id) => {
      userId = id;
    },
  };
}

interface Directive {
  Namespace: string;
  Dimensions: string[][];
  /** A count has no unit (EMF's default, None: no bytes in every line; the alarms read counts without one). */
  Metrics: { Name: string; Unit?: string }[];
}

function tally<T extends string>(names: readonly T[]): Map<T, number> {
  const totals = new Map<T, number>();
  for (const name of names) totals.set(name, (totals.get(name) ?? 0) + 1);
  return totals;
}

/** The request's line, and one more per further kind of refused mail: JSON text, without the newline. */
export function requestLines(namespace: string, service: string, report: RequestReport): string[] {
  const counters = tally(report.counters);
  const [firstKind, ...otherKinds] = [...tally(report.mailsFailed ?? [])];
  const directives: Directive[] = [
    {
      Namespace: namespace,
      Dimensions: [
        [SERVICE_DIMENSION, ROUTE_DIMENSION],
        [SERVICE_DIMENSION, ROUTE_DIMENSION, OUTCOME_DIMENSION],
      ],
      Metrics: [{ Name: REQUESTS }],
    },
    {
      Namespace: namespace,
      Dimensions: [[SERVICE_DIMENSION, ROUTE_DIMENSION]],
      Metrics: [{ Name: LATENCY, Unit: 'Milliseconds' }],
    },
  ];
  if (counters.size > 0) {
    directives.push({
      Namespace: namespace,
      Dimensions: [[SERVICE_DIMENSION]],
      Metrics: [...counters.keys()].map((name) => ({ Name: name })),
    });
  }
  const mailsFailed = (kind: MailKind, total: number) => ({
    directive: {
      Namespace: namespace,
      Dimensions: [[SERVICE_DIMENSION, MAIL_KIND_DIMENSION]],
      Metrics: [{ Name: MAILS_FAILED }],
    },
    members: { [MAILS_FAILED]: total, [MAIL_KIND_DIMENSION]: kind },
  });
  const first = firstKind && mailsFailed(...firstKind);
  if (first) directives.push(first.directive);
  // Key order is the line's order: who and what first, the metrics' members, then the EMF block.
  const line = {
    message: 'request',
    requestId: report.requestId,
    [SERVICE_DIMENSION]: service,
    [ROUTE_DIMENSION]: report.route,
    status: report.status,
    [OUTCOME_DIMENSION]: report.outcome,
    code: report.code,
    [REQUESTS]: 1,
    [LATENCY]: report.latencyMs,
    app: report.app,
    mid: report.mid,
    userId: report.userId,
    apiKeyId: report.apiKeyId,
    ip: report.ip,
    ...Object.fromEntries(counters),
    ...first?.members,
    _aws: { Timestamp: report.timestamp, CloudWatchMetrics: directives },
  };
  return [
    JSON.stringify(line),
    ...otherKinds.map((kind) => {
      const more = mailsFailed(...kind);
      return JSON.stringify({
        message: 'mails failed',
        requestId: report.requestId,
        [SERVICE_DIMENSION]: service,
        [ROUTE_DIMENSION]: report.route,
        ...more.members,
        _aws: { Timestamp: report.timestamp, CloudWatchMetrics: [more.directive] },
      });
    }),
  ];
}

type LineWriter = (line: string) => void;

const toStdout: LineWriter = (line) => {
  process.stdout.write(`${line}\n`);
};

/** Where the lines go: stdout (CloudWatch Logs on Lambda), unless the local stack or a test takes them. */
let writeLine: LineWriter = toStdout;

/** Sends the request lines elsewhere instead of stdout (the local stack's summary, the tests); answers how to undo it. */
export function writeRequestLinesTo(write: LineWriter): () => void {
  const previous = writeLine;
  writeLine = write;
  return () => {
    writeLine = previous;
  };
}

/** Writes the request's line(s), unless its log is off (LOG_LEVEL=error: the tests, the soak run). */
export function writeRequestLines(log: RequestLog, namespace: string, report: RequestReport): void {
  if (!log.on) return;
  for (const line of requestLines(namespace, log.service, report)) writeLine(line);
}
