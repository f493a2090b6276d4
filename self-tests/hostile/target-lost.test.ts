// A target that dies during the run (a crash on one request, a host gone) is named once, first:
// the verdict says from which request on nothing was answered and why, and the requirements it
// left undecided are counted under that line, not listed one "connection refused" at a time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import type { Results } from '../../src/report/results.js';
import { CHILD_TIMEOUT, referenceServer, runBin, targetEnv, type TestServer } from '../net-kit.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

test(
  'a server gone after its 60th request: the verdict names the request nothing answered from, once',
  async () => {
    let seen = 0;
    let server: TestServer | undefined;
    server = await referenceServer({
      wrap: (inner) => (req) => {
        // The probe and the preflight come first; the 60th request takes the server down with it.
        if (++seen === 60) void server?.close();
        return inner(req);
      },
    });
    servers.push(server);
    const run = await runBin(['--seed', '5'], { env: targetEnv(server) });
    expect(run.code, run.out).toBe(EXIT.violations);
    const results = JSON.parse(readFileSync(join(run.cwd, 'reports', 'conformance.json'), 'utf8')) as Results;
    expect(results.verdict).toBe('inconclusive');
    expect(results.run.targetLost?.requests).toBeGreaterThan(3);
    expect(results.run.targetLost?.lastAnswered).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/v1\//);
    expect(results.verdictReason).toMatch(
      /^the target stopped answering during the run \(from (GET|POST|PUT|PATCH|DELETE) \/v1\/\S* on: connection (refused|reset|closed)/,
    );
    // Said once: the terminal lists no requirement that could not decide for want of an answer.
    expect(run.stdout).not.toMatch(/^ \? \S+ \(could not decide\) could not decide: connection/m);
    expect(run.stdout.match(/stopped answering/g)).toHaveLength(1);
    // And in the reports: one item for all it left undecided, with their ids, not one line each.
    const md = readFileSync(join(run.cwd, 'reports', 'conformance.md'), 'utf8');
    const undecided = md.slice(md.indexOf('### Could not be decided'));
    const items = undecided
      .slice(0, undecided.indexOf('\n\n', undecided.indexOf('\n- ')))
      .split('\n')
      .filter((l) => l.startsWith('- '));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatch(/^- \d+ left undecided as the target stopped answering: `/);
    const html = readFileSync(join(run.cwd, 'reports', 'conformance.html'), 'utf8');
    const findings = html.slice(
      html.indexOf('<section class="findings">'),
      html.indexOf('</section>', html.indexOf('<section class="findings">')),
    );
    expect(findings.match(/left undecided/g)).toHaveLength(1);
    expect(findings).not.toContain('could not decide: connection');
    // What it fell on, as commands to send again by hand, the key never written.
    const again = results.run.targetLost?.reproduce ?? [];
    expect(again.length).toBeGreaterThan(0);
    for (const curl of again) expect(curl).toMatch(/^curl .*'http:\/\/127\.0\.0\.1:\d+\/v1\//);
    expect(md).toContain(`  - what it fell on, again: \`${again[0]}\``);
    expect(run.stdout).toContain(`fell on  ${again[0]}`);
    expect(JSON.stringify(results)).not.toContain(server.apiKey);
  },
  CHILD_TIMEOUT.timeout,
);

test(
  'a server that dies on /pets/%ZZ: the fragile checks come last, so everything else was decided first',
  async () => {
    let server: TestServer | undefined;
    server = await referenceServer({
      wrap: (inner) => (req) => {
        // A crash: no answer to this request, every connection gone, nothing listening.
        if (!req.url.includes('%ZZ')) return inner(req);
        void server?.close();
        return new Promise(() => {});
      },
    });
    servers.push(server);
    const run = await runBin(['--seed', '5'], { env: targetEnv(server) });
    const results = JSON.parse(readFileSync(join(run.cwd, 'reports', 'conformance.json'), 'utf8')) as Results;
    // The request it fell on is among those it dropped as it stopped, and the verdict says so first.
    expect(
      results.run.targetLost?.dropped.some((d) => d.includes('%ZZ')),
      run.out,
    ).toBe(true);
    expect(results.verdictReason).toMatch(/^the target stopped answering during the run \(from .* it dropped /);
    // Only the fragile checks and what they share the moment with are left undecided.
    const undecided = results.requirements.filter((r) => r.outcome === 'error').map((r) => r.id);
    const fragile = [
      'errors.no-server-error',
      'errors.refused-body',
      'errors.malformed-uri',
      'createPet.category-range',
    ];
    expect(undecided.filter((id) => !fragile.includes(id))).toEqual([]);
    expect(results.counts.MUST.passed).toBeGreaterThanOrEqual(results.counts.MUST.requirements - 3);
  },
  CHILD_TIMEOUT.timeout,
);

test(
  'a server that answers to the end is not lost, whatever failed on the way',
  async () => {
    const server = await referenceServer();
    servers.push(server);
    const run = await runBin(['--seed', '5', '--only', 'errors,listPets.ok'], { env: targetEnv(server) });
    expect(run.code, run.out).toBe(EXIT.conformant);
    const results = JSON.parse(readFileSync(join(run.cwd, 'reports', 'conformance.json'), 'utf8')) as Results;
    expect(results.run.targetLost).toBeUndefined();
  },
  CHILD_TIMEOUT.timeout,
);
