// `replay REPORT_DIR`: each failed requirement of a report, its checks run again with the report's
// seed, says STILL FAILING while the fault is there and FIXED against the reference server.
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { replay, runConformance } from '../../src/run/api.js';
import { faults } from '../harness/faults/index.js';
import { referenceServer, runBin, targetEnv, tempDir, type TestServer } from '../net-kit.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const fault = (name: string) => {
  const found = faults.find((f) => f.name === name);
  if (!found) throw new Error(`no fault ${name}`);
  return found;
};

// A status, a body field, a read-back after a create (a chain with new ids), a rule over every error answer.
test.each(['list-without-auth', 'status-not-echoed', 'get-changes-name', 'error-without-code'])(
  'a replay of %s says STILL FAILING against the fault and FIXED against the reference server',
  async (name) => {
    const { breaks, wrap } = fault(name);
    const faulty = await referenceServer({ wrap });
    const fixed = await referenceServer();
    servers.push(faulty, fixed);
    const dir = tempDir('replay');
    const results = await runConformance({
      target: faulty.baseUrl,
      apiKey: faulty.apiKey,
      only: [breaks],
      reportDir: dir,
    });
    expect(results.requirements.find((r) => r.id === breaks)?.outcome).toBe('failed');

    const still = await runBin(['replay', dir], { env: { PETSTORE_API_KEY: faulty.apiKey } });
    expect(still.stdout).toContain(`${breaks} STILL FAILING: `);
    expect(still.stdout).toContain('a FIXED replay is not a verdict: the whole run decides');
    expect(still.code, still.out).toBe(1);

    const again = await runBin(['replay', join(dir, 'conformance.json'), '--base-url', fixed.baseUrl], {
      env: targetEnv(fixed),
    });
    expect(again.stdout).toContain(`${breaks} FIXED`);
    expect(again.code, again.out).toBe(0);
  },
);

test('the API replays against another target; --only leaves the others out; an unknown check cannot replay', async () => {
  const faulty = await referenceServer({ wrap: fault('status-not-echoed').wrap });
  const fixed = await referenceServer();
  servers.push(faulty, fixed);
  const results = await runConformance({
    target: faulty.baseUrl,
    apiKey: faulty.apiKey,
    only: ['createPet.status-echo'],
  });
  const ok = await replay(results, { target: fixed.baseUrl, apiKey: fixed.apiKey });
  expect(ok.requirements).toEqual([{ id: 'createPet.status-echo', verdict: 'FIXED' }]);
  const none = await replay(results, { target: fixed.baseUrl, apiKey: fixed.apiKey, only: ['auth'] });
  expect(none).toEqual({ requirements: [], requests: 0 });

  const renamed = structuredClone(results);
  for (const c of renamed.requirements[0]?.checks ?? []) c.name = 'a check this suite never had';
  const lost = await replay(renamed, { target: fixed.baseUrl, apiKey: fixed.apiKey });
  expect(lost.requirements[0]).toMatchObject({
    verdict: 'COULD NOT REPLAY',
    detail: expect.stringContaining('no check named'),
  });
});
