// The command line runs the checks without a test runner (src/run/runner.ts); `npx vitest run
// --project conformance` runs the same checks as vitest tests (src/vitest/adapter.ts). On the same
// seed against the same broken server, both fail the same MUST requirements.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { faults } from '../harness/faults/index.js';
import {
  CHILD_TIMEOUT,
  cleanEnv,
  referenceServer,
  root,
  runBin,
  targetEnv,
  tempDir,
  type TestServer,
} from '../net-kit.js';

const vitestBin = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const SEED = '7';
/** Faults of three areas: an error page, a field not echoed, a list repeating a pet. */
const FAULTS = ['html-404-unknown-path', 'status-not-echoed', 'list-repeats-first-for-last'];

const servers: TestServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh server with the fault: each path gets its own store. */
async function serverWith(name: string): Promise<TestServer> {
  const fault = faults.find((f) => f.name === name);
  if (!fault) throw new Error(`no fault ${name}`);
  const server = await referenceServer({ wrap: fault.wrap });
  servers.push(server);
  return server;
}

/** MUST requirement ids the command line found not met (failed or undecided). */
async function viaCli(name: string): Promise<string[]> {
  const run = await runBin(['--seed', SEED], { env: targetEnv(await serverWith(name)) });
  dirs.push(run.cwd);
  const report = JSON.parse(readFileSync(join(run.cwd, 'reports', 'conformance.json'), 'utf8')) as {
    requirements: { id: string; level: string; outcome: string }[];
  };
  return report.requirements
    .filter((r) => r.level === 'MUST' && (r.outcome === 'failed' || r.outcome === 'error'))
    .map((r) => r.id)
    .sort();
}

/** MUST requirement ids whose tests failed under vitest (a SHOULD not met is an annotation). */
async function viaVitest(name: string): Promise<string[]> {
  const dir = tempDir('vitest-path');
  dirs.push(dir);
  const out = join(dir, 'vitest.json');
  const env = cleanEnv({ ...targetEnv(await serverWith(name)), PETSTORE_SEED: SEED, PETSTORE_RUNS: '5' });
  const args = [vitestBin, 'run', '--project', 'conformance', '--reporter=json', `--outputFile=${out}`];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'ignore' });
    child.on('error', reject).on('close', () => resolve());
  });
  const json = JSON.parse(readFileSync(out, 'utf8')) as {
    testResults: { assertionResults: { title: string; status: string }[] }[];
  };
  const failed = json.testResults.flatMap((f) => f.assertionResults).filter((t) => t.status === 'failed');
  return [...new Set(failed.map((t) => t.title.split(' ')[0] ?? ''))].sort();
}

test.concurrent.each(FAULTS)(
  '%s: the command line and vitest fail the same MUST requirements on the same seed',
  async (name) => {
    const [cli, vitest] = await Promise.all([viaCli(name), viaVitest(name)]);
    expect(cli).not.toEqual([]);
    expect(vitest).toEqual(cli);
  },
  CHILD_TIMEOUT.timeout,
);
