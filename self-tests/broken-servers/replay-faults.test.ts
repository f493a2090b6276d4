// `replay` on every fault of the harness. The fault's requirement (with those run beside it) runs
// against the fault; its report is replayed against the fault (STILL FAILING) and against the
// reference server built with the fault's options (FIXED); a failed property sends only the case
// its report recorded. A fault whose failure a replay cannot send again is listed below with why.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { replay, runConformance, type Replay } from '../../src/run/api.js';
import { createReferenceHandler } from '../../src/reference-server/handler.js';
import { serve } from '../../src/reference-server/http.js';
import { faults } from '../harness/faults/index.js';
import { HARNESS_SEED, inParallel } from '../harness/harness.js';
import type { Fault } from '../harness/faults-kit.js';

/** Faults whose failure depends on what a replay does not send again, and why. */
const NOT_REPLAYABLE: Record<string, string> = {
  'fail-under-load': 'it fails only under the load of a whole run',
};

interface Replayed {
  fault: Fault;
  failed: string[];
  still: Replay;
  fixed: Replay;
  ms: number;
  /** Requests the run sent. */
  ran: number;
  /** Failing property cases its report recorded. */
  cases: number;
}

let rows: Replayed[];

async function replayFault(fault: Fault): Promise<Replayed> {
  const apiKey = `self-test-${randomBytes(9).toString('hex')}`;
  const faulty = await serve(fault.wrap(createReferenceHandler({ apiKey, ...fault.options }), apiKey));
  // The reference server's clock is the suite's (a fault's own clock may be what it breaks).
  const { now: _faultClock, ...options } = fault.options ?? {};
  const clock = fault.config?.now;
  const reference = await serve(
    createReferenceHandler({ apiKey, ...options, ...(clock ? { now: () => new Date(clock) } : {}) }),
  );
  try {
    const results = await runConformance({
      target: `${faulty.origin}/v1`,
      apiKey,
      only: [fault.breaks, ...(fault.alongside ?? [])],
      seed: HARNESS_SEED,
      ...(fault.config?.now ? { now: new Date(fault.config.now) } : {}),
    });
    const failed = results.requirements.filter((r) => r.outcome === 'failed').map((r) => r.id);
    const started = performance.now();
    const still = await replay(results, { target: `${faulty.origin}/v1`, apiKey });
    const fixed = await replay(results, { target: `${reference.origin}/v1`, apiKey });
    const cases = results.requirements.flatMap((r) => r.checks.flatMap((c) => c.cases ?? [])).length;
    return { fault, failed, still, fixed, ms: performance.now() - started, ran: results.run.requests ?? 0, cases };
  } finally {
    await Promise.all([faulty.close(), reference.close()]);
  }
}

beforeAll(async () => {
  rows = await inParallel(faults, 4, replayFault);
  const ms = rows.reduce((n, r) => n + r.ms, 0);
  const replayed = rows.reduce((n, r) => n + r.still.requirements.length + r.fixed.requirements.length, 0);
  const requests = rows.reduce((n, r) => n + r.still.requests + r.fixed.requests, 0);
  console.log(
    `replay on ${rows.length} faults: ${replayed} requirements replayed, ${requests} requests, ` +
      `${Math.round(ms / Math.max(1, replayed))} ms per requirement`,
  );
  // A guard against a hang, far above an honest run (its time is printed above).
}, 600_000);

describe('replay on every fault', () => {
  test('each fault fails its own requirement, and a replay of every failed one says STILL FAILING against it', () => {
    const wrong = rows
      .filter((r) => !(r.fault.name in NOT_REPLAYABLE))
      .flatMap(({ fault, failed, still }) => [
        ...(failed.includes(fault.breaks) ? [] : [`${fault.name}: ${fault.breaks} did not fail`]),
        ...still.requirements
          .filter((x) => x.verdict !== 'STILL FAILING')
          .map((x) => `${fault.name}: ${x.id} ${x.verdict} ${x.detail ?? ''}`),
      ]);
    expect(wrong).toEqual([]);
  });

  test('every requirement it replays is FIXED against the reference server', () => {
    const wrong = rows.flatMap(({ fault, fixed }) =>
      fixed.requirements
        .filter((x) => x.verdict !== 'FIXED')
        .map((x) => `${fault.name}: ${x.id} ${x.verdict} ${x.detail ?? ''}`),
    );
    expect(wrong).toEqual([]);
  });

  test('a replay sends less than the run did: a failed property, only the case its report recorded', () => {
    const withCases = rows.filter((r) => r.cases > 0);
    expect(withCases.length).toBeGreaterThan(10);
    const sum = (n: (r: Replayed) => number) => withCases.reduce((total, r) => total + n(r), 0);
    expect(sum((r) => r.still.requests)).toBeLessThan(sum((r) => r.ran));
  });

  test('the faults it cannot replay are the ones listed, each for its reason', () => {
    const listed = rows.filter((r) => r.fault.name in NOT_REPLAYABLE);
    expect(listed.map((r) => r.fault.name).sort()).toEqual(Object.keys(NOT_REPLAYABLE).sort());
  });
});
