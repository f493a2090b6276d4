// The same server, the same seed and the same options give the same findings in the same order.
// Runs each against a fresh copy of one broken server: with one request at a time, conformance.md
// is byte for byte the same, its times, durations and ports aside. With requests in flight
// together, the ids a server hands out follow the order they reach it, so messages that quote them
// may differ; the findings, their order and their grouping may not, not even beside two busy
// loops this test starts, which change the order answers arrive in.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { faults } from '../harness/faults/index.js';
import { CHILD_TIMEOUT, referenceServer, runBin, targetEnv, type TestServer } from '../net-kit.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/**
 * Error rules grouped, a property's counterexample, a target turned failing after valid writes,
 * and one turned failing by the request that broke a rule (what failed after it is blocked by it).
 */
const BROKEN = ['numeric-error-code', 'limit-ignored', 'fail-after-writes', 'client-id-through-double-then-duplicate'];

/** Runs of each server with requests in flight together, two at a time, beside the busy loops. */
const RUNS_IN_FLIGHT = 4;

/** conformance.md of one run against a fresh server with the fault, times, durations, the network's figures and ports as placeholders. */
async function reportOf(name: string, args: string[] = []): Promise<string> {
  const fault = faults.find((f) => f.name === name);
  if (!fault) throw new Error(`no fault ${name}`);
  const server = await referenceServer({ wrap: fault.wrap });
  servers.push(server);
  const run = await runBin(['--seed', '11', ...args], { env: targetEnv(server) });
  return (
    readFileSync(join(run.cwd, 'reports', 'conformance.md'), 'utf8')
      .replaceAll(`:${new URL(server.baseUrl).port}/`, ':PORT/')
      .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · \d+\.\d s/, 'TIME · DURATION')
      // The connections and the answers' times: measured, as durations are.
      .replace(/^Network: .*$/m, 'Network: MEASURED')
  );
}

/**
 * Each finding's id in the order listed, with the ids listed under or beside it: the violations,
 * the undecided and the warnings; of a folded list, only what it is (what failed only on a turned
 * target's answers, was skipped, or passed with cases not run follows what a fault whose store
 * turns failing happened to send before the turn).
 */
const findings = (md: string) =>
  md
    .replace(/<details><summary>([^<]*)<\/summary>[\s\S]*?<\/details>/g, (_, s: string) => `- folded: ${s}`)
    .split('\n')
    .filter((l) => /^ {0,2}- /.test(l))
    .map((l) =>
      l.startsWith('- folded: ') ? l.replace(/\d+/g, 'N') : [...l.matchAll(/`([\w.-]+)`/g)].map((m) => m[1]).join(' '),
    );

test.concurrent.each(BROKEN)(
  '%s, one request at a time: two runs with one seed, one conformance.md',
  async (name) => {
    const [first, second] = await Promise.all([1, 2].map(() => reportOf(name, ['--concurrency', '1'])));
    expect(first).toContain('Not conformant');
    expect(second).toBe(first);
  },
  CHILD_TIMEOUT.timeout,
);

describe('beside two busy loops', () => {
  // Bounded: a loop outlives no run of this file, even if the test process dies without killing it.
  const BUSY_MS = 600_000;
  let busy: ChildProcess[] = [];
  beforeAll(() => {
    const loop = `const end = Date.now() + ${BUSY_MS}; while (Date.now() < end);`;
    busy = [1, 2].map(() => spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }));
  });
  afterAll(() => {
    for (const p of busy) p.kill('SIGKILL');
  });

  test.concurrent.each(BROKEN)(
    `%s, requests in flight together: ${RUNS_IN_FLIGHT} runs with one seed, the same findings in the same order`,
    async (name) => {
      const reports: string[] = [];
      for (let i = 0; i < RUNS_IN_FLIGHT; i += 2)
        reports.push(...(await Promise.all([1, 2].map(() => reportOf(name)))));
      const [first = [], ...others] = reports.map(findings);
      expect(first.length).toBeGreaterThan(0);
      for (const other of others) expect(other).toEqual(first);
    },
    CHILD_TIMEOUT.timeout,
  );
});
