// Behind nginx with its defaults, a correct service is CONFORMANT: nginx's own 400 page for a %00
// in the path and its 413 page for a body over 1 MB are the deployment's answers, not the
// implementation's. Every report names them in a section of their own; no requirement judges them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import type { Results } from '../../src/report/results.js';
import { variants } from '../harness/variants.js';
import { CHILD_TIMEOUT, referenceServer, runBin, targetEnv, type TestServer } from '../net-kit.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

test(
  "behind nginx's defaults: conformant, both of nginx's own pages under the deployment's findings",
  async () => {
    const nginx = variants.find((v) => v.name === 'behind-nginx-defaults');
    if (!nginx) throw new Error('no variant behind-nginx-defaults');
    const server = await referenceServer({ wrap: nginx.wrap });
    servers.push(server);
    const run = await runBin(['--seed', '5'], { env: targetEnv(server) });
    expect(run.code, run.out).toBe(EXIT.conformant);
    const reports = join(run.cwd, 'reports');
    const results = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as Results;
    expect(results.verdict).toBe('conformant');
    expect(results.run.deployment?.map((d) => d.answer.replace(/ from .*/, ''))).toEqual(
      expect.arrayContaining(['400 Bad Request', '413 Payload Too Large']),
    );
    expect(results.run.deployment?.every((d) => / from nginx\//.test(d.answer))).toBe(true);
    const md = readFileSync(join(reports, 'conformance.md'), 'utf8');
    expect(md).toContain('### The deployment, not the implementation');
    expect(md).toMatch(/the gateway in front answers POST \/v1\/pets itself \(413 Payload Too Large from nginx/);
    expect(run.stdout).toMatch(
      /^ deployment +the gateway in front answers \S+ \S+ itself \(400 Bad Request from nginx/m,
    );
    expect(readFileSync(join(reports, 'conformance.html'), 'utf8')).toContain('<dt>Deployment</dt>');
  },
  CHILD_TIMEOUT.timeout,
);
