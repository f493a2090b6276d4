// The performance doc's table, between its markers: written by the bench, never by hand
// (self-tests/docs/performance.test.ts checks the markers here and the table there).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './config.js';

const DOCS_TABLE = {
  file: join(ROOT, 'docs', 'performance.md'),
  start: '<!-- npm run bench writes this table; do not edit it by hand -->',
  end: '<!-- end of the table npm run bench writes -->',
};

export function writeDocsTable(title: string, rows: string[][]): void {
  const doc = readFileSync(DOCS_TABLE.file, 'utf8');
  const [before, rest] = doc.split(DOCS_TABLE.start);
  const after = rest?.split(DOCS_TABLE.end)[1];
  if (before === undefined || after === undefined)
    throw new Error(`${DOCS_TABLE.file}: the table's markers are missing`);
  const cell = (c: string | undefined) => (c ?? '').replace(/\|/g, '\\|').trim();
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const table = [
    `${title}, ${new Date().toISOString().slice(0, 10)}, at ${commit}:`,
    '',
    '| Measure | Measured | Goal | |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r[0])} | ${cell(r[1])} | ${cell(r[2])} | ${cell(r[3])} |`),
  ].join('\n');
  writeFileSync(DOCS_TABLE.file, `${before}${DOCS_TABLE.start}\n${table}\n${DOCS_TABLE.end}${after}`);
  console.log(`  and into ${DOCS_TABLE.file}`);
}
