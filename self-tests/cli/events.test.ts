// A run as a stream of events: `--reporter ndjson` prints one JSON object a line on stdout and
// nothing else (even with --verbose), the API's onEvent is handed the same events; the last one
// carries the verdict, and with the streamed outcomes it says what conformance.json says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { RunEvent } from '../../src/report/events.js';
import type { Results } from '../../src/report/results.js';
import { runConformance } from '../../src/run/api.js';
import { EXIT } from '../../src/commands/cli.js';
import { faults } from '../harness/faults/index.js';
import { CHILD_TIMEOUT, closedPort, referenceServer, runBin, targetEnv, tempDir, type TestServer } from '../net-kit.js';

const ONLY = ['service', 'createPet.status-echo', 'getPet.existing'];
const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function brokenServer(): Promise<TestServer> {
  const fault = faults.find((f) => f.name === 'status-not-echoed');
  if (!fault) throw new Error('the fault status-not-echoed is gone');
  const server = await referenceServer({ wrap: fault.wrap });
  servers.push(server);
  return server;
}

/** The stream's shape, and that it and its revisions give the results' outcomes and verdict. */
function expectStreamOf(events: RunEvent[], results: Results): void {
  const [first, ...rest] = events;
  const last = rest.pop();
  expect(first).toMatchObject({ event: 'run-started', format: 'petstore-conformance/events', interface: '1.0.0' });
  const ids = first?.event === 'run-started' ? first.requirements : [];
  expect(ids).toEqual(results.requirements.map((r) => r.id));
  expect(rest.map((e) => e.event)).toEqual(ids.map(() => 'requirement-decided'));
  expect(rest.map((e) => (e.event === 'requirement-decided' ? e.id : '')).sort()).toEqual([...ids].sort());
  expect(last).toMatchObject({ event: 'run-ended', verdict: results.verdict, counts: results.counts });
  const outcomes = new Map(rest.map((e) => (e.event === 'requirement-decided' ? [e.id, e.outcome] : ['', ''])));
  for (const r of last?.event === 'run-ended' ? last.revised : []) outcomes.set(r.id, r.outcome);
  expect(Object.fromEntries(outcomes)).toEqual(Object.fromEntries(results.requirements.map((r) => [r.id, r.outcome])));
}

describe('--reporter ndjson', CHILD_TIMEOUT, () => {
  test('stdout is one event a line: the run started, each requirement decided, the run ended with the verdict', async () => {
    const server = await brokenServer();
    const cwd = tempDir('ndjson');
    const run = await runBin(['--reporter', 'ndjson', '--verbose', '--only', ONLY.join(','), '--seed', '4'], {
      env: targetEnv(server),
      cwd,
    });
    expect(run.code, run.out).toBe(EXIT.violations);
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as RunEvent);
    const results = JSON.parse(readFileSync(join(cwd, 'reports', 'conformance.json'), 'utf8')) as Results;
    expectStreamOf(events, results);
    expect(events.at(-1)).toMatchObject({ verdict: 'nonconformant' });
    const failed = events.find((e) => e.event === 'requirement-decided' && e.outcome === 'failed');
    expect(failed).toMatchObject({
      id: 'createPet.status-echo',
      level: 'MUST',
      message: expect.stringMatching(/status/),
    });
    expect(failed?.event === 'requirement-decided' && failed.reproduce).toMatch(/^curl .*\$PETSTORE_API_KEY/);
    expect(run.stdout).not.toContain(server.apiKey);
    // What the run says besides (the target line, --verbose's lines) went to stderr.
    expect(run.stderr).toContain('petstore-conformance: testing');
    expect(run.stderr).toMatch(/createPet\.status-echo/);
  });

  test('a target that cannot be tested: no run started, one line with the verdict not-tested', async () => {
    const port = await closedPort();
    const run = await runBin(['--reporter', 'ndjson', '--only', 'service'], {
      env: { PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`, PETSTORE_API_KEY: 'k' },
    });
    expect(run.code, run.out).toBe(EXIT.unreachable);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      event: 'run-ended',
      verdict: 'not-tested',
      // No requirement was streamed: each is revised to what the results say.
      revised: [{ id: 'service.json-content-type', outcome: 'error' }],
    });
  });

  test('a bad reporter name is bad configuration', async () => {
    const run = await runBin(['--reporter', 'json']);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('--reporter: expected one of summary, ndjson, got "json"');
  });
});

test("the API's onEvent is handed the same events, as they happen", async () => {
  const server = await brokenServer();
  const events: RunEvent[] = [];
  const results = await runConformance({
    target: server.baseUrl,
    apiKey: server.apiKey,
    only: ONLY,
    seed: 4,
    onEvent: (e) => events.push(e),
  });
  expectStreamOf(events, results);
  expect(events.at(-1)).toMatchObject({ verdict: 'nonconformant', interrupted: false });
});

test('a requirement root cause first puts down to another failure is revised in the last event', async () => {
  // Every name stored as "doggie": the model's sequences fail on it, which is createPet.minimal's rule.
  const fault = faults.find((f) => f.name === 'name-from-example');
  const server = await referenceServer(fault ? { wrap: fault.wrap } : {});
  servers.push(server);
  const events: RunEvent[] = [];
  const only = ['createPet.minimal', 'consistency.model'];
  const results = await runConformance({
    target: server.baseUrl,
    apiKey: server.apiKey,
    only,
    seed: 1,
    runs: 5,
    onEvent: (e) => events.push(e),
  });
  expectStreamOf(events, results);
  expect(events.find((e) => e.event === 'requirement-decided' && e.id === 'consistency.model')).toMatchObject({
    outcome: 'failed',
  });
  expect(events.at(-1)).toMatchObject({
    revised: [{ id: 'consistency.model', outcome: results.requirements[1]?.outcome }],
  });
  expect(results.requirements.map((r) => [r.id, r.outcome])).toEqual([
    ['createPet.minimal', 'failed'],
    ['consistency.model', expect.stringMatching(/^(passed|skipped)$/)],
  ]);
});
