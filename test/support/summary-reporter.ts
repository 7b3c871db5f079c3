import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the timing lines name. */
const SLOWEST_FILES = 10;

/** A file's own time: setting up its environment, importing it and its setup files, then its tests and hooks. */
function fileSeconds(module: TestModule): number {
  const d = module.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000;
}

const seconds = (value: number) => `${value.toFixed(1)} s`;

/**
 * Prints the timing lines (each project's files, tests, time summed over its files and span from its first file's
 * start to its last file's end; the run's wall time; the slowest files) and the plain closing line CI reads:
 * `N passed, N failed[, N skipped]`.
 */
export default class SummaryReporter implements Reporter {
  private readonly startedAt = performance.now();
  private readonly spans = new Map<string, { start: number; end: number }>();

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name;
    const now = performance.now();
    const span = this.spans.get(name);
    if (span) span.start = Math.min(span.start, now);
    else this.spans.set(name, { start: now, end: now });
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name);
    if (span) span.end = Math.max(span.end, performance.now());
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const projects = new Map<string, { files: number; tests: number; seconds: number }>();
    for (const module of testModules) {
      const failedBefore = failed;
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed with no failing test (it did not load, or a hook such as the
      // OpenAPI answer check in afterAll failed) is still a failure.
      if (module.state() === 'failed' && failed === failedBefore) failed++;
      const project = projects.get(module.project.name) ?? { files: 0, tests: 0, seconds: 0 };
      projects.set(module.project.name, {
        files: project.files + 1,
        tests: project.tests + tests,
        seconds: project.seconds + fileSeconds(module),
      });
    }
    failed += unhandledErrors.length;

    const lines = ['', 'Time by project (summed over its files; span from its first file to its last):'];
    for (const [name, project] of [...projects].sort((a, b) => b[1].seconds - a[1].seconds)) {
      const span = this.spans.get(name);
      lines.push(
        `  ${name.padEnd(20)} ${seconds(project.seconds).padStart(9)}  span ${seconds(span ? (span.end - span.start) / 1000 : 0).padStart(9)}  ${project.files} files, ${project.tests} tests`,
      );
    }
    lines.push(`  vitest wall time ${seconds((performance.now() - this.startedAt) / 1000)}`);
    lines.push(`Slowest ${SLOWEST_FILES} files:`);
    const slowest = [...testModules].sort((a, b) => fileSeconds(b) - fileSeconds(a)).slice(0, SLOWEST_FILES);
    for (const module of slowest) {
      lines.push(
        `  ${seconds(fileSeconds(module)).padStart(8)}  ${module.project.name.padEnd(20)} ${module.relativeModuleId}`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
