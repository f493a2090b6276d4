// The one thin adapter from requirements to vitest tests, for `npx vitest run --project
// conformance` (the command line runs the same checks without a test runner: src/run/checks.ts).
// Test names start with the id, so `-t listPets.limit` filters; a MUST not met fails its test, a
// SHOULD not met is an annotation (a failure with PETSTORE_STRICT).
import { afterAll, beforeAll, describe, test, type RunnerTestSuite } from 'vitest';
import { describePacing } from '../wire/pacer.js';
import type { RunConfig } from '../config/config.js';
import { areaOf, execute, type Check } from '../checks/requirement.js';
import { RunContext } from '../checks/run.js';
import { selectChecks } from '../checks/select.js';

export function defineConformanceTests(checks: readonly Check[], config: RunConfig): void {
  const ctx = new RunContext(config);
  // The run-wide Error rules wait for every other check: tell the context which ones vitest will
  // start (a -t filter leaves the others skipped, and a skipped test never settles).
  beforeAll(({}, file) => ctx.planChecks(testsToRun(file)));
  afterAll(async () => {
    const pacing = describePacing(ctx.api.pacing, ctx.api.retried.count);
    if (pacing) console.log(`petstore-conformance: ${pacing}`);
    await ctx.close();
  });
  const selected = selectChecks(checks, config);
  for (const area of new Set(selected.map((c) => areaOf(c.requirement.id)))) {
    describe.concurrent(area, () => {
      for (const c of selected.filter((x) => areaOf(x.requirement.id) === area)) {
        const req = c.requirement;
        test(c.name, async ({ skip, annotate, signal }) => {
          // Ctrl-C: vitest aborts the signals of running tests (not always all of them), and the
          // first one stops every request of the run at once, so it ends in moments instead of
          // waiting out timeouts. (A test's own timeout aborts its signal with another reason.)
          signal.addEventListener('abort', () => signal.reason?.name === 'TestRunAbortError' && ctx.interrupt(), {
            once: true,
          });
          const outcome = await execute(c, ctx);
          if (signal.aborted || ctx.api.aborted) return skip('interrupted before this check finished');
          if (outcome.outcome === 'passed') return;
          if (outcome.outcome === 'skipped') return skip(outcome.message);
          const text = [outcome.message, ...outcome.evidence.map((e) => `Reproduce with: ${e.reproduce}`)].join('\n');
          if (req.level === 'SHOULD' && !config.strict) {
            await annotate(`SHOULD not met (warning): ${text}`, 'warning');
            return;
          }
          const err = new Error(
            `${req.level} ${outcome.outcome === 'error' ? 'could not be checked' : 'violated'}: ${text}`,
          );
          err.stack = err.message; // a violation is not a crash: no stack trace
          throw err;
        });
      }
    });
  }
}

/** Tests of the suite that vitest will run (not skipped by a filter). */
function testsToRun(suite: RunnerTestSuite): number {
  return suite.tasks.reduce(
    (n, t) => n + (t.type === 'suite' ? testsToRun(t) : t.mode === 'run' || t.mode === 'only' ? 1 : 0),
    0,
  );
}
