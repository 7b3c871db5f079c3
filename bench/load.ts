import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** autocannon `requests` (setupRequest / onResponse, with a per-connection context). */
  requests?: unknown[];
  /** Seconds before a request counts as an error (autocannon's default: 10). */
  timeout?: number;
}

export interface RunFigures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
}

export interface LoadFigures extends RunFigures {
  runs: RunFigures[];
}

export async function once(options: LoadOptions): Promise<RunFigures> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.requests ? { requests: options.requests as never } : {}),
    ...(options.timeout ? { timeout: options.timeout } : {}),
  } as autocannon.Options);
  return {
    rps: result.requests.total / options.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statuses: Object.fromEntries(
      Object.entries((result as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {}).map(
        ([status, { count }]) => [status, count],
      ),
    ),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Three runs (or `runs`); the figures are the medians of each column (non-2xx and errors: summed). */
export async function load(
  options: LoadOptions,
  runs = 3,
  before?: (run: number) => Promise<void> | void,
): Promise<LoadFigures> {
  const all: RunFigures[] = [];
  for (let i = 0; i < runs; i++) {
    await before?.(i);
    all.push(await once(options));
  }
  return aggregate(all);
}

/** The medians of each column of several runs (non-2xx and errors: summed). */
export function aggregate(all: RunFigures[]): LoadFigures {
  return {
    rps: Math.round(median(all.map((r) => r.rps)) * 10) / 10,
    p50: median(all.map((r) => r.p50)),
    p99: median(all.map((r) => r.p99)),
    requests: all.reduce((s, r) => s + r.requests, 0),
    non2xx: all.reduce((s, r) => s + r.non2xx, 0),
    errors: all.reduce((s, r) => s + r.errors, 0),
    statuses: all.reduce<Record<string, number>>((sum, r) => {
      for (const [status, count] of Object.entries(r.statuses)) sum[status] = (sum[status] ?? 0) + count;
      return sum;
    }, {}),
    runs: all,
  };
}

export { median };
