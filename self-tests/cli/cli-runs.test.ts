// Real runs of the real bin (child processes, concurrently) against servers this test starts,
// each proving what one flag or exit code does: what the server saw, what the run printed, and
// what the report says. --only keeps runs small where the whole suite is not the point.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import { helpText } from '../../src/commands/cli/help.js';
import { errorResponse, type Handler } from '../../src/reference-server/handler.js';
import { runTagOf } from '../../src/checks/context.js';
import { catalogue, checks } from '../../tests/catalogue.js';
import { LITERAL_NAMES } from '../../tests/create-pet.js';
import { answer, isOp, mapResponse } from '../harness/faults-kit.js';
import {
  CHILD_TIMEOUT,
  blackHole,
  closedPort,
  referenceServer,
  runBin,
  targetEnv,
  tempDir,
  type TestServer,
} from '../net-kit.js';

const closers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(closers.map((c) => c.close())));

async function server(options: Parameters<typeof referenceServer>[0] = {}): Promise<TestServer> {
  const s = await referenceServer(options);
  closers.push(s);
  return s;
}

interface ReportEntry {
  id: string;
  outcome: 'passed' | 'skipped' | 'failed' | 'error';
  skipReason?: string;
}

/** Runs the bin in a fresh folder and reads the JSON report it wrote there. */
async function runWithReport(args: string[], env: Record<string, string> = {}) {
  const cwd = tempDir('report');
  const run = await runBin(args, { cwd, env });
  const report = JSON.parse(readFileSync(join(cwd, 'reports', 'conformance.json'), 'utf8')) as {
    requirements: ReportEntry[];
    run: Record<string, unknown>;
  };
  return { ...run, report, outcome: (id: string) => report.requirements.find((r) => r.id === id) };
}

const ids = (report: { requirements: ReportEntry[] }) => report.requirements.map((r) => r.id).sort();

describe('exit codes', CHILD_TIMEOUT, () => {
  test.concurrent('0: the bundled reference server conforms', async () => {
    const run = await runBin(['--only', 'service,listPets.ok']);
    expect(run.out).toContain('testing the bundled reference server');
    expect(run.code, run.out).toBe(EXIT.conformant);
  });

  test.concurrent('1: a server breaking a MUST requirement, named in the output', async () => {
    // createPet, not listPets: a 500 on the preflight's GET /pets would stop the run as not tested.
    const broken = await server({
      wrap: answer(isOp('createPet'), () => errorResponse(500, 'boom', 'broken on purpose')),
    });
    const run = await runBin(['--only', 'createPet.minimal'], { env: targetEnv(broken) });
    expect(run.code, run.out).toBe(EXIT.violations);
    expect(run.out).toMatch(/✘ createPet\.minimal .*expected 201/);
  });

  test.concurrent('1: a redirect is not followed; the failure shows where it points', async () => {
    const moved = await server({
      wrap: answer(isOp('listPets'), () => ({ status: 301, headers: { location: '/v2/pets' }, body: '' })),
    });
    const run = await runBin(['--only', 'listPets.ok'], { env: targetEnv(moved) });
    expect(run.code, run.out).toBe(EXIT.violations);
    expect(run.out).toContain('301, redirecting to Location: /v2/pets (not followed)');
    expect(moved.traffic.methods.GET).toBeGreaterThan(0);
  });

  test.concurrent('3: connection refused, one line', async () => {
    const port = await closedPort();
    const run = await runBin([], { env: { PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`, PETSTORE_API_KEY: 'k' } });
    expect(run.code).toBe(EXIT.unreachable);
    expect(run.stderr.trim()).toBe(
      `petstore-conformance: cannot reach http://127.0.0.1:${port}/v1: connection refused`,
    );
    expect(run.stdout).toBe('');
  });

  test.concurrent('3: a host name that does not resolve, one line saying DNS', async () => {
    const run = await runBin(['--base-url', 'http://petstore.invalid/v1'], { env: { PETSTORE_API_KEY: 'k' } });
    expect(run.code).toBe(EXIT.unreachable);
    expect(run.stderr.trim()).toMatch(
      /^petstore-conformance: cannot reach http:\/\/petstore\.invalid\/v1: DNS: host name (not found|lookup failed)$/,
    );
  });

  test.concurrent('3: a server that never answers, within --timeout, one line saying timeout', async () => {
    const hole = await blackHole();
    closers.push(hole);
    const run = await runBin(['--timeout', '300'], {
      env: { PETSTORE_BASE_URL: `http://127.0.0.1:${hole.port}/v1`, PETSTORE_API_KEY: 'k' },
    });
    expect(run.code).toBe(EXIT.unreachable);
    expect(run.stderr.trim()).toMatch(/: timeout: no complete response within 300 ms$/);
  });
});

describe('flags reach the run', CHILD_TIMEOUT, () => {
  test.concurrent('--base-url and --api-key-env: a real target from flags alone, the key never printed', async () => {
    const target = await server();
    const run = await runBin(
      ['--base-url', target.baseUrl, '--api-key-env', 'STAGING_KEY', '--only', 'auth.valid-key,listPets.ok'],
      {
        env: { STAGING_KEY: target.apiKey },
      },
    );
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(run.out).toContain(`testing ${target.baseUrl}`);
    expect(target.traffic.statuses[200]).toBeGreaterThan(0);
    expect(run.out).not.toContain(target.apiKey);
  });

  test.concurrent(
    '--read-only: a full run sends no POST (nor any other write); checks that must create are skipped with the reason, never passed',
    async () => {
      const target = await server();
      const run = await runWithReport(['--read-only'], targetEnv(target));
      expect(run.code, run.out).toBe(EXIT.conformant);
      expect(Object.keys(target.traffic.methods)).toEqual(['GET']);
      expect(target.traffic.methods.GET).toBeGreaterThan(0);
      expect(run.report.run.readOnly).toBe(true);
      const outcomes = run.report.requirements;
      expect(outcomes.every((r) => r.outcome === 'passed' || r.outcome === 'skipped')).toBe(true);
      for (const id of ['createPet.minimal', 'createPet.missing-name', 'getPet.existing']) {
        expect(run.outcome(id)?.outcome).toBe('skipped');
      }
      for (const r of outcomes.filter((o) => o.outcome === 'skipped'))
        expect(r.skipReason, r.id).toMatch(/read-only|may not create/);
      expect(run.out).toContain('read-only');
    },
  );

  test.concurrent('--max-creates 0: a full run creates no pet; what needs one is skipped for the budget', async () => {
    const target = await server();
    const run = await runWithReport(['--max-creates', '0'], targetEnv(target));
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(target.traffic.statuses[201] ?? 0).toBe(0);
    expect(run.outcome('createPet.minimal')?.skipReason).toMatch(/PETSTORE_MAX_CREATES=0/);
  });

  test.concurrent(
    '--seed: printed; every pet a full run creates carries the run tag, and the ledger lists them all',
    async () => {
      const target = await server();
      const cwd = tempDir('seed');
      const run = await runBin(['--seed', '12345'], { cwd, env: targetEnv(target) });
      expect(run.code, run.out).toBe(EXIT.conformant);
      const tag = runTagOf(12345);
      expect(run.out).toContain('seed 12345');
      expect(run.out).toContain(`"${tag} …"`);
      const created = target.traffic.created;
      expect(created.length).toBeGreaterThan(100);
      // Only a name the check must leave empty, or one that must read as JSON on its own, cannot
      // carry the tag; a name padded with white space on purpose carries it first after the padding.
      const untagged = created.filter((p) => !(typeof p.name === 'string' && p.name.trimStart().startsWith(`${tag} `)));
      expect(untagged.map((p) => p.name).sort()).toEqual(['', ...LITERAL_NAMES].sort());
      const ledger = JSON.parse(readFileSync(join(cwd, 'reports', 'created-pets.json'), 'utf8')) as {
        runTag: string;
        ids: string[];
      };
      expect(ledger.runTag).toBe(tag);
      expect([...ledger.ids].sort()).toEqual(created.map((p) => p.id).sort());
    },
  );

  test.concurrent('--report-dir: the reports land there', async () => {
    const dir = join(tempDir('report-dir'), 'out', 'here');
    const run = await runBin(['--report-dir', dir, '--only', 'listPets.ok']);
    expect(run.code, run.out).toBe(EXIT.conformant);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { requirements: ReportEntry[] };
    expect(ids(report)).toEqual(['listPets.ok']);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('listPets.ok');
    // What --help promises a run leaves is what it leaves.
    const help = helpText();
    const promised = [
      ...help
        .slice(help.indexOf('What a run leaves'), help.indexOf('\nNetwork'))
        .matchAll(/\b[\w-]+\.(?:html|json|md|xml)\b/g),
    ].map((m) => m[0]);
    expect(promised.length).toBeGreaterThanOrEqual(6);
    for (const file of promised) expect(existsSync(join(dir, file)), file).toBe(true);
  });

  test.concurrent('--only and --skip: exactly the selection runs', async () => {
    const run = await runWithReport(['--only', 'auth', '--skip', 'auth.challenge*,auth.scheme-case']);
    expect(run.code, run.out).toBe(EXIT.conformant);
    const expected = catalogue
      .map((r) => r.id)
      .filter((id) => id.startsWith('auth.') && !id.startsWith('auth.challenge') && id !== 'auth.scheme-case');
    expect(ids(run.report)).toEqual(expected.sort());
  });

  test.concurrent(
    '--strict: a SHOULD finding is a warning (exit 0) until --strict makes it fail (exit 1); --no-strict wins over the environment',
    async () => {
      // Drops the Bearer challenge from every 401: breaks auth.challenge (SHOULD) and nothing at MUST level.
      const noChallenge = await server({
        wrap: mapResponse((res) => ({
          ...res,
          headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== 'www-authenticate')),
        })),
      });
      const args = ['--only', 'auth.challenge'];
      const [lenient, strict, overridden] = await Promise.all([
        runWithReport(args, targetEnv(noChallenge)),
        runWithReport([...args, '--strict'], targetEnv(noChallenge)),
        runWithReport([...args, '--no-strict'], { ...targetEnv(noChallenge), PETSTORE_STRICT: '1' }),
      ]);
      for (const run of [lenient, strict, overridden]) expect(run.outcome('auth.challenge')?.outcome).toBe('failed');
      expect(lenient.code, lenient.out).toBe(EXIT.conformant);
      expect(strict.code, strict.out).toBe(EXIT.violations);
      expect(lenient.out).toMatch(/⚠ auth\.challenge \(SHOULD, warning\)/);
      expect(strict.out).toMatch(/✘ auth\.challenge \(SHOULD, strict\)/);
      expect(overridden.code, overridden.out).toBe(EXIT.conformant);
      expect(overridden.report.run.strict).toBe(false);
    },
  );

  test.concurrent(
    "--now: the suite's clock reaches the checks (after the removal day, a working getPet is a finding)",
    async () => {
      // A server on the real clock still serves getPet (the bundled one would follow --now).
      const target = await server();
      const run = await runWithReport(['--now', '2031-01-01T00:00:00Z', '--only', 'getPet.removal'], targetEnv(target));
      expect(run.code, run.out).toBe(EXIT.violations);
      expect(run.outcome('getPet.removal')?.outcome).toBe('failed');
      expect(run.report.run.clock).toBe('2031-01-01T00:00:00.000Z');
    },
  );

  test.concurrent('--concurrency: never more requests in flight than allowed, and that many are used', async () => {
    const slow = await server({ delayMs: 20 });
    const run = await runBin(['--concurrency', '2', '--only', 'auth'], { env: targetEnv(slow) });
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(slow.traffic.maxInFlight).toBe(2);
  });

  test.concurrent('--runs: property-based checks send as many cases as asked', async () => {
    // A property that only reads or is refused (no pets created, so no budget scales it down).
    const property =
      checks.find((c) => c.name.startsWith('auth.wrong-key (property)')) ??
      checks.find((c) => c.name.startsWith('listPets.status.unknown (property)'));
    expect(property, 'a property of auth.wrong-key or listPets.status.unknown').toBeDefined();
    const id = property?.requirement.id ?? '';
    const [few, many] = await Promise.all([server(), server()]);
    const [once, ten] = await Promise.all([
      runBin(['--only', id, '--runs', '1', '--seed', '7'], { env: targetEnv(few) }),
      runBin(['--only', id, '--runs', '10', '--seed', '7'], { env: targetEnv(many) }),
    ]);
    expect(once.code, once.out).toBe(EXIT.conformant);
    expect(ten.code, ten.out).toBe(EXIT.conformant);
    const requests = (t: TestServer) => Object.values(t.traffic.methods).reduce((a, b) => a + b, 0);
    expect(requests(many)).toBeGreaterThanOrEqual(requests(few) + 9);
  });

  describe('--retries', () => {
    /** Answers each distinct request 429 with Retry-After: 0 the first time it is seen. */
    const rateLimited = (): ((inner: Handler) => Handler) => (inner) => {
      const seen = new Set<string>();
      return (req) => {
        const key = `${req.method} ${req.url} ${req.headers.authorization ?? ''} ${req.body}`;
        if (seen.has(key)) return inner(req);
        seen.add(key);
        return errorResponse(429, 'rate_limited', 'slow down', { 'retry-after': '0' });
      };
    };

    test.concurrent(
      '429 with Retry-After is retried and the retries are reported; only running out counts, as could not decide',
      async () => {
        const limited = await server({ wrap: rateLimited() });
        const limitedToo = await server({ wrap: rateLimited() });
        const [retried, noRetries] = await Promise.all([
          runBin(['--only', 'listPets.ok'], { env: targetEnv(limited) }),
          runWithReport(['--only', 'listPets.ok', '--retries', '0'], targetEnv(limitedToo)),
        ]);
        expect(retried.code, retried.out).toBe(EXIT.conformant);
        expect(retried.out).toMatch(/\d+ request\(s\) retried after 429\/503 with Retry-After/);
        expect(noRetries.code, noRetries.out).toBe(EXIT.violations);
        expect(noRetries.outcome('listPets.ok')?.outcome).toBe('error');
        expect(noRetries.out).toMatch(
          /\? listPets\.ok \(could not decide\) could not decide: 429 with Retry-After: 0, and retries are off/,
        );
      },
    );
  });
});
