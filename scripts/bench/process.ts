// Measuring a run: the real CLI as a child process, from spawn to exit, with the peak RSS and the
// processor time of its whole process tree sampled from /proc, and what its report says.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, SAMPLE_MS, SEED } from './config.js';
import { harOf } from './replay.js';

/** Every pid's children, from /proc (empty elsewhere). */
function childrenOf(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return children;
  }
  for (const d of pids) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

/**
 * Sums the resident memory and the processor time so far (user + system, ms; 100 ticks a second,
 * Linux's USER_HZ) of `root` and all its descendants (Linux /proc; 0 elsewhere).
 */
function treeUsage(root: number): { bytes: number; cpuMs: number } {
  const children = childrenOf();
  let bytes = 0;
  let ticks = 0;
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    const pid = tree[i] as number;
    tree.push(...(children.get(pid) ?? []));
    try {
      bytes += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // utime, stime, cutime, cstime: fields 14 to 17, the 12th to 15th after the name.
      ticks += stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(11, 15)
        .reduce((a, b) => a + Number(b), 0);
    } catch {
      // ended
    }
  }
  return { bytes, cpuMs: ticks * 10 };
}

export interface CliRun {
  wallMs: number;
  peakRssMb: number;
  /** Processor time of the process tree, as last sampled (up to SAMPLE_MS before its end). */
  cpuMs: number;
  exitCode: number | null;
  /** run.requests from conformance.json. */
  requests: number | null;
  /** run.network.connections.opened from conformance.json: the new connections the run made. */
  connections: number | null;
  verdict: string | null;
  stderr: string;
  /** With --har: the entries of the HAR it wrote and its size. */
  har?: { entries: number; bytes: number } | null;
}

/** A child process from spawn to exit: wall time, and the peak RSS and processor time of its process tree. */
export async function measured(
  args: string[],
  { cwd, env }: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ wallMs: number; peakRssMb: number; cpuMs: number; exitCode: number | null; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  let peak = 0;
  let cpuMs = 0;
  const sampler = setInterval(() => {
    if (!child.pid) return;
    const usage = treeUsage(child.pid);
    peak = Math.max(peak, usage.bytes);
    cpuMs = Math.max(cpuMs, usage.cpuMs);
  }, SAMPLE_MS);
  const exitCode = await new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  return { wallMs, peakRssMb: peak / 1e6, cpuMs, exitCode, stderr };
}

/** The environment of a run: this one's without PETSTORE_*, the seed fixed, no colour, then `env`. */
export function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PETSTORE_')));
  return { ...clean, PETSTORE_SEED: String(SEED), NO_COLOR: '1', ...env };
}

/** The verdict and run.requests of the conformance.json in `reports`; null when there is none. */
function reportOf(reports: string): Pick<CliRun, 'requests' | 'verdict' | 'connections'> {
  try {
    const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as {
      verdict: string;
      run: { requests?: number | null; network?: { connections: { opened: number } | null } };
    };
    return {
      requests: report.run.requests ?? null,
      verdict: report.verdict,
      connections: report.run.network?.connections?.opened ?? null,
    };
  } catch {
    // no report: the failure is in stderr
    return { requests: null, verdict: null, connections: null };
  }
}

/**
 * The real CLI as a child process, with a clean PETSTORE_* environment and no .env (cwd is a
 * temporary folder). With `replay`, the requests of its HAR are written there for the floor; `node`:
 * options for node itself.
 */
export async function runCli(
  env: Record<string, string>,
  label: string,
  { har = false, replay, node = [] }: { har?: boolean; replay?: string; node?: string[] } = {},
): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), `petstore-bench-${label}-`));
  const { wallMs, peakRssMb, cpuMs, exitCode, stderr } = await measured(
    [...node, BIN, '--report-dir', join(dir, 'reports'), ...(har ? ['--har', join(dir, 'run.har')] : [])],
    { cwd: dir, env: cliEnv(env) },
  );
  const { requests, verdict, connections } = reportOf(join(dir, 'reports'));
  const harFile = har ? harOf(join(dir, 'run.har'), replay) : null;
  rmSync(dir, { recursive: true, force: true });
  return {
    wallMs,
    peakRssMb,
    cpuMs,
    exitCode,
    requests,
    connections,
    verdict,
    stderr,
    ...(har ? { har: harFile } : {}),
  };
}

/** A run that did not pass ends the bench: every figure assumes the whole catalogue ran. */
export function check(run: CliRun, what: string): void {
  if (run.exitCode !== 0)
    throw new Error(`${what}: the CLI exited ${run.exitCode} (verdict ${run.verdict}):\n${run.stderr}`);
}
