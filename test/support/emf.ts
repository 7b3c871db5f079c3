import { expect } from 'vitest';

/** CloudWatch's metric units (the ones the Embedded Metric Format takes). */
const UNITS = new Set([
  'Seconds',
  'Microseconds',
  'Milliseconds',
  'Bytes',
  'Kilobytes',
  'Megabytes',
  'Gigabytes',
  'Terabytes',
  'Bits',
  'Kilobits',
  'Megabits',
  'Gigabits',
  'Terabits',
  'Percent',
  'Count',
  'Bytes/Second',
  'Kilobytes/Second',
  'Megabytes/Second',
  'Gigabytes/Second',
  'Terabytes/Second',
  'Bits/Second',
  'Kilobits/Second',
  'Megabits/Second',
  'Gigabits/Second',
  'Terabits/Second',
  'Count/Second',
  'None',
]);

export interface EmfDirective {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit?: string }[];
}

export type EmfLine = Record<string, unknown> & {
  _aws: { Timestamp: number; CloudWatchMetrics: EmfDirective[] };
};

/**
 * A line CloudWatch Logs turns into metrics, as the Embedded Metric Format specifies: one JSON object whose `_aws`
 * has a millisecond `Timestamp` and its directives, each directive a namespace, dimension sets of 1 to 30 names and
 * 1 to 100 metrics; every dimension it names a string member of the line, every metric a number member.
 */
export function expectValidEmf(text: string): EmfLine {
  const line = JSON.parse(text) as EmfLine;
  expect(text).not.toContain('\n');
  expect(Number.isInteger(line._aws.Timestamp) && line._aws.Timestamp > 1e12, 'Timestamp in ms').toBe(true);
  expect(Object.keys(line._aws)).toEqual(['Timestamp', 'CloudWatchMetrics']);
  expect(line._aws.CloudWatchMetrics.length).toBeGreaterThan(0);
  for (const directive of line._aws.CloudWatchMetrics) {
    expect(Object.keys(directive).sort()).toEqual(['Dimensions', 'Metrics', 'Namespace']);
    expect(directive.Namespace).toMatch(/^[^:]{1,255}$/);
    expect(directive.Dimensions.length).toBeGreaterThan(0);
    for (const set of directive.Dimensions) {
      expect(set.length).toBeGreaterThan(0);
      expect(set.length).toBeLessThanOrEqual(30);
      for (const name of set) expect(typeof line[name], `dimension ${name}`).toBe('string');
    }
    expect(directive.Metrics.length).toBeGreaterThan(0);
    expect(directive.Metrics.length).toBeLessThanOrEqual(100);
    for (const metric of directive.Metrics) {
      expect(typeof line[metric.Name], `metric ${metric.Name}`).toBe('number');
      if (metric.Unit !== undefined) expect(UNITS.has(metric.Unit), `unit ${metric.Unit}`).toBe(true);
    }
  }
  return line;
}

/** The directives of a line as `namespace [dimension sets] metric[:unit],…` strings, for a readable comparison. */
export function directivesOf(line: EmfLine): string[] {
  return line._aws.CloudWatchMetrics.map(
    (d) =>
      `${d.Namespace} ${JSON.stringify(d.Dimensions)} ${d.Metrics.map((m) => (m.Unit ? `${m.Name}:${m.Unit}` : m.Name)).join(',')}`,
  );
}
