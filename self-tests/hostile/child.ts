// The real bin as a child process, measured: wall time, exit code or signal, output, peak RSS,
// and the report files it left. The child can be signalled mid-run (Ctrl-C is SIGINT).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin, cleanEnv, tempDir } from '../net-kit.js';

const peakRss = fileURLToPath(new URL('./peak-rss.mjs', import.meta.url));

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they arrived. */
  out: string;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident set size of the child, in bytes (0 if it did not say). */
  peakRss: number;
  cwd: string;
  reportDir: string;
}

export interface Started {
  child: ChildProcess;
  /** Milliseconds since the child was spawned. */
  elapsed(): number;
  /** Resolves with the first output chunk matching `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  done: Promise<ChildRun>;
}

export function startBin(args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Started {
  const cwd = tempDir('hostile');
  const rssFile = join(cwd, 'peak-rss');
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, '--import', peakRss, bin, ...args], { cwd, env: cleanEnv({ ...env, HOSTILE_RSS_FILE: rssFile }) });
  let out = '';
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: () => void }[] = [];
  const seen = (chunk: string) => {
    out += chunk;
    for (const w of [...watchers]) if (w.pattern.test(out)) (watchers.splice(watchers.indexOf(w), 1), w.resolve());
  };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => ((stdout += d), seen(d)));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => ((stderr += d), seen(d)));
  const done = new Promise<ChildRun>((resolve) =>
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        out,
        stdout,
        stderr,
        ms: Math.round(performance.now() - started),
        peakRss: existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : 0,
        cwd,
        reportDir: join(cwd, 'reports'),
      }),
    ),
  );
  return {
    child,
    elapsed: () => performance.now() - started,
    waitFor: (pattern) => new Promise((resolve) => (pattern.test(out) ? resolve() : watchers.push({ pattern, resolve }))),
    done,
  };
}

export const runBinMeasured = (args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<ChildRun> => startBin(args, env, nodeFlags).done;
