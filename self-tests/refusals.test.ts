// Conforming servers that refuse large bodies or close connections the way popular stacks do
// (see refusal-servers.ts) get one verdict, CONFORMANT, run after run and seed after seed: an
// early answer is read and judged though the server closes under the upload, a close without an
// answer under a large upload is a refusal noted, and no POST is lost to a connection closing.
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { loadConfig, resolveRunConfig } from '../src/config.js';
import { createReferenceHandler } from '../src/reference-server/handler.js';
import { execute, type Outcome } from '../src/requirement.js';
import { RunContext } from '../src/run.js';
import { checks } from '../tests/catalogue.js';
import { refusalServer, type Refusal, type RefusalServer } from './refusal-servers.js';

const RUNS = 20;
/** Runs of one server at once: a run waits on its own answers more than it computes. */
const LANES = 2;
/** A hang guard, about ten times an honest run's 20 catalogues on a busy 2-core machine. */
const HANG_GUARD_MS = 600_000;

/** The whole catalogue once (runs: 1) against the reference handler behind `refusal`, as self-tests/harness/harness.ts runs it. */
async function runOnce(refusal: Refusal, seed: number): Promise<{ outcomes: Map<string, Outcome & { level: string }>; seen: RefusalServer['seen'] }> {
  const apiKey = `refusals-${randomBytes(6).toString('hex')}`;
  const server = await refusalServer(createReferenceHandler({ apiKey, basePath: '/v1' }), refusal);
  const target = resolveRunConfig(loadConfig({}, { dotenv: false }), { baseUrl: `${server.origin}/v1`, apiKey, embedded: true });
  const ctx = new RunContext(Object.freeze({ ...target, seed, timeoutMs: 10_000, runs: 1 }));
  const outcomes = new Map<string, Outcome & { level: string }>();
  ctx.planChecks(checks.length);
  try {
    await Promise.all(
      checks.map(async (c) => {
        const outcome = await execute(c, ctx);
        const prior = outcomes.get(c.requirement.id);
        // The worst outcome of a requirement's checks: a failure or an undecided one is kept.
        if (!prior || prior.outcome === 'passed' || prior.outcome === 'skipped') outcomes.set(c.requirement.id, { ...outcome, level: c.requirement.level });
      }),
    );
  } finally {
    await ctx.close();
    await server.close();
  }
  return { outcomes, seen: server.seen };
}

/** MUST requirements that failed or could not be decided: none, for one verdict (CONFORMANT). */
const unsettled = (outcomes: Map<string, Outcome & { level: string }>) =>
  [...outcomes].filter(([, o]) => o.level === 'MUST' && (o.outcome === 'failed' || o.outcome === 'error')).map(([id, o]) => `${id} (${o.outcome}): ${o.message ?? ''}`);

// The servers side by side, each run of a server with its own seed.
describe.concurrent('one verdict, CONFORMANT, in 20 runs in a row', () => {
  const servers: [string, (seed: number) => Refusal][] = [
    ['answers 413 with an Error body as soon as the head shows a large body, then closes under the upload', () => ({ kind: 'early-413' })],
    ['answers 400 with an Error body early, and reads the body to its end', () => ({ kind: 'early-400' })],
    ['resets the connection without an answer once a body passes 1 MiB', () => ({ kind: 'reset-large' })],
    ['closes a kept-alive connection as a request arrives on it, at random moments', (seed) => ({ kind: 'close-kept-alive', seed, p: 0.05 })],
  ];
  test.each(servers)('a server that %s', async (_what, refusal) => {
    const verdicts: string[][] = [];
    let refused = 0;
    const dropped: Record<string, number> = {};
    const lane = async (first: number) => {
      for (let run = first; run < RUNS; run += LANES) {
        const seed = 1000 + run;
        const { outcomes, seen } = await runOnce(refusal(seed), seed);
        verdicts.push(unsettled(outcomes).map((u) => `seed ${seed}: ${u}`));
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
  }, HANG_GUARD_MS);
});

test.concurrent('an early 413 with an HTML page fails errors.refused-body', async () => {
  const { outcomes } = await runOnce({ kind: 'early-413-html' }, 7);
  expect(outcomes.get('errors.refused-body')?.outcome).toBe('failed');
  expect(outcomes.get('errors.refused-body')?.message).toMatch(/MiB/);
}, HANG_GUARD_MS / RUNS);
