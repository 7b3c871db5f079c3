import { afterEach, describe, expect, it } from 'vitest';
import { publishRequestMetrics } from '#shared/http/request-metrics.ts';

// Without a redirect (on Lambda), each line is Powertools' own publishStoredMetrics to stdout, and
// POWERTOOLS_METRICS_DISABLED silences it. Each test takes a namespace of its own: Powertools reads the
// environment when its Metrics is made, on a namespace's first request, and the value is put back at once.
function stdoutOf(action: () => void): string[] {
  const lines: string[] = [];
  const original = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  try {
    action();
  } finally {
    process.stdout.write = original;
  }
  return lines;
}

function publishWithMetricsDisabled(disabled: string, namespace: string): string[] {
  const previous = process.env.POWERTOOLS_METRICS_DISABLED;
  process.env.POWERTOOLS_METRICS_DISABLED = disabled;
  try {
    return stdoutOf(() =>
      publishRequestMetrics(namespace, {
        route: 'getMe',
        outcome: 'success',
        latencyMs: 12,
        counters: ['SessionsStarted'],
      }),
    );
  } finally {
    process.env.POWERTOOLS_METRICS_DISABLED = previous;
  }
}

describe('publishRequestMetrics on Lambda (no redirect)', () => {
  afterEach(() => {
    expect(process.env.POWERTOOLS_METRICS_DISABLED).toBe('true');
  });

  it('writes its three lines to stdout through Powertools', () => {
    const lines = publishWithMetricsDisabled('false', 'MetricsOnStdout').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(lines.map((line) => line._aws.CloudWatchMetrics[0].Namespace)).toEqual([
      'MetricsOnStdout',
      'MetricsOnStdout',
      'MetricsOnStdout',
    ]);
    expect(lines.map((line) => line._aws.CloudWatchMetrics[0].Dimensions[0])).toEqual([
      ['service', 'route'],
      ['service', 'route', 'outcome'],
      ['service'],
    ]);
    expect(lines[2].SessionsStarted).toBe(1);
  });

  it('writes nothing when POWERTOOLS_METRICS_DISABLED is true', () => {
    expect(publishWithMetricsDisabled('true', 'MetricsDisabled')).toEqual([]);
  });
});
