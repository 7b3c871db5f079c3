/**
 * The metrics of the local stack's requests, as the functions write them for CloudWatch (shared/http/request-metrics.ts:
 * Embedded Metric Format lines): `npm start` prints a per-route summary when it stops, and each line as it comes
 * with `--metrics`. The handlers run in this process, so their lines come here instead of stdout.
 */
import { writeMetricLinesTo } from '#shared/http/request-metrics.ts';
import {
  COUNTERS,
  LATENCY,
  MAIL_KIND_DIMENSION,
  MAILS_FAILED,
  OUTCOME_DIMENSION,
  REQUESTS,
  ROUTE_DIMENSION,
} from '#shared/metrics.ts';

interface EmfLine {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
  [field: string]: unknown;
}

interface RouteTally {
  requests: number;
  latencies: number[];
  outcomes: Map<string, number>;
}

export interface MetricsCollector {
  /** The summary of every request so far: per route, its count, outcomes and latency; then the counters. */
  summary(): string;
}

/** What one EMF line adds to the tallies. */
function tally(line: EmfLine, routes: Map<string, RouteTally>, counters: Map<string, number>): void {
  const directive = line._aws.CloudWatchMetrics[0];
  if (!directive) return;
  const dimensions = directive.Dimensions[0] ?? [];
  const route = line[ROUTE_DIMENSION];
  if (typeof route === 'string') {
    let entry = routes.get(route);
    if (!entry) {
      entry = { requests: 0, latencies: [], outcomes: new Map() };
      routes.set(route, entry);
    }
    const outcome = line[OUTCOME_DIMENSION];
    if (dimensions.includes(OUTCOME_DIMENSION) && typeof outcome === 'string') {
      entry.outcomes.set(outcome, (entry.outcomes.get(outcome) ?? 0) + 1);
    } else {
      entry.requests += Number(line[REQUESTS] ?? 0);
      if (typeof line[LATENCY] === 'number') entry.latencies.push(line[LATENCY]);
    }
    return;
  }
  // MailsFailed, by the mail's kind: counted as `MailsFailed <kind>`.
  const failed = line[MAILS_FAILED];
  if (typeof failed === 'number') {
    const name = `${MAILS_FAILED} ${String(line[MAIL_KIND_DIMENSION])}`;
    counters.set(name, (counters.get(name) ?? 0) + failed);
    return;
  }
  for (const name of COUNTERS) {
    const value = line[name];
    if (typeof value === 'number') counters.set(name, (counters.get(name) ?? 0) + value);
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export function collectMetrics(options: { echo?: boolean } = {}): MetricsCollector {
  const routes = new Map<string, RouteTally>();
  const counters = new Map<string, number>();
  writeMetricLinesTo((text) => {
    if (options.echo) process.stdout.write(`${text}\n`);
    tally(JSON.parse(text) as EmfLine, routes, counters);
  });
  return {
    summary: () => {
      if (routes.size === 0) return 'No requests reached a function: no metrics.';
      const rows = [...routes.entries()].sort(([a], [b]) => a.localeCompare(b));
      const width = Math.max(...rows.map(([route]) => route.length), 'route'.length);
      const lines = [
        'Metrics of this run, as the functions sent them (CloudWatch Embedded Metric Format):',
        `  ${'route'.padEnd(width)}  requests  p50 ms  p99 ms  outcomes`,
      ];
      for (const [route, entry] of rows) {
        const sorted = [...entry.latencies].sort((a, b) => a - b);
        const outcomes = [...entry.outcomes.entries()]
          .sort(([, a], [, b]) => b - a)
          .map(([outcome, count]) => `${outcome} ${count}`)
          .join(', ');
        lines.push(
          `  ${route.padEnd(width)}  ${String(entry.requests).padStart(8)}  ${percentile(sorted, 50).toFixed(0).padStart(6)}  ${percentile(sorted, 99).toFixed(0).padStart(6)}  ${outcomes}`,
        );
      }
      const failedKinds = [...counters.keys()].filter((name) => name.startsWith(`${MAILS_FAILED} `)).sort();
      const counted = [...COUNTERS.filter((name) => counters.has(name)), ...failedKinds].map(
        (name) => `${name} ${counters.get(name)}`,
      );
      lines.push(`  counters: ${counted.length > 0 ? counted.join(', ') : 'none'}`);
      return lines.join('\n');
    },
  };
}
