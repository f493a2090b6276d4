// `--cost-model`: how a run's time grows with PETSTORE_RUNS, latency and concurrency, one setting
// varied at a time from the defaults (PETSTORE_RUNS=50, 40 ms, 16); see docs/performance.md.
import { loadavg } from 'node:os';
import { SEED } from './config.js';
import { againstServer } from './network.js';
import { say, sayMachine, writeReport } from './output.js';
import { round } from './stats.js';

const CASES: { runs: number; latencyMs: number; concurrency: number }[] = [
  { runs: 50, latencyMs: 0, concurrency: 16 },
  { runs: 50, latencyMs: 20, concurrency: 16 },
  { runs: 50, latencyMs: 40, concurrency: 16 },
  { runs: 50, latencyMs: 100, concurrency: 16 },
  { runs: 10, latencyMs: 40, concurrency: 16 },
  { runs: 200, latencyMs: 40, concurrency: 16 },
  { runs: 1000, latencyMs: 40, concurrency: 16 },
  { runs: 50, latencyMs: 40, concurrency: 4 },
  { runs: 50, latencyMs: 40, concurrency: 64 },
];

export async function costModel(): Promise<void> {
  sayMachine();
  const rows: string[][] = [['PETSTORE_RUNS', 'latency', 'PETSTORE_CONCURRENCY', 'requests', 'wall time']];
  const results = [];
  for (const c of CASES) {
    const { run, log } = await againstServer(c.latencyMs, {
      PETSTORE_RUNS: String(c.runs),
      PETSTORE_CONCURRENCY: String(c.concurrency),
    });
    const requests = run.requests ?? log.length;
    results.push({ ...c, requests, wallMs: round(run.wallMs) });
    rows.push([
      String(c.runs),
      `${c.latencyMs} ms`,
      String(c.concurrency),
      String(requests),
      `${(run.wallMs / 1000).toFixed(1)} s`,
    ]);
    say(`  ${rows[rows.length - 1]?.join(', ')}`);
  }
  writeReport('bench-cost-model.json', { loadAverage: loadavg(), seed: SEED, results });
  console.log(
    [
      '',
      `| ${rows[0]?.join(' | ')} |`,
      `|${rows[0]?.map(() => '---:').join('|')}|`,
      ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`),
    ].join('\n'),
  );
}
