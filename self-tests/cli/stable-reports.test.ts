// The same server, the same seed and the same options give the same findings in the same order.
// Two runs, each against a fresh copy of one broken server: with one request at a time,
// conformance.md is byte for byte the same, its times, durations and ports aside. With requests
// in flight together, the ids a server hands out follow the order they reach it, so messages that
// quote them may differ; the findings, their order and their grouping may not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { faults } from '../harness/faults/index.js';
import { CHILD_TIMEOUT, referenceServer, runBin, targetEnv, type TestServer } from '../net-kit.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** Error rules grouped, a property's counterexample, a target turned failing. */
const BROKEN = ['numeric-error-code', 'limit-ignored', 'fail-after-writes'];

/** conformance.md of one run against a fresh server with the fault, times, durations and ports as placeholders. */
async function reportOf(name: string, args: string[] = []): Promise<string> {
  const fault = faults.find((f) => f.name === name);
  if (!fault) throw new Error(`no fault ${name}`);
  const server = await referenceServer({ wrap: fault.wrap });
  servers.push(server);
  const run = await runBin(['--seed', '11', ...args], { env: targetEnv(server) });
  return readFileSync(join(run.cwd, 'reports', 'conformance.md'), 'utf8')
    .replaceAll(`:${new URL(server.baseUrl).port}/`, ':PORT/')
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · \d+\.\d s/, 'TIME · DURATION');
}

/** Each finding's id in the order listed, with the ids listed under or beside it. */
const findings = (md: string) =>
  md
    .split('\n')
    .filter((l) => /^ {0,2}- /.test(l))
    .map((l) => [...l.matchAll(/`([\w.-]+)`/g)].map((m) => m[1]).join(' '));

test.concurrent.each(BROKEN)(
  '%s, one request at a time: two runs with one seed, one conformance.md',
  async (name) => {
    const [first, second] = await Promise.all([1, 2].map(() => reportOf(name, ['--concurrency', '1'])));
    expect(first).toContain('Not conformant');
    expect(second).toBe(first);
  },
  CHILD_TIMEOUT.timeout,
);

test.concurrent.each(BROKEN)(
  '%s, requests in flight together: two runs with one seed, the same findings in the same order',
  async (name) => {
    const [first = '', second = ''] = await Promise.all([1, 2].map(() => reportOf(name)));
    expect(findings(first).length).toBeGreaterThan(0);
    expect(findings(second)).toEqual(findings(first));
  },
  CHILD_TIMEOUT.timeout,
);
