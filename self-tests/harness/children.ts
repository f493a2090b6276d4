// Heavy self-tests (the kill matrix, flakiness) run their servers in child processes, one per
// core: the work is processor-bound, and a vitest worker is one process on one core.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { cleanEnv, root } from '../net-kit.js';

/** Child processes for such a test: one per core, at least two. */
export const CHILDREN = Math.max(2, availableParallelism());

/**
 * Servers each child runs at once: one. A run keeps its process busy (the client and the server
 * are both in it), so more at once finish no sooner (measured beside other work: 3 at once took 0.94
 * times as long as 1), and a run holding the event loop (a property shrinking) made
 * another run's requests time out on a loaded machine: a fault MISSED for no fault of the suite.
 */
export const IN_FLIGHT = 1;

/**
 * Runs `jobs` in `n` child processes of `script` started with no argument, handing each child
 * its next job on stdin (a line `[index, job]`) as it prints the result of one (a line
 * `{ index, row }`), so a long job holds back no work another child could do; resolves with the
 * results in the jobs' order, each also to `onResult` as it comes. With `cost`, the next job is the
 * costliest left, as estimated when it is handed out (the first in order among equals): the longest
 * go first, and the last ones, which one child may run alone, are the shortest.
 */
export function runQueued<J, R>(
  script: string,
  jobs: readonly J[],
  {
    n = CHILDREN,
    cost,
    onResult,
  }: { n?: number; cost?: (job: J) => number; onResult?: (row: R, index: number) => void } = {},
): Promise<R[]> {
  const results = new Array<R>(jobs.length);
  const left = jobs.map((_, i) => i);
  const take = (): number | undefined => {
    if (!cost || left.length === 0) return left.shift();
    let best = 0;
    let most = -Infinity;
    left.forEach((i, at) => {
      const c = cost(jobs[i] as J);
      if (c > most) [best, most] = [at, c];
    });
    return left.splice(best, 1)[0];
  };
  const child = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, env: cleanEnv() });
      const give = () => {
        const next = take();
        if (next !== undefined) proc.stdin.write(`${JSON.stringify([next, jobs[next]])}\n`);
        else proc.stdin.end();
      };
      let out = '';
      let err = '';
      proc.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
          const { index, row } = JSON.parse(out.slice(0, nl)) as { index: number; row: R };
          out = out.slice(nl + 1);
          results[index] = row;
          onResult?.(row, index);
          give();
        }
      });
      proc.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      proc.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`${script} exited ${code}: ${err.slice(-2000)}`)),
      );
      for (let i = 0; i < IN_FLIGHT; i++) give();
    });
  return Promise.all(Array.from({ length: Math.min(n, jobs.length) }, child)).then(() => results);
}
