// Child process of flakiness.test.ts: runs the whole catalogue in-process (the broken-server
// harness) against the reference server or a conforming variant, once per job, and prints one
// JSON line per run with its verdict. Run as: node --import tsx flaky-runs.ts '<jobs as JSON>'.
import { pathToFileURL } from 'node:url';
import { catalogue } from '../../tests/catalogue.js';
import { inParallel, runCatalogueAgainst } from '../harness/harness.js';
import type { ServerSetup } from '../harness/faults-kit.js';
import { variants } from '../harness/variants.js';

export interface FlakyJob {
  /** "reference" or a variant's name. */
  setup: string;
  seed: number;
  /** PETSTORE_RUNS for the run. */
  runs: number;
}

/** What must come out the same for every seed, and why (not compared). */
export interface FlakyResult extends FlakyJob {
  /** Failing (failed or error) MUST requirement ids, sorted. */
  must: string[];
  /** Failing SHOULD requirement ids, sorted. */
  should: string[];
  /** Skipped requirement ids, sorted. */
  skipped: string[];
  /** For each failing or skipped id, its outcome and the first line of its message. */
  why: Record<string, string>;
  ms: number;
  requests: number;
}

/** Servers per process at once: runs mostly wait on loopback I/O. */
const IN_FLIGHT = 3;

const SETUPS: ReadonlyMap<string, ServerSetup> = new Map<string, ServerSetup>([['reference', { wrap: (h) => h }], ...variants.map((v) => [v.name, v] as const)]);

async function main(jobs: FlakyJob[]): Promise<void> {
  const level = new Map(catalogue.map((r) => [r.id, r.level]));
  await inParallel(jobs, IN_FLIGHT, async (job) => {
    const setup = SETUPS.get(job.setup);
    if (!setup) throw new Error(`unknown setup ${job.setup}`);
    const { wrap, config, ...rest } = setup;
    const run = await runCatalogueAgainst(wrap, { ...rest, config: { ...config, seed: job.seed, runs: job.runs } });
    const ids = (keep: (outcome: string, id: string) => boolean) => [...run.outcomes].filter(([id, o]) => keep(o.outcome, id)).map(([id]) => id).sort();
    const failing = (o: string) => o === 'failed' || o === 'error';
    const result: FlakyResult = {
      ...job,
      must: ids((o, id) => failing(o) && level.get(id) === 'MUST'),
      should: ids((o, id) => failing(o) && level.get(id) === 'SHOULD'),
      skipped: ids((o) => o === 'skipped'),
      why: Object.fromEntries([...run.outcomes].filter(([, o]) => o.outcome !== 'passed').map(([id, o]) => [id, `${o.outcome}: ${(o.message ?? '').split('\n')[0]?.slice(0, 300)}`])),
      ms: run.ms,
      requests: run.requests,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  });
}

// Only when run as a script (the test imports this file for its types).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(JSON.parse(process.argv[2] ?? '[]') as FlakyJob[]);
