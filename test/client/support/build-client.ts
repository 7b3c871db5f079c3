import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Builds client/dist before the client tests run (`npm run build:client`),
 * so the build test and the browser test see the bundle of this very source
 * and `npm test` needs no build step before it.
 */
export default function buildClient(): void {
  try {
    execFileSync('npm', ['run', '--silent', 'build:client'], {
      cwd: resolve(import.meta.dirname, '../../..'),
      stdio: 'pipe',
      encoding: 'utf8',
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build:client failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}
