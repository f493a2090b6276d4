// The one thin adapter from requirements to vitest tests. Test names start with the id, so
// `-t listPets.limit` filters and JUnit carries it; outcomes ride on task meta for reporters.
import { afterAll, describe, test } from 'vitest';
import type { RunConfig } from '../config.js';
import { areaOf, execute, type Outcome, type Requirement } from '../requirement.js';
import { RunContext } from '../run.js';
import { selectRequirements } from '../select.js';

declare module 'vitest' {
  interface TaskMeta {
    requirement?: Omit<Requirement, 'check'>;
    outcome?: Outcome;
  }
}

export function testName(req: Requirement): string {
  return `${req.id} ${req.statement}`;
}

export function defineConformanceTests(catalogue: readonly Requirement[], config: RunConfig): void {
  const ctx = new RunContext(config);
  afterAll(() => ctx.close());
  const selected = selectRequirements(catalogue, config);
  const areas = [...new Set(selected.map((r) => areaOf(r.id)))];
  for (const area of areas) {
    describe.concurrent(area, () => {
      for (const req of selected.filter((r) => areaOf(r.id) === area)) {
        test(testName(req), async ({ task, skip, annotate }) => {
          const { check: _check, ...data } = req;
          const outcome = await execute(req, ctx);
          task.meta.requirement = data;
          task.meta.outcome = outcome;
          if (outcome.outcome === 'passed') return;
          if (outcome.outcome === 'skipped') return skip(outcome.message);
          const text = [outcome.message, ...outcome.evidence.map((e) => `Reproduce with: ${e.reproduce}`)].join('\n');
          if (req.level === 'SHOULD' && !config.strict) {
            await annotate(`SHOULD not met (warning): ${text}`, 'warning');
            return;
          }
          const err = new Error(`${req.level} ${outcome.outcome === 'error' ? 'could not be checked' : 'violated'}: ${text}`);
          err.stack = err.message; // a violation is not a crash: no stack trace
          throw err;
        });
      }
    });
  }
}
