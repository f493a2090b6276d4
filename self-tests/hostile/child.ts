// The real bin (started by net-kit's startBin) with the peak resident set size it reached and
// the report folder it wrote, for the hostile self-tests. The child can be signalled mid-run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBin as startChild, tempDir, type BinRun, type StartedBin } from '../net-kit.js';

const peakRss = fileURLToPath(new URL('./peak-rss.mjs', import.meta.url));

export interface ChildRun extends BinRun {
  /** Peak resident set size of the child, in bytes (0 if it did not say). */
  peakRss: number;
  reportDir: string;
}

export type Started = StartedBin<ChildRun>;

export function startBin(args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Started {
  const cwd = tempDir('hostile');
  const rssFile = join(cwd, 'peak-rss');
  const started = startChild(args, {
    cwd,
    env: { ...env, HOSTILE_RSS_FILE: rssFile },
    nodeFlags: [...nodeFlags, '--import', peakRss],
  });
  const measured = (run: BinRun): ChildRun => ({
    ...run,
    peakRss: existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : 0,
    reportDir: join(cwd, 'reports'),
  });
  return { ...started, done: started.done.then(measured) };
}

export const runBinMeasured = (
  args: string[],
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<ChildRun> => startBin(args, env, nodeFlags).done;
