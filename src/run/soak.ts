// --soak DURATION: after the run, its properties again, each round with the next run seed, until
// the time is spent (a nightly search beyond the seed of the day). A property that fails in a
// round fails its requirement, with the seed that replays it; one that failed already, or whose
// share of the write budget is spent, is not run again. The default run never comes here.
import { execute, type Check, type Outcome } from '../checks/requirement.js';
import type { RunContext } from '../checks/context.js';
import type { RunSoak } from '../report/results.js';

/** The run seed of soak round `round` (1, 2, …): the next seeds after the run's, as PETSTORE_SEED takes them. */
export const soakSeed = (runSeed: number, round: number): number => (runSeed + round) | 0;

/**
 * Runs the properties among `checks` round after round while `ms` have not passed since it began
 * (a round begun runs to its end; the first always runs). `found` takes each new finding: a property that passed (or was
 * skipped) in the run and failed in a round.
 */
export async function soak(
  ctx: RunContext,
  checks: readonly Check[],
  ms: number,
  found: (check: Check, outcome: Outcome) => Promise<void>,
): Promise<RunSoak> {
  const began = performance.now();
  const casesBefore = ctx.propertyCases;
  const findings: RunSoak['findings'] = [];
  const stopped: RunSoak['stopped'] = [];
  // The fragile ones last, as in the run: what may crash a fragile target is judged after the rest.
  let running = [...checks.filter((c) => !c.fragile), ...checks.filter((c) => c.fragile)];
  let round = 0;
  let lastAt = 0;
  // The first round always runs: a soak asked for is never zero rounds, however short or busy.
  const timeLeft = () => round === 0 || performance.now() - began < ms;
  while (running.length > 0 && timeLeft() && !ctx.client.aborted && !ctx.watch.lost()) {
    ctx.soakRound = ++round;
    ctx.propertySeed = soakSeed(ctx.config.seed, round);
    const outcomes = await Promise.all(running.map((c) => execute(c, ctx, true)));
    const next: Check[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      const check = running[i] as Check;
      if (outcome.outcome === 'passed') next.push(check);
      else stopped.push({ property: check.name, round, reason: reasonOf(outcome) });
      if (outcome.outcome !== 'failed') continue;
      lastAt = performance.now() - began;
      findings.push({ requirement: check.requirement.id, round, seed: ctx.propertySeed, atMs: Math.round(lastAt) });
      await found(check, {
        ...outcome,
        // The violation first, as in the run; then where the search found it.
        message:
          `${outcome.message ?? ''}\nFound by --soak in round ${round} (run seed ${ctx.propertySeed}), ${seconds(lastAt)} after it began; the ` +
          `run's own seed passed.`,
      });
    }
    running = next;
  }
  const spent = performance.now() - began;
  ctx.soakRound = 0;
  ctx.propertySeed = ctx.config.seed;
  return {
    askedMs: ms,
    spentMs: Math.round(spent),
    rounds: round,
    ...(round > 0 ? { seeds: { first: soakSeed(ctx.config.seed, 1), last: soakSeed(ctx.config.seed, round) } } : {}),
    cases: ctx.propertyCases - casesBefore,
    findings,
    sinceLastFindingMs: Math.round(spent - lastAt),
    stopped,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function reasonOf(o: Outcome): string {
  const first = (o.message ?? '').split('\n')[0] ?? '';
  return o.outcome === 'failed' ? 'failed' : `${o.outcome === 'skipped' ? 'skipped' : 'could not decide'}: ${first}`;
}
