// Runs once before the self-tests: bundles the command line (scripts/bundle.mjs) that the tests
// start dozens of times, so no child process builds it, or finds it stale, on its own.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/bundle.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
