// `petstore-conformance diff OLD.json NEW.json`: the reports of two harness runs (the auth checks
// against a correct server and against a broken one), compared by the command in-process.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { EXIT, main } from '../../src/commands/cli.js';
import type { Results } from '../../src/report/results.js';
import { catalogue } from '../../tests/catalogue.js';
import { runCatalogueAgainst } from '../harness/harness.js';
import { resultsOf } from '../harness/results-of.js';
import { faults } from '../harness/faults/index.js';
import { tempDir } from '../net-kit.js';

const AUTH = catalogue.filter((r) => r.id.startsWith('auth.')).map((r) => r.id);

const dir = tempDir('diff');
const write = (name: string, r: Results | string) => {
  const path = join(dir, name);
  writeFileSync(path, typeof r === 'string' ? r : JSON.stringify(r, null, 2));
  return path;
};

/** The command in-process: exit code, stdout, stderr. */
async function diff(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(console, 'log').mockImplementation((s) => void out.push(String(s)));
  vi.spyOn(console, 'error').mockImplementation((s) => void err.push(String(s)));
  const code = await main(['diff', ...args], env);
  vi.restoreAllMocks();
  return { code, out: out.join(''), err: err.join('\n') };
}
afterEach(() => vi.restoreAllMocks());

let good: Results;
let bad: Results;
let goodPath: string;
let badPath: string;
/** Requirements the broken server fails that the correct one passes. */
let broken: Results['requirements'];

beforeAll(async () => {
  const fault = faults.find((f) => f.name === 'list-without-auth');
  if (!fault) throw new Error('fault');
  const [correct, faulty] = await Promise.all([
    runCatalogueAgainst((inner) => inner, { only: AUTH }),
    runCatalogueAgainst(fault.wrap, { only: AUTH }),
  ]);
  good = resultsOf(correct);
  bad = resultsOf(faulty);
  goodPath = write('good.json', good);
  badPath = write('bad.json', bad);
  broken = bad.requirements.filter(
    (e) => e.outcome === 'failed' && good.requirements.find((g) => g.id === e.id)?.outcome === 'passed',
  );
  expect(broken.map((e) => e.id)).toContain('auth.missing-key');
});

describe('diff OLD NEW', () => {
  test('names every newly failing requirement with its first reason, by level, and exits 1', async () => {
    const md = join(dir, 'diff.md');
    const summary = write('summary.md', '# earlier step\n');
    const { code, out } = await diff([goodPath, badPath, '--md', md], { GITHUB_STEP_SUMMARY: summary });
    expect(code).toBe(1);
    expect(out).toMatch(/^Pet Store conformance: \d+ new MUST failures?: .*auth\.missing-key/);
    for (const e of broken) {
      expect(out).toContain(`  ${e.id} (${e.level}) failed: ${(e.message ?? '').split('\n')[0]?.trim().slice(0, 40)}`);
      expect(readFileSync(md, 'utf8')).toContain(`- \`${e.id}\` ${e.level}: failed: `);
    }
    expect(out).toMatch(/\nNewly failing, MUST \(\d+\)\n/);
    expect(out).not.toMatch(/\nFixed /);
    const markdown = readFileSync(md, 'utf8');
    expect(markdown).toMatch(/^## ❌ Pet Store conformance: /);
    expect(readFileSync(summary, 'utf8')).toBe(`# earlier step\n${markdown}\n`);
  });

  test('with its arguments swapped, says fixed and exits 0', async () => {
    const { code, out } = await diff([badPath, goodPath]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Pet Store conformance: no new MUST failure/);
    expect(out).toMatch(/\nFixed \(\d+\)\n/);
    for (const e of broken)
      expect(out).toMatch(new RegExp(`\\n  ${e.id.replace(/\./g, '\\.')} \\(${e.level}\\) passes now; was: `));
    expect(out).not.toMatch(/Newly failing/);
  });

  test('the same run twice: still failing, nothing new, exit 0', async () => {
    const { code, out } = await diff([badPath, badPath]);
    expect(code).toBe(0);
    expect(out).toMatch(/\nStill failing \(\d+\)\n  auth\./);
    expect(out).not.toMatch(/not like for like/);
  });

  test('says plainly when targets, suite versions or selections differ, and lists added and removed requirements', async () => {
    const older: Results = {
      ...good,
      suite: { ...good.suite, version: '0.9.0' },
      run: { ...good.run, selection: { only: [], skip: [] } },
      requirements: good.requirements.filter((e) => e.id !== 'auth.challenge'),
    };
    const newer = { ...bad, target: { baseUrl: 'https://staging.example.com/v1', embedded: false } };
    newer.requirements = bad.requirements.filter((e) => e.id !== 'auth.scheme-case');
    const { code, out } = await diff([write('older.json', older), write('newer.json', newer)]);
    expect(code).toBe(1);
    expect(out).toContain(
      '! not like for like: different targets: http://127.0.0.1/v1 then https://staging.example.com/v1',
    );
    expect(out).toContain('! not like for like: different suite versions: 0.9.0 then 1.0.0');
    expect(out).toContain('! not like for like: different selections: everything then only auth');
    expect(out).toMatch(/\nRequirements added \(1\)\n  auth\.challenge \(SHOULD\) /);
    expect(out).toMatch(/\nRequirements removed \(1\)\n  auth\.scheme-case \(\w+\) not in the new run/);
  });

  test('a file that is not a valid report, or a wrong number of arguments, is exit 2 in one line', async () => {
    const notReport = write(
      'not-report.json',
      JSON.stringify({ format: 'petstore-conformance/report', formatVersion: '1.3.0', verdict: 'great' }),
    );
    let run = await diff([goodPath, notReport]);
    expect(run.code).toBe(EXIT.usage);
    expect(run.err).toMatch(
      new RegExp(
        `^petstore-conformance: diff: ${notReport.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a valid conformance\\.json ` +
          `\\(schemas/conformance-report\\.schema\\.json\\): .+$`,
      ),
    );
    run = await diff([goodPath]);
    expect(run.code).toBe(EXIT.usage);
    expect(run.err).toMatch(/^petstore-conformance: diff takes two reports, OLD\.json and NEW\.json; got 1/);
    run = await diff([goodPath, join(dir, 'nope.json')]);
    expect(run.err.split('\n')).toHaveLength(1);
    expect(run.err).toMatch(/nope\.json: no such file$/);
  });
});
