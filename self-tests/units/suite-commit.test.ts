// The manifest's suite.commit and suite.dirty come from one `git status`, in the background or
// not: both ways must read the same answer, in every state a checkout can be in.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { suiteCommit, suiteCommitAhead } from '../../src/report/manifest.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-suite-commit-'));
// Outside a checkout even where the temporary folder lies inside one: git looks no higher than `dir`.
const ceiling = process.env.GIT_CEILING_DIRECTORIES;
process.env.GIT_CEILING_DIRECTORIES = dirname(dir);
afterAll(() => {
  if (ceiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
  else process.env.GIT_CEILING_DIRECTORIES = ceiling;
  rmSync(dir, { recursive: true, force: true });
});
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();

/** suiteCommit, and suiteCommitAhead once git has answered (it asks again, waiting, if not). */
async function bothWays() {
  const ahead = suiteCommitAhead(dir);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return [suiteCommit(dir), ahead()];
}

test('outside a checkout, and before the first commit, neither commit nor dirty is known', async () => {
  for (const found of await bothWays()) expect(found).toEqual({ commit: null, dirty: null });
  git('init', '-q');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'a.ts'), 'a\n');
  for (const found of await bothWays()) expect(found).toEqual({ commit: null, dirty: null });
});

test("the commit, clean; then dirty once a suite file changes or is added, and not for a file outside the suite's", async () => {
  git('add', '.');
  git('commit', '-qm', 'first');
  const commit = git('rev-parse', 'HEAD');
  for (const found of await bothWays()) expect(found).toEqual({ commit, dirty: false });
  writeFileSync(join(dir, 'notes.md'), 'not the suite\n');
  for (const found of await bothWays()) expect(found).toEqual({ commit, dirty: false });
  writeFileSync(join(dir, 'src', 'b.ts'), 'new\n');
  for (const found of await bothWays()) expect(found).toEqual({ commit, dirty: true });
  rmSync(join(dir, 'src', 'b.ts'));
  writeFileSync(join(dir, 'src', 'a.ts'), 'changed\n');
  for (const found of await bothWays()) expect(found).toEqual({ commit, dirty: true });
});
