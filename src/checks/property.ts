// Runs a property with fast-check, seeded from the run seed so PETSTORE_SEED replays it input for
// input, within the run's write budget. A falsified property becomes one Violation: the finding
// about the shrunk input, the counterexample, how to replay it, and the failing exchange.
//
// The inputs are those of fast-check's own sequential run, but up to RUNS_IN_FLIGHT of them are
// checked at once, in order, so a property costs a few round trips of latency instead of one per
// run (WIDE_RUNS_IN_FLIGHT for long chains, and for one that creates only by mistake once the
// ordinary checks have ended). After a failure the rest of the window still runs and no later
// input: which inputs run, and so which failure is reported (the earliest), never depends on
// timing. That failure is then replayed alone by fast-check and shrunk.
import fc from 'fast-check';
import { Violation } from './outcomes.js';
import { quoted } from '../wire/redact.js';
import { joined, msg, words, type Message } from './message.js';
import type { CreateAllowance, RunContext } from './context.js';
import { Creations, trialFor, type Trial } from './trial.js';
import { replayCases } from './property-replay.js';
import type { PropertyCase } from '../data/generated/report-types.js';

export type { Trial } from './trial.js';

export interface PropertySpec<T> {
  /** Short and unique: mixed into the run seed (so properties draw different inputs) and into pet names. */
  label: Message;
  arbitrary: fc.Arbitrary<T>;
  /**
   * Throws a Violation when the target breaks the rule for this input. `ctx`: the check's context
   * with this run's write allowance: its requests go through it, never the check's own.
   */
  predicate: (value: T, trial: Trial, ctx: RunContext) => Promise<void>;
  /** Runs wanted; PETSTORE_RUNS by default. Fewer are made when the write allowance is smaller. */
  runs?: number;
  /**
   * For properties that may create pets: pets per run (0: only a server that breaks the rule
   * creates one), and this property's weight of the properties' share of the budget.
   */
  creates?: { perRun: number; weight: number };
  /** How the counterexample reads in the report (fast-check's rendering by default). */
  show?: (value: T) => string;
  /**
   * Inputs checked before the generated ones on every seed: what generators reach only by luck, so
   * whether the property catches a fault never depends on the seed. Reported as they are (not shrunk).
   */
  examples?: readonly T[];
  /** Runs checked at once, when not RUNS_IN_FLIGHT: for runs that are long chains (WIDE_RUNS_IN_FLIGHT). */
  inFlight?: number;
}

const PASSED_AGAIN = msg`which passed when sent once more: the case shown is the one that failed (the failure may depend on the server's state)`;

/** Creations kept aside for shrinking a failure (at most a quarter of the allowance). */
const SHRINK_CREATES = 200;

/** Runs of one property checked at once. */
export const RUNS_IN_FLIGHT = 8;
/**
 * Runs at once of a property whose runs are long chains (the model's sequences: a dozen requests,
 * each waiting for the one before), and of one whose requests create only on a broken server once
 * the ordinary checks have ended (RunContext.late) and it is nearly alone: in waves
 * of 8, either would end a remote run with round trips one after another.
 */
export const WIDE_RUNS_IN_FLIGHT = 16;

/** A seed per property, fixed by the run seed and the property's label. */
export function seedFor(runSeed: number, label: string): number {
  let h = 0x811c9dc5;
  for (const c of label) h = Math.imul(h ^ (c.codePointAt(0) ?? 0), 0x01000193);
  return (h ^ runSeed) | 0;
}

function shrinkReserve(allowance: number): number {
  return Math.min(SHRINK_CREATES, Math.floor(allowance / 4));
}

/** Runs that fit: PETSTORE_RUNS (or `wanted`), fewer when the allowance cannot pay for them and for shrinking. */
export function runsWithin(allowance: number, perRun: number, wanted: number): number {
  return Math.max(1, Math.min(wanted, Math.floor((allowance - shrinkReserve(allowance)) / perRun)));
}

/** What a property may spend and how it runs: its allowance, its runs, a run's share, the window. */
interface Plan {
  allowance: CreateAllowance | undefined;
  numRuns: number;
  /**
   * A run's even share of what the allowance holds for runs: what left() reports, so a run that
   * plans its creates by it (a model sequence) plans the same whatever the other runs did.
   */
  share: number;
  inFlight: number;
}

function plan<T>(ctx: RunContext, spec: PropertySpec<T>): Plan {
  const wanted = spec.runs ?? ctx.config.runs;
  // A run that creates only on a broken server holds a creation while its request is out. Once the
  // ordinary checks have ended nothing else wants the budget, so a window of them go at once, not
  // one after another (a fragile property on a remote server: a round trip per run).
  const aloneByMistake = spec.creates?.perRun === 0 && ctx.late;
  const inFlight = aloneByMistake ? WIDE_RUNS_IN_FLIGHT : (spec.inFlight ?? RUNS_IN_FLIGHT);
  if (!spec.creates) return { allowance: undefined, numRuns: wanted, share: 0, inFlight };
  const { perRun, weight } = spec.creates;
  const atOnce = aloneByMistake ? inFlight : 1;
  const what = msg`the property "${spec.label}"`;
  const allowance = ctx.propertyCreates(weight, wanted * perRun + SHRINK_CREATES, what, atOnce);
  const numRuns = perRun > 0 ? runsWithin(allowance.size, perRun, wanted) : wanted;
  const share = Math.max(perRun, Math.floor((allowance.size - shrinkReserve(allowance.size)) / numRuns));
  return { allowance, numRuns, share, inFlight };
}

/** The examples, then the inputs fast-check's sequential run draws, in its order (a dry run: no request). */
function drawInputs<T>(spec: PropertySpec<T>, examples: readonly T[], seed: number, numRuns: number): T[] {
  const inputs: T[] = [...examples];
  fc.check(
    fc.property(spec.arbitrary, (value) => {
      inputs.push(value);
    }),
    { seed, numRuns },
  );
  return inputs;
}

/** How one run ended: the inputs it found no allowance for, and what it threw, if it threw. */
type RunEnd = { starved: number } | { starved: number; cause: unknown };

/** What the window of runs left: the failures by input, anything fatal, the runs that found no allowance. */
interface Ran {
  failures: Map<number, Violation>;
  fatal?: { error: unknown };
  starved: number;
}

/**
 * Runs the inputs in a sliding window: input i starts once every input before i - inFlight has
 * finished. After a failure the rest of the window still runs and no later input, so which inputs
 * run never depends on timing. Anything but a finding (transport failure, suite error) is fatal.
 */
async function runWindow<T>(
  inputs: readonly T[],
  inFlight: number,
  runOne: (index: number) => Promise<RunEnd>,
): Promise<Ran> {
  const ran: Ran = { failures: new Map(), starved: 0 };
  let limit = inputs.length;
  const one = async (index: number): Promise<void> => {
    const end = await runOne(index);
    ran.starved += end.starved;
    if ('cause' in end) {
      const { cause } = end;
      if (cause instanceof Violation) {
        ran.failures.set(index, cause);
        // Every input started so far lies before index + inFlight (the window).
        limit = Math.min(limit, index + inFlight);
      } else if (!fc.PreconditionFailure.isFailure(cause)) ran.fatal ??= { error: cause };
    }
  };
  await new Promise<void>((resolve) => {
    const finished = new Uint8Array(inputs.length);
    let lowest = 0;
    let next = 0;
    let running = 0;
    const pump = () => {
      while (!ran.fatal && next < limit && next < lowest + inFlight) {
        const index = next++;
        running++;
        void one(index).then(() => {
          running--;
          finished[index] = 1;
          while (lowest < inputs.length && finished[lowest]) lowest++;
          pump();
        });
      }
      if (running === 0) resolve();
    };
    pump();
  });
  return ran;
}

/** Checks that the predicate holds for generated inputs; throws the Violation of the shrunk counterexample. */
export async function checkProperty<T>(ctx: RunContext, spec: PropertySpec<T>): Promise<void> {
  const { allowance, numRuns, share, inFlight } = plan(ctx, spec);
  const creations = new Creations(allowance);
  const seed = seedFor(ctx.propertySeed, spec.label);
  // A soak round's names differ from the run's; its examples were checked by the run itself.
  const tag = ctx.soakRound ? `${spec.label}~${ctx.soakRound}-` : `${spec.label}`;
  try {
    const replaying = ctx.replaying(spec.label);
    if (replaying) return await replayCases(ctx, spec, replaying, { seed, creations, share, tag });
    const examples = ctx.soakRound ? [] : (spec.examples ?? []);
    const inputs = drawInputs(spec, examples, seed, numRuns);
    const ran = await runWindow(inputs, inFlight, async (index) => {
      const trial = trialFor(ctx, creations, `${tag}${index + 1}`, share);
      ctx.propertyCases++;
      let thrown: { cause: unknown } | undefined;
      try {
        await spec.predicate(inputs[index] as T, trial, ctx.withWrites(trial.writes));
      } catch (cause) {
        thrown = { cause };
      }
      trial.end();
      return { starved: trial.starved, ...thrown };
    });
    if (ran.fatal) throw ran.fatal.error;
    if (ran.starved > 0 && ran.starved === inputs.length)
      throw new Error(`property "${spec.label}" gave up: every input was skipped (write allowance spent)`);
    if (ran.failures.size === 0) return;
    const first = Math.min(...ran.failures.keys());
    const found = ran.failures.get(first) as Violation;
    // A soak round's case has a seed of its own, which replay does not take.
    const record = (found: PropertyCase) => ctx.soakRound === 0 && ctx.caseFound(found);
    if (first < examples.length) {
      record({ label: spec.label, example: first });
      throw exampleFailed(spec, inputs[first] as T, first, examples.length, found);
    }
    await shrinkAndReport(
      ctx,
      spec,
      { seed, numRuns, tag, creations, allowance, record },
      inputs[first] as T,
      first - examples.length,
      found,
    );
  } finally {
    allowance?.close();
  }
}

/** An example's failure, as it is (examples are not shrunk). */
function exampleFailed<T>(spec: PropertySpec<T>, value: T, index: number, count: number, found: Violation): Violation {
  const shown = quoted(spec.show ? spec.show(value) : fc.stringify(value));
  return new Violation(
    joined(
      [
        found.message,
        msg`Counterexample (example ${index + 1} of ${count}, checked on every seed, so any PETSTORE_SEED replays it; examples are not shrunk): ${shown}`,
      ],
      msg`\n`,
    ),
    found.evidence,
    found.causes,
  );
}

interface Shrinking {
  seed: number;
  numRuns: number;
  tag: string;
  creations: Creations;
  allowance: CreateAllowance | undefined;
  /** Records the case reported, for `replay`. */
  record: (found: PropertyCase) => void;
}

/**
 * The earliest failing input (the `drawn`-th fast-check drew, `found` its violation), replayed
 * alone by fast-check (path = its index) and shrunk; throws the Violation to report.
 */
async function shrinkAndReport<T>(
  ctx: RunContext,
  spec: PropertySpec<T>,
  { seed, numRuns, tag, creations, allowance, record }: Shrinking,
  failed: T,
  drawn: number,
  found: Violation,
): Promise<never> {
  let fatal: { error: unknown } | undefined;
  const stopIfFatal = () => {
    if (fatal) throw fatal.error;
  };
  let shrinks = 0;
  let shrinkStarved = 0;
  let spent = false;
  /** Whether `value` breaks the rule once more (undefined: no creation left to send it). */
  const failsAgain = async (value: T): Promise<boolean | undefined> => {
    const trial = trialFor(ctx, creations, `${tag}r`, Infinity);
    try {
      await spec.predicate(value, trial, ctx.withWrites(trial.writes));
      return false;
    } catch (error) {
      if (error instanceof Violation) return true;
      if (fc.PreconditionFailure.isFailure(error)) return undefined;
      throw error;
    } finally {
      trial.end();
    }
  };
  const property = fc.asyncProperty(spec.arbitrary, async (value) => {
    stopIfFatal();
    // Once the allowance is spent no candidate can be tried: none counts as failing, so the
    // shrink ends where it is (skipping each instead spins through fast-check's 1000 skips per
    // candidate without yielding, holding every other check's requests).
    if (spent) return;
    const trial = trialFor(ctx, creations, `${tag}s${++shrinks}`, Infinity);
    try {
      await spec.predicate(value, trial, ctx.withWrites(trial.writes));
    } catch (error) {
      if (!(error instanceof Violation) && !fc.PreconditionFailure.isFailure(error)) fatal = { error };
      throw error;
    } finally {
      trial.end();
      shrinkStarved += trial.starved;
      if (trial.starved > 0 && (allowance?.left ?? 0) === 0) spent = true;
    }
  });
  const details = await fc.check(property, { seed, numRuns, path: String(drawn), maxSkipsPerRun: 1000 });
  stopIfFatal();
  const shrunk = details.failed && details.errorInstance instanceof Violation;
  const showOf = (v: T) => quoted(spec.show ? spec.show(v) : fc.stringify(v));
  // The shrunk case, sent once more: a server whose failure depends on state (after N creations)
  // may pass it now; then the report shows the case that failed, and says the shrink did not hold.
  const held = shrunk && (await failsAgain((details.counterexample ?? [])[0] as T));
  const replayed = shrunk && held !== false;
  const error = replayed ? (details.errorInstance as Violation) : found;
  const value = replayed ? ((details.counterexample ?? [])[0] as T) : failed;
  const shown = showOf(value);
  const cut =
    shrinkStarved > 0 && (allowance?.left ?? 0) === 0
      ? msg`; shrinking stopped early: the write allowance was spent`
      : msg``;
  // Not shrunk: say the real reason (no allowance left to replay it, or a replay that passed).
  const how = replayed
    ? msg`shrunk ${details.numShrinks} times${cut}${held === undefined ? msg`; not sent again: no write allowance was left` : msg``}`
    : shrunk
      ? msg`shrunk ${details.numShrinks} times to ${showOf((details.counterexample ?? [])[0] as T)}, ${PASSED_AGAIN}`
      : shrinkStarved > 0 || spent
        ? msg`not shrunk: no write allowance was left to replay it`
        : msg`not shrunk: it did not fail again when replayed alone (it may depend on what ran beside it)`;
  // fast-check's replay path (indices and colons): the suite's own words, never the wire's.
  const path = replayed ? words(details.counterexamplePath ?? '') : msg`${drawn}`;
  record({ label: spec.label, path });
  throw new Violation(
    joined(
      [
        error.message,
        msg`Counterexample (found at run ${drawn + 1} of ${numRuns}, ${how}): ${shown}`,
        msg`Replay: PETSTORE_SEED=${ctx.propertySeed} replays it (fast-check seed ${seed}, path "${path}")`,
      ],
      msg`\n`,
    ),
    error.evidence,
    error.causes,
  );
}
