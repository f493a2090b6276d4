// Conforming servers that refuse large bodies or close connections the way popular stacks do
// (see refusal-servers.ts) get one verdict, CONFORMANT, run after run and seed after seed: an
// early answer is read and judged though the server closes under the upload, a close without an
// answer under a large upload is a refusal noted, and no POST is lost to a connection closing.
import { describe, expect, test } from 'vitest';
import type { Handler } from '../../src/reference-server/handler.js';
import type { Level } from '../../src/checks/requirement.js';
import { catalogue } from '../../tests/catalogue.js';
import { failing, runCatalogueAgainst, type HarnessRun } from '../harness/harness.js';
import { refusalServer, type Refusal, type RefusalServer } from '../hostile/refusal-servers.js';

const LEVELS = new Map<string, Level>(catalogue.map((r) => [r.id, r.level]));

const RUNS = 20;
/** Runs of one server at once: a run waits on its own answers more than it computes. */
const LANES = 2;
/** A hang guard, some 10 times an honest run's 20 catalogues on a 2-core machine beside two busy loops. */
const HANG_GUARD_MS = 1_200_000;

/** The whole catalogue once (runs: 1) against the reference handler behind `refusal`. */
async function runOnce(refusal: Refusal, seed: number): Promise<{ run: HarnessRun; seen: RefusalServer['seen'] }> {
  let seen: RefusalServer['seen'] | undefined;
  const serveWith = async (handler: Handler) => {
    const server = await refusalServer(handler, refusal);
    seen = server.seen;
    return server;
  };
  const run = await runCatalogueAgainst((h) => h, { config: { seed, runs: 1 }, serveWith });
  return { run, seen: seen as RefusalServer['seen'] };
}

/** MUST requirements that failed or could not be decided: none, for one verdict (CONFORMANT). */
const unsettled = (run: HarnessRun) =>
  failing(run)
    .filter((id) => LEVELS.get(id) === 'MUST')
    .map((id) => `${id} (${run.outcomes.get(id)?.outcome}): ${run.outcomes.get(id)?.message ?? ''}`);

// The servers side by side, each run of a server with its own seed.
describe.concurrent('one verdict, CONFORMANT, in 20 runs in a row', () => {
  const servers: [string, (seed: number) => Refusal][] = [
    [
      'answers 413 with an Error body as soon as the head shows a large body, then closes under the upload',
      () => ({ kind: 'early-413' }),
    ],
    ['answers 400 with an Error body early, and reads the body to its end', () => ({ kind: 'early-400' })],
    ['resets the connection without an answer once a body passes 1 MiB', () => ({ kind: 'reset-large' })],
    [
      'closes a kept-alive connection as a request arrives on it, at random moments',
      (seed) => ({ kind: 'close-kept-alive', seed, p: 0.05 }),
    ],
  ];
  test.each(servers)(
    'a server that %s',
    async (_what, refusal) => {
      const verdicts: string[][] = [];
      let refused = 0;
      const dropped: Record<string, number> = {};
      const lane = async (first: number) => {
        for (let run = first; run < RUNS; run += LANES) {
          const seed = 1000 + run;
          const { run: result, seen } = await runOnce(refusal(seed), seed);
          verdicts.push(unsettled(result).map((u) => `seed ${seed}: ${u}`));
          refused += seen.refused;
          for (const [method, n] of Object.entries(seen.dropped)) dropped[method] = (dropped[method] ?? 0) + n;
        }
      };
      await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
      expect(verdicts).toHaveLength(RUNS);
      expect(verdicts.flat()).toEqual([]);
      // The behaviour was met: bodies refused, or connections closed under requests (never a POST's).
      if (refusal(0).kind === 'close-kept-alive') {
        expect(dropped.GET ?? 0).toBeGreaterThan(0);
        expect(dropped.POST ?? 0).toBe(0);
      } else expect(refused).toBeGreaterThanOrEqual(RUNS);
    },
    HANG_GUARD_MS,
  );
});

test.concurrent(
  'an early 413 with an HTML page fails errors.refused-body',
  async () => {
    const { run } = await runOnce({ kind: 'early-413-html' }, 7);
    expect(run.outcomes.get('errors.refused-body')?.outcome).toBe('failed');
    expect(run.outcomes.get('errors.refused-body')?.message).toMatch(/MiB/);
  },
  // One catalogue, beside the 20-run tests above: a tenth of this was once not enough on a busy machine.
  HANG_GUARD_MS / 4,
);
