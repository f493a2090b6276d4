// Runs a property with fast-check, seeded from the run seed so PETSTORE_SEED replays it input for
// input, within the run's write budget. A falsified property becomes one Violation: the finding
// about the shrunk input, the counterexample, how to replay it, and the failing exchange.
import fc from 'fast-check';
import { Violation } from './requirement.js';
import type { CreateAllowance, RunContext } from './run.js';

/** What a property's predicate can use besides its input. */
export interface Trial {
  /** A name unique in the run that carries the run tag (`<tag> <label><n>`), then `text`. */
  tagged(text?: string): string;
  /** Before requests that may create `n` pets: takes them from the allowance, or skips this input when it cannot. */
  take(n?: number): void;
  /** After requests that created nothing: their creations can be taken again. */
  giveBack(n?: number): void;
  /** Creations still available (0 for a property that creates nothing). */
  left(): number;
}

export interface PropertySpec<T> {
  /** Short and unique: mixed into the run seed (so properties draw different inputs) and into pet names. */
  label: string;
  arbitrary: fc.Arbitrary<T>;
  /** Throws a Violation when the target breaks the rule for this input. */
  predicate: (value: T, trial: Trial) => Promise<void>;
  /** Runs wanted; PETSTORE_RUNS by default. Fewer are made when the write allowance is smaller. */
  runs?: number;
  /**
   * For properties that may create pets: pets per run (0: only a server that breaks the rule
   * creates one), and this property's weight of the properties' share of the budget.
   */
  creates?: { perRun: number; weight: number };
  /** How the counterexample reads in the report (fast-check's rendering by default). */
  show?: (value: T) => string;
}

/** Creations kept aside for shrinking a failure (at most a quarter of the allowance). */
const SHRINK_CREATES = 200;

/** A seed per property, fixed by the run seed and the property's label. */
export function seedFor(runSeed: number, label: string): number {
  let h = 0x811c9dc5;
  for (const c of label) h = Math.imul(h ^ (c.codePointAt(0) ?? 0), 0x01000193);
  return (h ^ runSeed) | 0;
}

/** Runs that fit: PETSTORE_RUNS (or `wanted`), fewer when the allowance cannot pay for them and for shrinking. */
export function runsWithin(allowance: number, perRun: number, wanted: number): number {
  const forShrinking = Math.min(SHRINK_CREATES, Math.floor(allowance / 4));
  return Math.max(1, Math.min(wanted, Math.floor((allowance - forShrinking) / perRun)));
}

/** Checks that the predicate holds for generated inputs; throws the Violation of the shrunk counterexample. */
export async function checkProperty<T>(ctx: RunContext, spec: PropertySpec<T>): Promise<void> {
  const wanted = spec.runs ?? ctx.config.runs;
  let allowance: CreateAllowance | undefined;
  let numRuns = wanted;
  if (spec.creates) {
    const { perRun, weight } = spec.creates;
    allowance = ctx.propertyCreates(weight, wanted * perRun + SHRINK_CREATES, `the property "${spec.label}"`);
    if (perRun > 0) numRuns = runsWithin(allowance.size, perRun, wanted);
  }
  let counter = 0;
  let starved = 0;
  const trial: Trial = {
    tagged: (text) => `${ctx.runTag} ${spec.label}${++counter}${text === undefined ? '' : ` ${text}`}`,
    take: (n = 1) => {
      if (!allowance || allowance.left < n) {
        starved++;
        fc.pre(false);
      }
      for (let i = 0; i < n; i++) allowance?.take();
    },
    giveBack: (n = 1) => {
      for (let i = 0; i < n; i++) allowance?.giveBack();
    },
    left: () => allowance?.left ?? 0,
  };
  // Anything but a finding (transport failure, suite error) ends the property: later inputs are
  // answered with the same error at once instead of sending more requests while shrinking.
  let fatal: { error: unknown } | undefined;
  const property = fc.asyncProperty(spec.arbitrary, async (value) => {
    if (fatal) throw fatal.error;
    try {
      await spec.predicate(value, trial);
    } catch (error) {
      if (!(error instanceof Violation) && !fc.PreconditionFailure.isFailure(error)) fatal = { error };
      throw error;
    }
  });
  const seed = seedFor(ctx.config.seed, spec.label);
  try {
    const details = await fc.check(property, { seed, numRuns, maxSkipsPerRun: 1000 });
    if (fatal) throw fatal.error;
    if (!details.failed) return;
    const error = details.errorInstance;
    if (!(error instanceof Violation)) {
      throw error instanceof Error ? error : new Error(`property "${spec.label}" gave up: ${String(error ?? 'too many skipped inputs')}`);
    }
    const value = (details.counterexample ?? [])[0] as T;
    const shown = spec.show ? spec.show(value) : fc.stringify(value);
    const cut = starved > 0 && allowance?.left === 0 ? '; shrinking stopped early: the write allowance was spent' : '';
    throw new Violation(
      [
        error.message,
        `Counterexample (found at run ${details.numRuns} of ${numRuns}, shrunk ${details.numShrinks} times${cut}): ${shown}`,
        `Replay: PETSTORE_SEED=${ctx.config.seed} replays it (fast-check seed ${seed}, path "${details.counterexamplePath ?? ''}")`,
      ].join('\n'),
      error.evidence,
    );
  } finally {
    allowance?.close();
  }
}
