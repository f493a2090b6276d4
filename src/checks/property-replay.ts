// `replay`: a property's failing cases as its report recorded them (RunContext.caseFound), each sent
// alone and judged by the property's own predicate, instead of every input a run draws. The
// report's seed and fast-check's path (or the example's index) draw the same input again.
import fc from 'fast-check';
import { Violation } from './outcomes.js';
import { quoted } from '../wire/redact.js';
import { joined, msg, words } from './message.js';
import type { PropertyCase } from '../data/generated/report-types.js';
import type { RunContext } from './context.js';
import { trialFor, type Creations, type Trial } from './trial.js';

/** What of a property (its PropertySpec) a replay needs. */
interface Replayed<T> {
  label: string;
  arbitrary: fc.Arbitrary<T>;
  predicate: (value: T, trial: Trial, ctx: RunContext) => Promise<void>;
  show?: (value: T) => string;
  examples?: readonly T[];
}

/** The input at fast-check's `path` for `seed` (a run's index, then its shrinks), drawn without a request. */
function drawnAt<T>(arbitrary: fc.Arbitrary<T>, seed: number, path: string): T | undefined {
  let found: { value: T } | undefined;
  fc.check(
    fc.property(arbitrary, (value) => {
      found = { value };
      return false;
    }),
    { seed, path, endOnFailure: true },
  );
  return found?.value;
}

/** Sends each recorded case once; the first that breaks the rule again is the check's finding. */
export async function replayCases<T>(
  ctx: RunContext,
  spec: Replayed<T>,
  cases: readonly PropertyCase[],
  { seed, creations, share, tag }: { seed: number; creations: Creations; share: number; tag: string },
): Promise<void> {
  for (const [i, recorded] of cases.entries()) {
    const value =
      recorded.example !== undefined
        ? spec.examples?.[recorded.example]
        : drawnAt(spec.arbitrary, seed, recorded.path ?? '');
    // A report of another version of the suite: its case is not one this catalogue draws.
    if (value === undefined)
      throw new Error(
        `the report's case ${JSON.stringify(recorded)} of property "${spec.label}" is not one this suite draws`,
      );
    const trial = trialFor(ctx, creations, `${tag}p${i + 1}`, share);
    ctx.propertyCases++;
    try {
      await spec.predicate(value, trial, ctx.withWrites(trial.writes));
    } catch (error) {
      if (!(error instanceof Violation)) throw error;
      const shown = quoted(spec.show ? spec.show(value) : fc.stringify(value));
      const which =
        recorded.example !== undefined
          ? msg`example ${recorded.example + 1}`
          : msg`path "${words(recorded.path ?? '')}"`;
      throw new Violation(
        joined([error.message, msg`Counterexample (the report's, ${which}, sent again): ${shown}`], msg`\n`),
        error.evidence,
        error.causes,
      );
    } finally {
      trial.end();
    }
  }
}
