// The terminal a person reads: while checks run, one progress line (on a terminal only); at the
// end, the summary with one line per finding and where the evidence is; the full evidence only
// with --verbose; a replay command that works wherever the suite was run (npx, not an npm script).
import { afterAll, describe, expect, test } from 'vitest';
import { PLAIN_EVERY_MS, ProgressLine } from '../../src/report/progress.js';
import type { CheckInput } from '../../src/report/results.js';
import { replayCommand } from '../../src/report/results.js';
import { CHILD_TIMEOUT, referenceServer, runBin, targetEnv, type TestServer } from '../net-kit.js';

/** A stream that keeps what is written. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return {
    written,
    stream: { isTTY, columns: 80, write: (s: string) => written.push(s) > 0 } as unknown as NodeJS.WriteStream,
  };
}
const input = (name: string) => ({ name, requirement: { id: name.split(' ')[0] } }) as CheckInput;

describe('the progress line', () => {
  test('on a terminal: one line rewritten in place, how many done and what runs, cleared before the summary', () => {
    const { written, stream: s } = stream(true);
    let now = 0;
    const p = new ProgressLine({ stream: s, now: () => now });
    p.planned(3);
    p.started('auth.missing-key A request without a key…');
    now += 200;
    p.started('listPets.limit.max At most 100…');
    now += 200;
    p.finished(input('auth.missing-key A request without a key…'), true);
    p.end();
    expect(written.every((w) => w.startsWith('\r\x1b[2K'))).toBe(true);
    expect(written).toContain('\r\x1b[2K checks 0/3 done; running auth.missing-key, listPets.limit.max');
    expect(written).toContain('\r\x1b[2K checks 1/3 done, 1 not met; running listPets.limit.max');
    expect(written.at(-1)).toBe('\r\x1b[2K');
    expect(written.join('')).not.toContain('\n');
  });

  test('in a log (CI): nothing on a short run, a plain line at most every 10 s on a long one', () => {
    const { written, stream: s } = stream(false);
    let now = 0;
    const p = new ProgressLine({ stream: s, now: () => now });
    p.planned(100);
    for (let i = 0; i < 100; i++) {
      p.started(`c${i} x`);
      now += PLAIN_EVERY_MS / 20;
      p.finished(input(`c${i} x`), false);
    }
    p.end();
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThanOrEqual((100 * PLAIN_EVERY_MS) / 20 / PLAIN_EVERY_MS);
    expect(written.every((w) => /^ checks \d+\/100 done.*\n$/.test(w) && !w.includes('\x1b'))).toBe(true);
  });
});

test('the replay command works outside a clone: npx with the seed, the key left to the environment', () => {
  expect(replayCommand(42, { baseUrl: "http://h/v1's", embedded: false })).toBe(
    "PETSTORE_BASE_URL='http://h/v1'\\''s' npx petstore-conformance --seed 42",
  );
  expect(replayCommand(-5, { baseUrl: 'x', embedded: true })).toBe('npx petstore-conformance --seed=-5');
});

describe('the command: summary by default, evidence with --verbose', CHILD_TIMEOUT, () => {
  let server: TestServer;
  afterAll(() => server?.close());
  /** Answers GET /pets without a key (auth.missing-key, a MUST, fails with evidence). */
  const run = async (args: string[]) => {
    server ??= await referenceServer({
      wrap: (inner, apiKey) => (req) =>
        req.headers.authorization
          ? inner(req)
          : inner({ ...req, headers: { ...req.headers, authorization: `Bearer ${apiKey}` } }),
    });
    return runBin(['--only', 'auth.missing-key,auth.wrong-key', '--seed', '3', ...args], { env: targetEnv(server) });
  };

  test('by default: no line per check, one line per finding with its first reason, where the evidence is', async () => {
    const { code, stdout, stderr, out, ms } = await run([]);
    expect(code, out).toBe(1);
    // Not a terminal: no progress line in a short run; a machine slow enough to make it long gets plain ones only.
    if (ms < PLAIN_EVERY_MS) expect(stderr).toBe('');
    else expect(stderr).toMatch(/^( checks \d+\/\d+ done[^\n\x1b]*\n)*$/);
    expect(out).not.toContain('Reproduce with');
    expect(out).not.toMatch(/^ *[✓×] /m);
    expect(stdout).toMatch(/^ ✘ auth\.missing-key \d+ of \d+ cases failed: GET \/v1\/pets\S*: expected 401/m);
    expect(stdout).toMatch(
      /^ evidence +requests, responses and curl lines in \S+conformance\.html \(or run with --verbose\)$/m,
    );
    expect(stdout).toContain(`replay: PETSTORE_BASE_URL='${server.baseUrl}' npx petstore-conformance --seed 3`);
    expect(out).not.toContain('npm run conformance');
    expect(out.trim().split('\n').length).toBeLessThanOrEqual(16);
  });

  test('with --verbose (or PETSTORE_VERBOSE=1): a line per check and every failure in full, with its curl line', async () => {
    const { code, out } = await run(['--verbose']);
    expect(code, out).toBe(1);
    expect(out).toContain('Reproduce with: curl');
    expect(out).toMatch(/auth\.wrong-key/);
  });
});
