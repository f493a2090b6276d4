// Runs servers of the kill matrix: what broken-servers.test.ts runs in its children, and what
// `npm run fault -- NAME...` runs for a developer (one fault's or variant's row each, printed whole).
// As a child: node --import tsx kill-matrix-runs.ts '<[index, job][] as JSON>' prints one JSON line
// per run, { index, row }, a few at a time; with no argument it reads one `[index, job]` line at a
// time from stdin (runQueued in children.ts hands them out).
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

/** `npm run fault -- NAME...`: each a fault's or a variant's name. */
async function byName(names: string[]): Promise<void> {
  const jobs = names.map((name): MatrixJob | undefined =>
    faults.some((f) => f.name === name)
      ? { fault: name }
      : variants.some((v) => v.name === name)
        ? { variant: name }
        : undefined,
  );
  const unknown = names.filter((_, i) => jobs[i] === undefined);
  if (unknown.length > 0) {
    process.stderr.write(
      `no fault or variant named ${unknown.join(', ')}.\nFaults: ${faults.map((f) => f.name).join(' ')}\n` +
        `Variants: ${variants.map((v) => v.name).join(' ')}\n`,
    );
    process.exitCode = 2;
    return;
  }
  for (const job of jobs as MatrixJob[])
    process.stdout.write(`${JSON.stringify(await runMatrixJob(job, catalogue, faults, variants), null, 2)}\n`);
}

const [first, ...rest] = process.argv.slice(2);
if (first === undefined) {
  for await (const line of createInterface({ input: process.stdin }))
    if (line.trim()) await run(JSON.parse(line) as [number, MatrixJob]);
} else if (first.startsWith('[')) await inParallel(JSON.parse(first) as [number, MatrixJob][], IN_FLIGHT, run);
else await byName([first, ...rest]);
