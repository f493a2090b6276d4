// The one thin adapter from requirements to vitest tests, for `npx vitest run --project
// conformance`. The checks run as the command line runs them (src/run/runner.ts: the same
// runner, its order, root cause first by src/report/results.ts's rootsOf), once, before the
// tests; each test then says how its check ended, so both paths give the same verdicts. Test
// names start with the id, so `-t listPets.limit` filters; a MUST not met fails its test, a
// SHOULD not met is an annotation (a failure with PETSTORE_STRICT).
import { beforeAll, describe, test, type RunnerTestSuite, type TestContext } from 'vitest';
import type { RunConfig } from '../config/config.js';
import { areaOf, type Check } from '../checks/requirement.js';
import { selectChecks } from '../checks/select.js';
import { rootsOf } from '../report/causes.js';
import type { CheckInput } from '../report/results.js';
import { ChecksRunner } from '../run/runner.js';
import { failsItsTest } from './verdict.js';

export function defineConformanceTests(checks: readonly Check[], config: RunConfig): void {
  const selected = selectChecks(checks, config);
  const decided = new Map<string, CheckInput>();
  // The hook's suite is the file: the tests vitest will run (a -t filter leaves the others out).
  beforeAll(async ({}, suite) => {
    const running = new Set(namesToRun(suite));
    const runner = new ChecksRunner(selected, config, { note: (line) => console.log(line) }, (c) =>
      running.has(c.name),
    );
    for (const c of rootsOf((await runner.run()).checks).checks) decided.set(c.name, c);
  });
  const later = (c: Check) => c.observer !== undefined || c.fragile === true;
  for (const area of new Set(selected.filter((c) => !later(c)).map((c) => areaOf(c.requirement.id))))
    describe(area, () => {
      for (const c of selected.filter((x) => !later(x) && areaOf(x.requirement.id) === area))
        test(c.name, (t) => report(c, t));
    });
  describe('after the other checks: the run-wide rules, the fragile checks', () => {
    for (const c of selected.filter(later)) test(c.name, (t) => report(c, t));
  });

  async function report(c: Check, { skip, annotate }: TestContext) {
    const outcome = decided.get(c.name);
    if (!outcome) throw new Error(`${c.name} did not run`);
    if (outcome.outcome === 'passed') return;
    if (outcome.outcome === 'skipped') return skip(outcome.message);
    const text = [outcome.message, ...outcome.evidence.map((e) => `Reproduce with: ${e.reproduce}`)].join('\n');
    if (!failsItsTest(outcome, config.strict)) {
      await annotate(`SHOULD not met (warning): ${text}`, 'warning');
      return;
    }
    const err = new Error(
      `${c.requirement.level} ${outcome.outcome === 'error' ? 'could not be checked' : 'violated'}: ${text}`,
    );
    err.stack = err.message; // a violation is not a crash: no stack trace
    throw err;
  }
}

/** Names of the tests of the suite that vitest will run (not skipped by a -t filter). */
function namesToRun(suite: RunnerTestSuite): string[] {
  return suite.tasks.flatMap((t) =>
    t.type === 'suite' ? namesToRun(t) : t.mode === 'run' || t.mode === 'only' ? [t.name] : [],
  );
}
