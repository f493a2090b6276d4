// The one thin adapter from requirements to vitest tests, for `npx vitest run --project
// conformance` (the command line runs the same checks without a test runner: src/run/checks.ts).
// Test names start with the id, so `-t listPets.limit` filters; a MUST not met fails its test, a
// SHOULD not met is an annotation (a failure with PETSTORE_STRICT). The order is the runner's:
// every ordinary check at once in its area's block; once those have ended, a last block for the
// run-wide rules and the fragile checks (see ChecksRunner.run).
import { afterAll, beforeAll, describe, test, type RunnerTestSuite, type TestContext } from 'vitest';
import { describePacing } from '../wire/pacer.js';
import type { RunConfig } from '../config/config.js';
import { areaOf, execute, judgeRun, type Check, type Outcome } from '../checks/requirement.js';
import { RunContext } from '../checks/run.js';
import { selectChecks } from '../checks/select.js';

export function defineConformanceTests(checks: readonly Check[], config: RunConfig): void {
  const ctx = new RunContext(config);
  afterAll(async () => {
    const pacing = describePacing(ctx.api.pacing, ctx.api.retried.count);
    if (pacing) console.log(`petstore-conformance: ${pacing}`);
    await ctx.close();
  });
  const selected = selectChecks(checks, config);
  const ordinary = selected.filter((c) => !c.judgeRun && !c.fragile);
  for (const area of new Set(ordinary.map((c) => areaOf(c.requirement.id))))
    describe.concurrent(area, () => {
      for (const c of ordinary.filter((x) => areaOf(x.requirement.id) === area))
        test(c.name, (t) => report(c, t, () => execute(c, ctx)));
    });
  // Not concurrent: vitest starts this block once the concurrent ones before it have ended. Its
  // hook runs the rest as the runner does: the run-wide rules' own cases, then the fragile checks;
  // each test then reports its outcome, a run-wide rule's being its verdict over the whole run.
  describe('after the other checks: the run-wide rules, the fragile checks', () => {
    const later = selected.filter((c) => c.judgeRun || c.fragile);
    const outcomes = new Map<Check, Promise<Outcome>>();
    beforeAll(async ({}, suite) => {
      const running = new Set(namesToRun(suite));
      const own = later.filter((c) => c.judgeRun && running.has(c.name)).map((c) => [c, execute(c, ctx)] as const);
      await Promise.all(own.map(([, o]) => o));
      const fragile = later.filter((c) => c.fragile && running.has(c.name));
      for (const c of fragile) outcomes.set(c, execute(c, ctx));
      await Promise.all(outcomes.values());
      for (const [c, o] of own)
        outcomes.set(
          c,
          o.then((settled) => judgeRun(c, ctx, settled)),
        );
    });
    for (const c of later) test(c.name, (t) => report(c, t, () => outcomes.get(c) ?? execute(c, ctx)));
  });

  async function report(c: Check, { skip, annotate, signal }: TestContext, outcomeOf: () => Promise<Outcome>) {
    // Ctrl-C: vitest aborts the signals of running tests (not always all of them), and the first
    // one stops every request of the run at once, so it ends in moments instead of waiting out
    // timeouts. (A test's own timeout aborts its signal with another reason.)
    signal.addEventListener('abort', () => signal.reason?.name === 'TestRunAbortError' && ctx.interrupt(), {
      once: true,
    });
    const outcome = await outcomeOf();
    if (signal.aborted || ctx.api.aborted) return skip('interrupted before this check finished');
    if (outcome.outcome === 'passed') return;
    if (outcome.outcome === 'skipped') return skip(outcome.message);
    const text = [outcome.message, ...outcome.evidence.map((e) => `Reproduce with: ${e.reproduce}`)].join('\n');
    if (c.requirement.level === 'SHOULD' && !config.strict) {
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
