// `export REPORT_DIR --out DIR`: each failed requirement as a standalone test file, run with
// `node --test` in a folder outside the repository, fails against the fault and passes against the
// reference server.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { runConformance } from '../../src/run/api.js';
import { faults } from '../harness/faults/index.js';
import { cleanEnv, referenceServer, root, runBin, tempDir, type TestServer } from '../net-kit.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** `node --test` (or vitest's `run`) in `dir` against `server`: its exit code and output. */
async function nodeTest(dir: string, server: TestServer, args = ['--test']): Promise<{ code: number; out: string }> {
  const env = cleanEnv({ PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.apiKey });
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: dir, env });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

// A status the rule asks for, and body fields the rule asks to be echoed.
test.each([
  ['list-without-auth', 'auth.missing-key'],
  ['status-not-echoed', 'createPet.status-echo'],
])('the exported test of %s fails against the fault and passes against the reference server', async (name, id) => {
  const fault = faults.find((f) => f.name === name);
  expect(fault?.breaks).toBe(id);
  const faulty = await referenceServer({ wrap: fault?.wrap });
  const fixed = await referenceServer();
  servers.push(faulty, fixed);
  const dir = tempDir('export');
  await runConformance({ target: faulty.baseUrl, apiKey: faulty.apiKey, only: [id], reportDir: dir });

  const out = tempDir('exported');
  expect(out.startsWith(root)).toBe(false);
  const exported = await runBin(['export', dir, '--out', out]);
  expect(exported.code, exported.out).toBe(0);
  expect(readdirSync(out)).toEqual([`${id}.test.mjs`]);
  const text = readFileSync(join(out, `${id}.test.mjs`), 'utf8');
  expect(text).toContain("from 'node:test'");
  expect(text).not.toContain(faulty.apiKey);

  const failing = await nodeTest(out, faulty);
  expect(failing.out).toContain(`not ok 1 - ${id} (MUST)`);
  expect(failing.code, failing.out).toBe(1);
  const passing = await nodeTest(out, fixed);
  expect(passing.code, passing.out).toBe(0);
  expect(passing.out).toContain(`ok 1 - ${id} (MUST)`);
});

test('--runner vitest: a project with vitest alone runs it, failing against the fault; a bad runner is a usage error', async () => {
  const faulty = await referenceServer({ wrap: faults.find((f) => f.name === 'list-without-auth')?.wrap });
  const fixed = await referenceServer();
  servers.push(faulty, fixed);
  const dir = tempDir('export');
  await runConformance({ target: faulty.baseUrl, apiKey: faulty.apiKey, only: ['auth.missing-key'], reportDir: dir });
  const out = tempDir('exported');
  expect((await runBin(['export', dir, '--out', out, '--runner', 'vitest'])).code).toBe(0);
  expect(readFileSync(join(out, 'auth.missing-key.test.mjs'), 'utf8')).toContain("import { test } from 'vitest';");
  // The project's vitest, as another project would have installed it.
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
  const vitest = [join(out, 'node_modules/vitest/vitest.mjs'), 'run', '--no-cache'];
  expect((await nodeTest(out, faulty, vitest)).code).toBe(1);
  const passing = await nodeTest(out, fixed, vitest);
  expect(passing.code, passing.out).toBe(0);
  expect((await runBin(['export', dir, '--out', out, '--runner', 'jest'])).code).toBe(2);
});
