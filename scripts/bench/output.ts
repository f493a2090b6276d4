// What the bench prints and writes: its progress on stderr, a table of rows on stdout, and the
// figures as JSON in the report folder (PETSTORE_REPORT_DIR, reports/ by default).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/config/config.js';

export const say = (line: string) => console.error(`bench: ${line}`);

/** The machine the figures are of, first: other processes skew every one. */
export const sayMachine = (load: number[] = loadavg(), note = '') =>
  say(`${cpus().length} cores, load average ${load.map((l) => l.toFixed(2)).join(' ')}${note}`);

/** A row's last cell: the figure met its target or missed it. */
export const mark = (ok: boolean) => (ok ? 'ok  ' : 'MISS');

/** `data` as reports/NAME (two-space JSON); the file's path. */
export function writeReport(name: string, data: unknown): string {
  const dir = resolve(loadConfig(process.env).reportDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

/** Rows of measure, measured, goal and mark, the first three columns padded to their widest. */
export function printRows(title: string, rows: string[][], file: string): void {
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  console.log(`\n${title}`);
  for (const r of rows)
    console.log(
      `  ${(r[0] ?? '').padEnd(w[0] as number)}  ${(r[1] ?? '').padEnd(w[1] as number)}  ${(r[2] ?? '').padEnd(w[2] as number)}  ${r[3]}`.trimEnd(),
    );
  console.log(`  written to ${file}`);
}
