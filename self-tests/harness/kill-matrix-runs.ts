// Child process of broken-servers.test.ts: runs some servers of the kill matrix, and runs with
// other seeds, as the jobs name them, a few at a time; prints one JSON line per run: { index, row }.
// Run as: node --import tsx kill-matrix-runs.ts '<[index, job][] as JSON>'.
import { catalogue } from '../../tests/catalogue.js';
import { IN_FLIGHT } from './children.js';
import { faults } from './faults/index.js';
import { inParallel } from './harness.js';
import { runMatrixJob, type MatrixJob } from './kill-matrix.js';
import { variants } from './variants.js';

const jobs = JSON.parse(process.argv[2] ?? '[]') as [number, MatrixJob][];
await inParallel(jobs, IN_FLIGHT, async ([index, job]) => {
  const row = await runMatrixJob(job, catalogue, faults, variants);
  process.stdout.write(`${JSON.stringify({ index, row })}\n`);
});
