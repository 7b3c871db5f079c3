import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { jsonLogger } from '../log.ts';
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
  type Signals,
} from '../metrics.ts';

/**
 * A request's metrics, in CloudWatch's Embedded Metric Format through Powertools: CloudWatch Logs
 * turns each line the function writes to stdout into metrics, with no call to CloudWatch and no extra latency.
 * Names and dimensions: shared/metrics.ts. Three lines per request, each with one dimension set, so that each
 * metric lands exactly where the alarms read it (a p99 of `Latency` is per route, over every outcome); and one
 * more per kind of mail SES refused in it (`MailsFailed` by service and kind). Each line is Powertools' own flush
 * (publishStoredMetrics) after its dimensions and metrics are added; Powertools' middy middleware (logMetrics) is
 * not used, as it writes one line per invocation with one dimension set.
 */

/** What one request reports, at its end. */
export interface RequestReport {
  /** The route's operationId. */
  route: string;
  outcome: Outcome;
  latencyMs: number;
  counters: readonly Counter[];
  /** The kind of each mail SES refused during the request. */
  mailsFailed?: readonly MailKind[];
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

type LineWriter = (line: string) => void;

/**
 * Where the local stack wants the lines (local/metrics.ts, the tests); unset on Lambda, where Powertools writes them
 * to stdout and CloudWatch Logs reads them.
 */
let redirect: LineWriter | undefined;

/** Sends the metric lines elsewhere (the local stack's summary, the tests); answers how to undo it. */
export function writeMetricLinesTo(write: LineWriter): () => void {
  const previous = redirect;
  redirect = write;
  return () => {
    redirect = previous;
  };
}

/** Powertools' own warnings (a metric or dimension it would drop): our names are fixed, so one is a bug worth an error line. */
const warnings = {
  debug: () => {},
  info: () => {},
  warn: (...content: unknown[]) => jsonLogger.error('metrics warning', { detail: content.map(String).join(' ') }),
  error: (...content: unknown[]) => jsonLogger.error('metrics error', { detail: content.map(String).join(' ') }),
};

// One per namespace, made on the first request: the service dimension comes from POWERTOOLS_SERVICE_NAME (the
// stack's name, infra/monitoring.ts), and POWERTOOLS_METRICS_DISABLED=true turns the lines off (the tests do).
const byNamespace = new Map<string, Metrics>();

function metricsFor(namespace: string): Metrics {
  let metrics = byNamespace.get(namespace);
  if (!metrics) {
    metrics = new Metrics({ namespace, logger: warnings });
    byNamespace.set(namespace, metrics);
  }
  return metrics;
}

/**
 * Writes what the metrics hold as one line, and empties them: Powertools' publishStoredMetrics, which writes to
 * stdout unless metrics are disabled. Powertools has no other destination for its lines, so a redirected process
 * takes the line it would write (serializeMetrics) and empties the metrics itself.
 */
function flush(metrics: Metrics): void {
  if (!redirect) {
    metrics.publishStoredMetrics();
    return;
  }
  const line = JSON.stringify(metrics.serializeMetrics());
  metrics.clearMetrics();
  metrics.clearDimensions();
  redirect(line);
}

export function publishRequestMetrics(namespace: string, report: RequestReport): void {
  const metrics = metricsFor(namespace);
  // Synchronous from the first add to the last flush: requests served at once (the local stack) cannot mix.
  metrics.addDimension(ROUTE_DIMENSION, report.route);
  metrics.addMetric(REQUESTS, MetricUnit.Count, 1);
  metrics.addMetric(LATENCY, MetricUnit.Milliseconds, report.latencyMs);
  flush(metrics);
  metrics.addDimension(ROUTE_DIMENSION, report.route);
  metrics.addDimension(OUTCOME_DIMENSION, report.outcome);
  metrics.addMetric(REQUESTS, MetricUnit.Count, 1);
  flush(metrics);
  if (report.counters.length > 0) {
    const totals = new Map<Counter, number>();
    for (const counter of report.counters) totals.set(counter, (totals.get(counter) ?? 0) + 1);
    for (const [counter, total] of totals) metrics.addMetric(counter, MetricUnit.Count, total);
    flush(metrics);
  }
  // One line per kind: a line has one dimension set, and `kind` is part of it.
  const failed = new Map<MailKind, number>();
  for (const kind of report.mailsFailed ?? []) failed.set(kind, (failed.get(kind) ?? 0) + 1);
  for (const [kind, total] of failed) {
    metrics.addDimension(MAIL_KIND_DIMENSION, kind);
    metrics.addMetric(MAILS_FAILED, MetricUnit.Count, total);
    flush(metrics);
  }
}
