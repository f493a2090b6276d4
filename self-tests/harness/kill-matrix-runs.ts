// Child process of broken-servers.test.ts: runs some servers of the kill matrix, and runs with
// other seeds, as the jobs name them, a few at a time; prints one JSON line per run: { index, row }.
// Run as: node --import tsx kill-matrix-runs.ts '<[index, job][] as JSON>', or with no argument to
// read one `[index, job]` line at a time from stdin (runQueued in children.ts hands them out).
import { createInterface } from 'node:readline';
import { catalogue } from '../../tests/catalogue.js';
import { IN_FLIGHT } from './children.js';
import { faults } from './faults/index.js';
import { inParallel } from './harness.js';
import { runMatrixJob, type MatrixJob } from './kill-matrix.js';
import { variants } from './variants.js';

// undici ends each connection of its own with an error whose stack Node formats at once; through
// tsx's source maps that formatting was some 6% of a run. This process prints no stack trace.
process.setSourceMapsEnabled(false);

const run = async ([index, job]: [number, MatrixJob]) => {
  const row = await runMatrixJob(job, catalogue, faults, variants);
  process.stdout.write(`${JSON.stringify({ index, row })}\n`);
};

if (process.argv[2] !== undefined)
  await inParallel(JSON.parse(process.argv[2]) as [number, MatrixJob][], IN_FLIGHT, run);
else
  for await (const line of createInterface({ input: process.stdin }))
    if (line.trim()) await run(JSON.parse(line) as [number, MatrixJob]);
