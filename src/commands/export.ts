// `petstore-conformance export REPORT_DIR --out DIR [--runner node|vitest] [--only IDS]`: each failed
// requirement of a report as one standalone test file (src/report/exported-test.ts), to keep in the
// server's own project until the fault is fixed. Exit 0 when it wrote every file, 1 when some
// failed requirement could not be exported (said why), 2 on bad usage.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../config/config.js';
import { matches } from '../checks/select.js';
import { exportedTest, TEST_RUNNERS, type TestRunner } from '../report/exported-test.js';
import { reportArgs } from './report-args.js';

export const EXPORT_USAGE =
  'usage: petstore-conformance export REPORT_DIR --out DIR [--runner node|vitest] [--only IDS]';

export function exportCommand(args: readonly string[]): number {
  const said = reportArgs('export', EXPORT_USAGE, args, ['out', 'runner', 'only']);
  if (!said) return 2;
  const { results, values } = said;
  const { out, runner = 'node', only } = values;
  if (out === undefined || !TEST_RUNNERS.includes(runner as TestRunner)) {
    console.error(`petstore-conformance export: ${EXPORT_USAGE}`);
    return 2;
  }
  const patterns = only === undefined ? [] : SETTINGS.only.parse(only);
  const failed = results.requirements.filter(
    (r) => r.outcome === 'failed' && (patterns.length === 0 || patterns.some((p) => matches(r.id, p))),
  );
  mkdirSync(out, { recursive: true });
  let missed = 0;
  for (const r of failed) {
    const test = exportedTest(results, r, runner as TestRunner);
    if ('skipped' in test) {
      missed++;
      console.log(`${r.id} not exported: ${test.skipped}`);
      continue;
    }
    writeFileSync(join(out, test.file), test.text);
    console.log(`${r.id} ${join(out, test.file)} (asserts ${test.asserted} of its ${test.cases} recorded exchanges)`);
  }
  console.log(`exported ${failed.length - missed} of ${failed.length} failed requirement(s) to ${out}`);
  return missed > 0 ? 1 : 0;
}
