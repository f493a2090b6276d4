// Heavy self-tests (the kill matrix, flakiness) run their servers in child processes, one per
// core: the work is processor-bound, and a vitest worker is one process on one core.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { cleanEnv, root } from '../net-kit.js';

/** Child processes for such a test: one per core, at least two. */
export const CHILDREN = Math.max(2, availableParallelism());

/**
 * Servers each child runs at once: one. A run keeps its process busy (the client and the server
 * are both in it), so more at once finish no sooner (measured: 45 s with 3, 48 s with 1, beside
 * other work), and a run holding the event loop (a property shrinking for most of a second) made
 * another run's requests time out on a loaded machine: a fault MISSED for no fault of the suite.
 */
export const IN_FLIGHT = 1;

/** Deals `jobs` round-robin into `n` chunks, so every child gets a share of the long ones at the head. */
export const dealt = <T>(jobs: readonly T[], n = CHILDREN): T[][] => Array.from({ length: n }, (_, c) => jobs.filter((_, i) => i % n === c));

/** Runs `script` (TypeScript, through tsx) with `input` as JSON; resolves with the JSON line it printed per result. */
export function runJsonLines<R>(script: string, input: unknown): Promise<R[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(input)], { cwd: root, env: cleanEnv() });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited ${code}: ${err.slice(-2000)}`));
      resolve(out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as R));
    });
  });
}
