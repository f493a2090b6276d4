// The results tree of a harness run, built as the reporter builds a real run's (for the baseline
// and diff self-tests, which write it as conformance.json and read it back).
import type { Baseline } from '../../src/report/baseline.js';
import { buildResults, type CheckInput, type Results } from '../../src/report/results.js';
import { catalogue } from '../../tests/catalogue.js';
import type { HarnessRun } from './harness.js';

export function resultsOf(
  run: HarnessRun,
  {
    baseline = null,
    strict = false,
    requirementSet,
  }: { baseline?: Baseline | null; strict?: boolean; requirementSet?: string } = {},
): Results {
  // Every check, as the reporter gets them.
  const checks: CheckInput[] = run.checks.map(({ id, name, kind, outcome }) => {
    const r = catalogue.find((x) => x.id === id);
    if (!r) throw new Error(`no requirement ${id}`);
    return { requirement: { id, level: r.level, section: r.section, statement: r.statement }, name, kind, ...outcome };
  });
  const at = new Date('2026-06-01T00:00:00Z');
  return buildResults(checks, {
    suite: { name: 'petstore-conformance', version: '1.0.0', commit: null },
    target: { baseUrl: 'http://127.0.0.1/v1', embedded: true },
    startedAt: at,
    finishedAt: at,
    seed: 42,
    node: process.version,
    strict,
    readOnly: false,
    clock: null,
    only: ['auth'],
    skip: [],
    interrupted: false,
    errors: [],
    createdPets: [],
    runTag: null,
    baseline,
    ...(requirementSet ? { requirementSet } : {}),
  });
}
