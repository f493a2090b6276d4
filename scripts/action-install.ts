// The Action's install, measured: action.yml's "Install the suite" step run as a runner runs it, in
// a fresh copy of the action's files (what git tracks, no node_modules) with an empty npm cache,
// timed, and what it leaves weighed. `npm run action-install` writes the figures into docs/ci.md
// between its markers; self-tests/docs/action.test.ts runs the same install and checks what it holds.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const INSTALL_STEP = 'Install the suite';
/** Where the step puts its build tool, under the runner's temporary folder (action.yml's BUILD_TOOLS). */
export const BUILD_TOOLS = 'petstore-conformance-build';
export const DOCS = {
  file: join(ROOT, 'docs', 'ci.md'),
  start: '<!-- npm run action-install writes this table; do not edit it by hand -->',
  end: '<!-- end of the table npm run action-install writes -->',
};

/** The action's files as a runner checks them out: what git tracks (as the working tree has them). */
export function freshCheckout(into: string): string {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files.filter((f) => existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(ROOT, file), join(into, file));
  }
  return into;
}

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}

/**
 * Runs the install step in the action's folder `action`, `runnerTemp` as the runner's temporary
 * folder, `env` over this process's environment; its exit code, wall time and output.
 */
export async function runInstallStep(
  action: string,
  { runnerTemp, env = {} }: { runnerTemp: string; env?: Record<string, string> },
): Promise<{ code: number | null; ms: number; output: string }> {
  const yml = parse(readFileSync(join(action, 'action.yml'), 'utf8')) as { runs: { steps: Step[] } };
  const step = yml.runs.steps.find((s) => s.name === INSTALL_STEP);
  if (!step?.run) throw new Error(`action.yml has no step "${INSTALL_STEP}"`);
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, expr: string) => {
      if (expr === 'runner.temp') return runnerTemp;
      throw new Error(`an expression the install step did not have: ${expr}`);
    });
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v)]));
  const started = performance.now();
  const child = spawn('bash', ['-e', '-c', fill(step.run)], {
    cwd: action,
    env: { ...process.env, ...env, ...stepEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, ms: performance.now() - started, output };
}

/**
 * Bytes of every file under `dir` (their own sizes; a symbolic link is not followed, a file linked
 * twice counts once: esbuild's install links its binary), and how many files.
 */
export function weigh(dir: string, skip: readonly string[] = []): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const seen = new Set<string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (d === dir && skip.includes(entry.name)) continue;
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      if (!entry.isFile()) continue;
      const { size, dev, ino } = lstatSync(path);
      if (seen.has(`${dev}:${ino}`)) continue;
      seen.add(`${dev}:${ino}`);
      bytes += size;
      files++;
    }
  };
  if (existsSync(dir)) walk(dir);
  return { bytes, files };
}

/** The packages installed at the top of a node_modules folder (`@scope/name` for a scoped one). */
export function installedPackages(nodeModules: string): string[] {
  return readdirSync(nodeModules)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(nodeModules, n)).map((m) => `${n}/${m}`) : [n]));
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function measure(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'petstore-action-install-'));
  const action = freshCheckout(join(work, 'action'));
  const runnerTemp = join(work, 'runner-temp');
  mkdirSync(runnerTemp);
  // A runner starts with no npm cache: every package is downloaded, as on a job.
  const { code, ms, output } = await runInstallStep(action, {
    runnerTemp,
    env: { npm_config_cache: join(work, 'npm-cache') },
  });
  if (code !== 0) throw new Error(`the install step failed (exit ${code}):\n${output}`);
  const runtime = weigh(join(action, 'node_modules'));
  const packages = installedPackages(join(action, 'node_modules')).length;
  const bundle = weigh(join(action, '.build'));
  const esbuild = weigh(join(runnerTemp, BUILD_TOOLS));
  // The clone's own install for comparison (its caches left out): npm ci with the test tools.
  const full = weigh(realpathSync(join(ROOT, 'node_modules')), ['.cache', '.vite', '.vitest']);
  const browser = weigh(join(realpathSync(join(ROOT, 'node_modules')), '@sparticuz', 'chromium'));
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const rows = [
    ['The install step, wall time (an empty npm cache: every package downloaded)', `${(ms / 1000).toFixed(1)} s`],
    [`Runtime dependencies, \`node_modules\` in the action's folder (${packages} packages)`, mb(runtime.bytes)],
    ['The command line bundled into one file, `.build/cli/` (with its source map)', mb(bundle.bytes)],
    ['esbuild, which bundles it, in `$RUNNER_TEMP`', mb(esbuild.bytes)],
    ["Before, `npm ci` with the test tools (this clone's `node_modules`)", mb(full.bytes)],
    ['of which the browser (`@sparticuz/chromium`)', mb(browser.bytes)],
  ];
  const table = [
    `Measured by \`npm run action-install\` (Node ${process.version}, ${process.platform} ${process.arch}), ` +
      `${new Date().toISOString().slice(0, 10)}, at ${commit}:`,
    '',
    '| What | Measured |',
    '|---|---|',
    ...rows.map(([what, value]) => `| ${what} | ${value} |`),
  ].join('\n');
  const doc = readFileSync(DOCS.file, 'utf8');
  const [before, rest] = doc.split(DOCS.start);
  const after = rest?.split(DOCS.end)[1];
  if (before === undefined || after === undefined) throw new Error(`${DOCS.file}: the table's markers are missing`);
  writeFileSync(DOCS.file, `${before}${DOCS.start}\n${table}\n${DOCS.end}${after}`);
  console.log(`${table}\n\n  written into ${DOCS.file}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await measure();
