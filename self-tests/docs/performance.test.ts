// docs/performance.md's figures are written by the command that measures them: `npm run bench`
// writes its table between two markers, with the machine, the date and the commit it measured.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { root } from '../net-kit.js';

test("docs/performance.md holds the bench's last table between its markers, with its machine, date and commit", () => {
  const doc = readFileSync(join(root, 'docs', 'performance.md'), 'utf8');
  const start = '<!-- npm run bench writes this table; do not edit it by hand -->';
  const end = '<!-- end of the table npm run bench writes -->';
  const bench = readFileSync(join(root, 'scripts', 'bench', 'docs-table.ts'), 'utf8');
  expect(bench).toContain(start);
  expect(bench).toContain(end);
  const [, rest = ''] = doc.split(start);
  const [table = ''] = rest.split(end);
  expect(table).toMatch(
    /^\nPet Store conformance suite: bench \(\d+ cores, load [\d.]+, seed \d+, concurrency \d+\), \d{4}-\d\d-\d\d, at [0-9a-f]{7,}:\n/,
  );
  expect(table).toMatch(/^\| Full run, bundled server \(median of 5\) \| [\d.]+ s \|/m);
});
