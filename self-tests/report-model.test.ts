// The results tree and its renderings, without a run: the verdict rules, the worst-outcome
// rule, the published schema for every outcome, and hostile text kept inert in every format.
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../src/evidence.js';
import type { OutcomeKind } from '../src/requirement.js';
import { renderHtml } from '../src/report/html.js';
import { renderJunit } from '../src/report/junit.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { DIGEST_COMMAND, suiteDigest } from '../src/report/manifest.js';
import { renderLedger } from '../src/report/reporter.js';
import { buildResults, oneLine, type CheckInput, type RunInput } from '../src/report/results.js';
import { renderTerminal } from '../src/report/terminal.js';

const addFormats = ajvFormats.default as unknown as typeof ajvFormats.default.default;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(new URL('../schemas/conformance-report.schema.json', import.meta.url), 'utf8')) as object);

const HOSTILE = `</pre></details><script>alert("x")</script> | **bold** [link](http://evil) & \u0007 ]]> <!--`;

const exchange: Exchange = {
  request: { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: { authorization: 'Bearer $PETSTORE_API_KEY' } },
  response: { status: 200, headers: { 'content-type': 'text/html' }, body: HOSTILE },
  reproduce: `curl -sS -i -X GET 'http://127.0.0.1:1/v1/pets' -H "authorization: Bearer $PETSTORE_API_KEY"`,
};

function check(id: string, outcome: OutcomeKind, level: 'MUST' | 'SHOULD' = 'MUST', property = false): CheckInput {
  return {
    requirement: { id, level, section: 'Authentication', statement: `${id} holds | **bold** <b>` },
    name: property ? `${id} (property) every input` : `${id} ${id} holds`,
    outcome,
    ...(outcome === 'passed' ? {} : { message: `${outcome}: ${HOSTILE}` }),
    evidence: outcome === 'failed' || outcome === 'error' ? Array.from({ length: 12 }, () => exchange) : [],
    durationMs: 5,
  };
}

function run(extra: Partial<RunInput> = {}): RunInput {
  return {
    suite: { name: 'petstore-conformance', version: '0.1.0', commit: 'a'.repeat(40) },
    target: { baseUrl: 'https://staging.example.com/v1', embedded: false },
    startedAt: new Date('2026-01-01T00:00:00Z'),
    finishedAt: new Date('2026-01-01T00:00:09Z'),
    seed: 7,
    node: 'v20.19.0',
    strict: false,
    readOnly: false,
    clock: null,
    only: [],
    skip: [],
    interrupted: false,
    errors: [],
    createdPets: ['9223372036854775807', '1'],
    runTag: 'pcs-7',
    ...extra,
  };
}

describe('the verdict', () => {
  test.each([
    ['every MUST passed, a SHOULD failed', [check('a.x', 'passed'), check('a.s', 'failed', 'SHOULD')], {}, 'conformant'],
    ['a MUST was skipped (read-only)', [check('a.x', 'passed'), check('a.y', 'skipped')], {}, 'conformant'],
    ['a MUST failed', [check('a.x', 'failed'), check('a.y', 'error')], {}, 'nonconformant'],
    ['a MUST failed in a run that was then interrupted', [check('a.x', 'failed')], { interrupted: true }, 'nonconformant'],
    ['a MUST failed in one check while its property could not finish', [check('a.x', 'failed'), check('a.x', 'error', 'MUST', true)], { interrupted: true }, 'nonconformant'],
    ['a SHOULD failed in strict mode', [check('a.x', 'passed'), check('a.s', 'failed', 'SHOULD')], { strict: true }, 'nonconformant'],
    ['a MUST could not be decided', [check('a.x', 'passed'), check('a.y', 'error')], {}, 'inconclusive'],
    ['a SHOULD could not be decided in strict mode', [check('a.s', 'error', 'SHOULD')], { strict: true }, 'inconclusive'],
    ['the run was interrupted', [check('a.x', 'passed')], { interrupted: true }, 'inconclusive'],
    ['the suite itself failed', [check('a.x', 'passed')], { errors: ['tests/x.ts: SyntaxError'] }, 'inconclusive'],
    ['nothing ran', [], {}, 'inconclusive'],
  ] as const)('%s: %s', (_what, checks, extra, verdict) => {
    expect(buildResults(checks, run(extra)).verdict).toBe(verdict);
  });

  test('a requirement takes its outcome from its checks: a failed check stands, else error, else skipped, else passed', () => {
    const results = buildResults(
      [check('a.x', 'passed'), check('a.x', 'skipped', 'MUST', true), check('b.y', 'failed'), check('b.y', 'error', 'MUST', true), check('c.z', 'skipped'), check('c.z', 'passed', 'MUST', true)],
      run(),
    );
    expect(results.requirements.map((r) => [r.id, r.outcome, r.checks.length])).toEqual([
      ['a.x', 'skipped', 2],
      ['b.y', 'failed', 2],
      ['c.z', 'skipped', 2],
    ]);
    expect(results.requirements[1]?.checks.map((c) => c.kind)).toEqual(['requirement', 'property']);
    expect(results.counts.MUST).toEqual({ requirements: 3, passed: 0, skipped: 2, failed: 1, error: 0 });
  });

  test('the one-line reason of a multi-case failure names the first case', () => {
    expect(oneLine('2 of 3 cases failed:\n- GET /pets: expected 401; got 200\n- POST /pets: expected 401; got 201')).toBe(
      '2 of 3 cases failed: GET /pets: expected 401; got 200 …',
    );
  });
});

describe('every rendering of hostile text', () => {
  const results = buildResults([check('a.x', 'failed'), check('a.y', 'error'), check('a.z', 'skipped'), check('a.s', 'failed', 'SHOULD'), check('a.p', 'passed')], run());

  test('conformance.json of every outcome validates against the published schema', () => {
    const valid = validateReport(JSON.parse(JSON.stringify(results)));
    expect(validateReport.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(results.requirements[0]?.evidence).toHaveLength(10);
    expect(results.requirements[0]?.evidenceOmitted).toBe(2);
  });

  test('the HTML carries it as text: one script (its own), no markup from the target', () => {
    const html = renderHtml(results);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('alert("x")</script>');
    expect(html).toContain('&#60;/pre&#62;&#60;/details&#62;&#60;script&#62;');
    expect(html).not.toMatch(/(src|href)=["']?https?:/);
  });

  test('junit.xml escapes it and drops characters XML cannot carry', () => {
    const xml = renderJunit(results);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('\u0007');
    expect(xml).toContain('&lt;/pre&gt;');
    expect(xml).toMatch(/<testcase name="a\.x [^"]*"[^>]*>[\s\S]*?<failure /);
    expect(xml).toMatch(/<testcase name="a\.y [^"]*"[^>]*>[\s\S]*?<error /);
    expect(xml).toMatch(/<testcase name="a\.z [^"]*"[^>]*>[\s\S]*?<skipped /);
    expect(xml).toMatch(/<testcase name="a\.s [^"]*"[^>]*>(?:(?!<\/testcase>)[\s\S])*<property name="warning"/);
  });

  test('the Markdown keeps it inert: statements escaped, reasons in code spans, one line per finding', () => {
    const md = renderMarkdown(results);
    expect(md).toContain('a.x holds \\| \\*\\*bold\\*\\* \\<b\\>');
    const finding = md.split('\n').filter((l) => l.startsWith('- `a.x`'));
    expect(finding).toHaveLength(1);
    expect(finding[0]).toMatch(/: `failed: <\/pre><\/details><script>.*`$/);
    expect(md.replace(/`[^`\n]*`/g, '')).not.toMatch(/<script|\]\(http/);
  });

  test('the terminal marks SHOULD findings as warnings', () => {
    const text = renderTerminal(results);
    expect(text).toMatch(/✘ a\.x /);
    expect(text).toMatch(/\? a\.y \(could not decide\)/);
    expect(text).toMatch(/⚠ a\.s \(SHOULD, warning\)/);
    expect(text).toContain('verdict  NOT CONFORMANT: 1 MUST requirement violated: a.x');
  });

  test('the ledger keeps int64 ids digit for digit, in order', () => {
    const ledger = JSON.parse(renderLedger(results, ['9223372036854775807', '10', '2'])) as { ids: string[]; count: number };
    expect(ledger).toMatchObject({ count: 3, ids: ['2', '10', '9223372036854775807'] });
  });
});

test("the suite's digest is what the shell pipeline in manifest.json names computes", () => {
  const tree = mkdtempSync(join(tmpdir(), 'petstore-digest-'));
  const files: [string, string][] = [
    ['bin/x.js', '1'], ['src/b.ts', '2'], ['src/Z/é.ts', '3'], ['src/_.ts', '4'], ['src/a/b.ts', '4'], ['tests/t.ts', '5'],
    ['schemas/s.json', '{}'], ['package.json', '{}'], ['package-lock.json', '{}'], ['README.md', 'not covered'],
  ];
  try {
    for (const [path, text] of files) {
      mkdirSync(join(tree, path, '..'), { recursive: true });
      writeFileSync(join(tree, path), text);
    }
    const shell = execSync(DIGEST_COMMAND, { cwd: tree, encoding: 'utf8' });
    expect(suiteDigest(tree)).toEqual({ sha256: shell.split(' ')[0], files: files.length - 1 });
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});
