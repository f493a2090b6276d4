// The suite is tested like a product. Every fault must be caught by the requirement it names,
// running only that requirement's checks (caught through another requirement is MISSED); every
// conforming variant must draw no MUST failure, the reference server no failure at all, and every
// requirement must have a fault. All servers run once, in-process and a few at a time, in
// beforeAll; the tests read the kill matrix, which is printed and written to the report folder.
import { availableParallelism } from 'node:os';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { catalogue } from '../tests/catalogue.js';
import { faults } from './harness/faults/index.js';
import { buildKillMatrix, renderText, writeKillMatrix, type KillMatrix } from './harness/kill-matrix.js';
import { variants } from './harness/variants.js';

/** Servers run at once: each run is mostly waiting on loopback I/O, so a few per core. */
const PARALLELISM = Math.max(2, availableParallelism() * 3);

let matrix: KillMatrix;

beforeAll(async () => {
  matrix = await buildKillMatrix(catalogue, faults, variants, PARALLELISM);
  const written = await writeKillMatrix(matrix, loadConfig().reportDir);
  console.log(`${renderText(matrix)}\n  written to ${written.join(' and ')}`);
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
