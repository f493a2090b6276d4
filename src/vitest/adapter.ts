// The one thin adapter from requirements to vitest tests. Test names start with the id, so
// `-t listPets.limit` filters and JUnit carries it; outcomes ride on task meta for reporters.
import { afterAll, beforeAll, describe, test, type RunnerTestSuite } from 'vitest';
import { describePacing } from '../wire/pacer.js';
import type { RunConfig } from '../config/config.js';
import type { Retries } from '../wire/wire.js';
import type { Pacing } from '../wire/pacer.js';
import { areaOf, execute, type Check, type CheckKind, type Outcome, type Requirement } from '../checks/requirement.js';
import { RunContext } from '../checks/run.js';
import { selectRequirements } from '../checks/select.js';

declare module 'vitest' {
  interface TaskMeta {
    requirement?: Omit<Requirement, 'check'>;
    kind?: CheckKind;
    outcome?: Outcome;
    /** Ids (exact digits) of pets created since the last test reported; the rest on the file task. */
    createdPets?: string[];
    /** On the file task: the tag in the name of every pet the run created. */
    runTag?: string;
    /** On the file task: HTTP requests the checks sent (each retry counts). */
    requests?: number;
    /** On a test: what its requests took beyond one send; on the file task: the run's, with the pacing. */
    retries?: Retries & { pacing?: Pacing };
  }
}

export function defineConformanceTests(checks: readonly Check[], config: RunConfig): void {
  const ctx = new RunContext(config);
  // The ledger reaches the reporter in pieces on each finished test, so an interrupted run
  // still reports the pets it created; whatever arrives after the last test rides on the file.
  let reported = 0;
  const newlyCreated = () => {
    const ids = ctx.ledger.slice(reported).map(String);
    reported = ctx.ledger.length;
    return ids;
  };
  // The run-wide Error rules wait for every other check: tell the context which ones vitest will
  // start (a -t filter leaves the others skipped, and a skipped test never settles).
  beforeAll(({}, file) => ctx.planChecks(testsToRun(file)));
  afterAll(async ({}, file) => {
    file.meta.createdPets = newlyCreated();
    file.meta.runTag = ctx.runTag;
    file.meta.requests = ctx.api.requestCount;
    file.meta.retries = { ...ctx.retries, pacing: ctx.api.pacing };
    const pacing = describePacing(ctx.api.pacing, ctx.api.retried.count);
    if (pacing) console.log(`petstore-conformance: ${pacing}`);
    await ctx.close();
  });
  const selectedIds = new Set(
    selectRequirements(
      checks.map((c) => c.requirement),
      config,
    ).map((r) => r.id),
  );
  const selected = checks.filter((c) => selectedIds.has(c.requirement.id));
  const areas = [...new Set(selected.map((c) => areaOf(c.requirement.id)))];
  for (const area of areas) {
    describe.concurrent(area, () => {
      for (const c of selected.filter((x) => areaOf(x.requirement.id) === area)) {
        const req = c.requirement;
        const { check: _check, ...data } = req;
        // Requirement data from collection on, so even a test that never finishes is reported.
        test(c.name, { meta: { requirement: data, kind: c.kind } }, async ({ task, skip, annotate, signal }) => {
          // Ctrl-C: vitest aborts the signals of running tests (not always all of them), and the
          // first one stops every request of the run at once, so it ends in moments instead of
          // waiting out timeouts. (A test's own timeout aborts its signal with another reason.)
          signal.addEventListener('abort', () => signal.reason?.name === 'TestRunAbortError' && ctx.interrupt(), {
            once: true,
          });
          const outcome = await execute(c, ctx);
          task.meta.createdPets = newlyCreated();
          const retries = ctx.retriesOf(c.name);
          if (retries) task.meta.retries = retries;
          // An interrupted check decided nothing: the reporter records it as undecided.
          if (signal.aborted || ctx.api.aborted) return skip('interrupted before this check finished');
          // A copy: excerpts of a response in the message or evidence may point into the whole
          // body (up to 8 MiB), which the task would otherwise keep alive for the rest of the run.
          task.meta.outcome = structuredClone(outcome);
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
