import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Builds web/dist once before the journeys (`npm run build:web`), so they drive this very source. */
export default function buildWeb(): void {
  try {
    execFileSync('npm', ['run', '--silent', 'build:web'], {
      cwd: resolve(import.meta.dirname, '../../..'),
      stdio: 'pipe',
      encoding: 'utf8',
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build:web failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}
