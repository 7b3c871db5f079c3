/**
 * The metrics of the local stack's requests, as the functions write them for CloudWatch (shared/http/request-metrics.ts:
 * each request's one line, its summary and its metrics in Embedded Metric Format): `npm start` prints a per-route
 * summary when it stops, and each line as it comes with `--metrics`. The handlers run in this process, so their lines
 * come here instead of stdout.
 */
import { writeRequestLinesTo } from '#shared/http/request-metrics.ts';
import {
  COUNTERS,
  LATENCY,
  MAIL_KIND_DIMENSION,
  MAILS_FAILED,
  OUTCOME_DIMENSION,
  REQUESTS,
  ROUTE_DIMENSION,
} from '#shared/metrics.ts';

/** The members of a request line this summary reads (the rest are the summary's own fields and `_aws`). */
type RequestLine = Record<string, unknown>;

interface RouteTally {
  requests: number;
  latencies: number[];
  outcomes: Map<string, number>;
}

export interface MetricsCollector {
  /** The summary of every request so far: per route, its count, outcomes and latency; then the counters. */
  summary(): string;
}

/** What one line adds to the tallies: a request line its route's, counters' and refused mails'; a further kind's line its mails'. */
function tally(line: RequestLine, routes: Map<string, RouteTally>, counters: Map<string, number>): void {
  const route = line[ROUTE_DIMENSION];
  if (typeof route === 'string' && typeof line[REQUESTS] === 'number') {
    let entry = routes.get(route);
    if (!entry) {
      entry = { requests: 0, latencies: [], outcomes: new Map() };
      routes.set(route, entry);
    }
    entry.requests += line[REQUESTS];
    if (typeof line[LATENCY] === 'number') entry.latencies.push(line[LATENCY]);
    const outcome = line[OUTCOME_DIMENSION];
    if (typeof outcome === 'string') entry.outcomes.set(outcome, (entry.outcomes.get(outcome) ?? 0) + 1);
  }
  for (const name of COUNTERS) {
    const value = line[name];
    if (typeof value === 'number') counters.set(name, (counters.get(name) ?? 0) + value);
  }
  // MailsFailed, by the mail's kind: counted as `MailsFailed <kind>`.
  const failed = line[MAILS_FAILED];
  if (typeof failed === 'number') {
    const name = `${MAILS_FAILED} ${String(line[MAIL_KIND_DIMENSION])}`;
    counters.set(name, (counters.get(name) ?? 0) + failed);
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export function collectMetrics(options: { echo?: boolean } = {}): MetricsCollector {
  const routes = new Map<string, RouteTally>();
  const counters = new Map<string, number>();
  writeRequestLinesTo((text) => {
    if (options.echo) process.stdout.write(`${text}\n`);
    tally(JSON.parse(text) as RequestLine, routes, counters);
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
