// The whole project type-checks under the strict settings of tsconfig.json. A self-test rather than
// a step before `vitest run`, so that tsc's time overlaps the other files instead of
// preceding them.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

test('tsc --noEmit -p . reports no error', async () => {
  // Incremental: what tsc learnt of unchanged files last time is kept under node_modules/.cache.
  const incremental = ['--incremental', '--tsBuildInfoFile', 'node_modules/.cache/petstore/tsc.tsbuildinfo'];
  const run = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', '.', ...incremental], {
    cwd: root,
    maxBuffer: 16 << 20,
  }).catch((err: { stdout?: string; code?: number }) => ({
    stdout: err.stdout ?? String(err),
    stderr: '',
    code: err.code,
  }));
  expect(run.stdout.trim(), run.stdout).toBe('');
  // A hang guard: some 60 times an honest run beside two busy loops, as it starts with the heaviest
  // files of `npm test`.
}, 600_000);
