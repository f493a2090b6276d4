// The suite is tested like a product. Every fault must be caught by the requirement it names,
// running only that requirement's checks (caught through another requirement is MISSED); every
// conforming variant must draw no MUST failure, the reference server no failure at all, and every
// requirement must have a fault. And the suite never flakes: the reference server and every
// variant run again with other seeds, and each gives the same verdict every time (the same
// failing MUST and SHOULD requirements, the same skipped ones); a check that depends on timing or
// on the order of concurrent requests shows up as a verdict that changes with the seed or the
// scheduling. All servers run once in beforeAll, in-process in child processes (one per core, a
// few servers at a time in each); the tests read the kill matrix, which is printed and written
// to the report folder, and the runs with other seeds.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { catalogue } from '../tests/catalogue.js';
import { CHILDREN, IN_FLIGHT, runQueued } from './harness/children.js';
import { faults } from './harness/faults/index.js';
import { assembleKillMatrix, matrixJobs, renderText, writeKillMatrix, type FaultRow, type KillMatrix, type MatrixJob, type VariantRow } from './harness/kill-matrix.js';
import { variants } from './harness/variants.js';

const runner = fileURLToPath(new URL('./harness/kill-matrix-runs.ts', import.meta.url));

/**
 * Runs per server for flakiness, the matrix's own run (seed 42, PETSTORE_RUNS=50) included: the
 * others draw other inputs, each from its own seed, at PETSTORE_RUNS=5 (a run costs mostly its
 * fixed cases; 5 still tries every property on new inputs each time).
 */
const REFERENCE_RUNS = 10;
const VARIANT_RUNS = 2;
const PROPERTY_RUNS = 5;
/** Seeds spread over the whole range (negative ones too), none repeated, never the harness's 42. */
const seedOf = (i: number) => (Math.imul(i + 1, 0x9e3779b1) | 0) || 1;

let matrix: KillMatrix;
/** Every whole-catalogue run per server: the matrix's, then those with other seeds. */
const verdicts = new Map<string, VariantRow[]>();

beforeAll(async () => {
  const started = performance.now();
  const jobs = matrixJobs(faults, variants);
  const setups = ['reference', ...variants.map((v) => v.name)];
  const seeded: MatrixJob[] = setups.flatMap((setup, s) =>
    Array.from({ length: (setup === 'reference' ? REFERENCE_RUNS : VARIANT_RUNS) - 1 }, (_, i) => ({ variant: setup, seed: seedOf(s * 100 + i), runs: PROPERTY_RUNS })),
  );
  const whole = setups.length;
  // Handed out one at a time, the longest first: the matrix's whole-catalogue runs, the faults (each
  // a whole-catalogue run too, for root cause first; some take seconds), then the seeded runs, all
  // alike, which even out the children's ends.
  const all: [number, MatrixJob][] = [...jobs.slice(0, whole), ...seeded, ...jobs.slice(whole)].map((job, i) => [i, job]);
  const queued = [...all.slice(0, whole), ...all.slice(whole + seeded.length), ...all.slice(whole, whole + seeded.length)];
  const results = await runQueued<MatrixJob, VariantRow | FaultRow>(runner, queued.map(([, job]) => job));
  const rows = new Array<VariantRow | FaultRow>(all.length);
  queued.forEach(([i], q) => (rows[i] = results[q] as VariantRow | FaultRow));
  const missing = all.filter(([i]) => !rows[i]).map(([, job]) => job);
  if (missing.length) throw new Error(`no row for ${JSON.stringify(missing)}`);
  const matrixRows = [...rows.slice(0, whole), ...rows.slice(whole + seeded.length)];
  const ms = Math.round(performance.now() - started);
  matrix = assembleKillMatrix(catalogue, faults, matrixRows, CHILDREN * IN_FLIGHT, ms);
  for (const row of rows.slice(0, whole + seeded.length) as VariantRow[]) verdicts.set(row.variant, [...(verdicts.get(row.variant) ?? []), row]);
  const written = await writeKillMatrix(matrix, loadConfig().reportDir);
  const requests = rows.reduce((n, r) => n + r.requests, 0);
  console.log(
    `${renderText(matrix)}\n  written to ${written.join(' and ')}\n` +
      `flakiness: ${whole + seeded.length} whole-catalogue runs (${REFERENCE_RUNS} of the reference server, ${VARIANT_RUNS} of each of ${variants.length} variants; ` +
      `${seeded.length} of them with other seeds at PETSTORE_RUNS=${PROPERTY_RUNS}); ${all.length} servers, ${requests} requests in ${ms} ms over ${CHILDREN} processes`,
  );
}, 220_000);

describe('the harness itself', () => {
  test('fault and variant names are unique', () => {
    const names = [...faults, ...variants].map((s) => s.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });
});

describe('the reference server', () => {
  test('fails no requirement, MUST or SHOULD', () => {
    expect([...matrix.reference.mustFailures, ...matrix.reference.shouldFailures]).toEqual([]);
  });
});

describe('broken servers', () => {
  test.each(faults.map((f) => [f.name, f.breaks] as const))('%s is caught by %s', (name, breaks) => {
    const row = matrix.faults.find((r) => r.fault === name);
    expect(row?.caughtBy, `${row?.does}: MISSED, ${row?.message}; failing instead: ${row?.failingInstead.join(', ') || 'nothing'}`).toBe(breaks);
  });
});

describe('root cause first', () => {
  // Each fault against the whole catalogue: its reports name its target first, or a failure grouped under it.
  test('at least 90% of the faults have their target named first', () => {
    const { first, faults: all, share, misses } = matrix.rootCauseFirst;
    expect(all).toBe(faults.length);
    expect(share, `${first} of ${all}; named first instead: ${misses.map((x) => `${x.fault} (breaks ${x.breaks}) -> ${x.first}${x.root !== x.first ? ` under ${x.root}` : ''}`).join('; ')}`).toBeGreaterThanOrEqual(0.9);
  });
});

describe('conforming servers', () => {
  test.each(variants.map((v) => [v.name] as const))('%s draws no MUST failure', (name) => {
    const row = matrix.variants.find((r) => r.variant === name);
    const alarms = row?.mustFailures.map((f) => `${f.id} ${f.outcome}: ${f.message}`) ?? ['not run'];
    expect(alarms, `false alarm(s) against a server that ${row?.does}`).toEqual([]);
  });
});

describe('every requirement is exercised by a fault', () => {
  test.each(catalogue.map((r) => [r.id] as const))('%s has a fault that breaks it', (id) => {
    expect(faults.filter((f) => f.breaks === id).map((f) => f.name), `no fault in self-tests/harness/faults/ names ${id} in breaks`).not.toEqual([]);
  });
});

/** What must not change from one seed to another: the ids, not the messages (those name inputs). */
const verdict = (r: VariantRow) => ({ must: r.mustFailures.map((f) => f.id), should: r.shouldFailures.map((f) => f.id), skipped: r.skipped.map((f) => f.id) });
const seedOfRow = (r: VariantRow) => r.seed ?? 'the matrix run';

describe('the same verdict for every seed', () => {
  test(`the reference server: ${REFERENCE_RUNS} runs, no failure and no skip in any`, () => {
    const runs = verdicts.get('reference') ?? [];
    expect(runs).toHaveLength(REFERENCE_RUNS);
    for (const r of runs) expect({ seed: seedOfRow(r), ...verdict(r) }, JSON.stringify(r)).toEqual({ seed: seedOfRow(r), must: [], should: [], skipped: [] });
  });

  test.each(variants.map((v) => [v.name] as const))(`%s: ${VARIANT_RUNS} runs, one verdict`, (name) => {
    const runs = verdicts.get(name) ?? [];
    expect(runs).toHaveLength(VARIANT_RUNS);
    const [first, ...others] = runs as [VariantRow, ...VariantRow[]];
    // On a difference, both runs' findings say what changed.
    for (const r of others) expect({ seed: seedOfRow(r), ...verdict(r) }, `${seedOfRow(first)} gave ${JSON.stringify(first)}; seed ${r.seed} gave ${JSON.stringify(r)}`).toEqual({ seed: seedOfRow(r), ...verdict(first) });
  });
});
