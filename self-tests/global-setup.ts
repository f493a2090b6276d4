// Runs once before the self-tests: bundles the command line (scripts/bundle.mjs) that the tests
// start dozens of times, so no child process builds it, or finds it stale, on its own. And gives
// the run one temporary folder, removed when it ends: every folder a self-test or a child it starts
// makes under os.tmpdir() (hundreds per run: reports, clones of examples, exported tests) lands in
// it, instead of piling up on a developer's machine from one `npm test` to the next.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): () => void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/bundle.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
  const root = mkdtempSync(join(tmpdir(), 'petstore-self-tests-'));
  // The workers and every child inherit it: os.tmpdir() reads TMPDIR.
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
