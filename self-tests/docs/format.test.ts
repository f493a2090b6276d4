// The project's code is formatted as .prettierrc.json says (prettier --check; a folder of one's own
// beside it is not checked), so a diff shows what changed, not how it was wrapped. A self-test
// rather than a step before `vitest run`, like the type check.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const prettier = fileURLToPath(new URL('../../node_modules/prettier/bin/prettier.cjs', import.meta.url));

test('prettier --check finds every file formatted (run npx prettier --write . to fix)', async () => {
  const run = await promisify(execFile)(
    process.execPath,
    [
      prettier,
      '--check',
      // Files unchanged (by content) since prettier last passed them are not read again: most of the
      // processor time of a run after the first.
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      'node_modules/.cache/prettier/self-test',
      '{src,tests,self-tests,scripts,bin,examples}/**/*.{ts,js,mjs}',
      '*.{ts,js,mjs}',
    ],
    {
      cwd: root,
    },
  ).catch((err: { stdout?: string; stderr?: string }) => ({
    stdout: `${err.stdout ?? ''}${err.stderr ?? String(err)}`,
  }));
  expect(run.stdout, run.stdout).toContain('All matched files use Prettier code style!');
  // A hang guard, far above an honest run.
}, 600_000);
