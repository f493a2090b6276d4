// The suite never flakes: the whole catalogue, run 20 times against the reference server and 5
// times against every conforming variant of the broken-server harness, each time with another
// seed, gives the same verdict every time: the same failing MUST requirements, the same failing
// SHOULD ones (and the same skipped ones). A check that depends on timing or on the order of
// concurrent requests shows up here as a verdict that changes with the seed or the scheduling.
// The runs are split over child processes (one per core), a few servers at a time in each.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { variants } from '../harness/variants.js';
import { cleanEnv, root } from '../net-kit.js';
import type { FlakyJob, FlakyResult } from './flaky-runs.js';

const REFERENCE_RUNS = 20;
const VARIANT_RUNS = 5;
/**
 * PETSTORE_RUNS per property in these runs. Each run draws other inputs (the seed differs), so
 * 150 runs still try every property on hundreds of inputs; the default (50) would cost twice the time.
 */
const PROPERTY_RUNS = 5;
const CHILDREN = Math.max(2, availableParallelism());
const runner = fileURLToPath(new URL('./flaky-runs.ts', import.meta.url));

/** Seeds spread over the whole range (negative ones too), none repeated. */
const seedOf = (i: number) => (Math.imul(i + 1, 0x9e3779b1) | 0) || 1;

const setups = ['reference', ...variants.map((v) => v.name)];
const jobs: FlakyJob[] = setups.flatMap((setup, s) =>
  Array.from({ length: setup === 'reference' ? REFERENCE_RUNS : VARIANT_RUNS }, (_, i) => ({ setup, seed: seedOf(s * 100 + i), runs: PROPERTY_RUNS })),
);

function runChild(chunk: FlakyJob[]): Promise<FlakyResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', runner, JSON.stringify(chunk)], { cwd: root, env: cleanEnv() });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`flaky-runs exited ${code}: ${err.slice(-2000)}`));
      resolve(out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as FlakyResult));
    });
  });
}

const results = new Map<string, FlakyResult[]>();
let wallMs = 0;

beforeAll(async () => {
  const started = performance.now();
  // Interleaved, so every child gets a share of the slow setups.
  const chunks = Array.from({ length: CHILDREN }, (_, c) => jobs.filter((_, i) => i % CHILDREN === c));
  for (const r of (await Promise.all(chunks.map(runChild))).flat()) results.set(r.setup, [...(results.get(r.setup) ?? []), r]);
  wallMs = Math.round(performance.now() - started);
  const all = [...results.values()].flat();
  const requests = all.reduce((n, r) => n + r.requests, 0);
  console.log(`flakiness: ${all.length} runs of the whole catalogue (${setups.length} setups, PETSTORE_RUNS=${PROPERTY_RUNS}, ${requests} requests) in ${wallMs} ms over ${CHILDREN} processes`);
}, 200_000);

/** What must not change from one seed to another. */
const verdict = (r: FlakyResult) => ({ must: r.must, should: r.should, skipped: r.skipped });

describe('the same verdict for every seed', () => {
  test('every run happened', () => {
    expect([...results.values()].flat().length).toBe(jobs.length);
  });

  test(`the reference server: ${REFERENCE_RUNS} seeds, no failure at all`, () => {
    const runs = results.get('reference') ?? [];
    expect(runs).toHaveLength(REFERENCE_RUNS);
    for (const r of runs) expect({ seed: r.seed, ...verdict(r), why: r.why }).toEqual({ seed: r.seed, must: [], should: [], skipped: [], why: {} });
  });

  test.each(variants.map((v) => [v.name, v.does] as const))(`%s: ${VARIANT_RUNS} seeds, one verdict`, (name) => {
    const runs = results.get(name) ?? [];
    expect(runs).toHaveLength(VARIANT_RUNS);
    const first = runs[0] as FlakyResult;
    for (const r of runs.slice(1)) {
      // On a difference, both runs' reasons say what changed.
      expect({ seed: r.seed, ...verdict(r), why: r.why }, `seed ${first.seed} gave ${JSON.stringify(first.why)}`).toEqual({ seed: r.seed, ...verdict(first), why: expect.anything() });
    }
  });
});
