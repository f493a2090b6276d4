// What `replay` and `export` share: a report folder (or its conformance.json) and flags taking a
// value, parsed; bad usage or a file that is no report said in one line (their exit 2).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Results } from '../report/results.js';
import { loadReport } from './diff.js';

export interface ReportArgs {
  results: Results;
  values: Record<string, string | undefined>;
}

/** The report and the flags' values, or undefined once the problem was printed. */
export function reportArgs(command: string, usage: string, args: readonly string[], flags: readonly string[]) {
  const say = (line: string) => console.error(`petstore-conformance ${command}: ${line}`);
  let parsed;
  try {
    const options = Object.fromEntries(flags.map((f) => [f, { type: 'string' as const }]));
    parsed = parseArgs({ args: [...args], allowPositionals: true, options });
  } catch (err) {
    say(`${(err as Error).message}\n${usage}`);
    return undefined;
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined || extra.length > 0) {
    say(usage);
    return undefined;
  }
  try {
    const file = existsSync(dir) && statSync(dir).isDirectory() ? join(dir, 'conformance.json') : dir;
    return { results: loadReport(file), values: parsed.values as ReportArgs['values'] };
  } catch (err) {
    // loadReport words its errors for diff.
    say((err as Error).message.replace(/^diff: /, ''));
    return undefined;
  }
}
