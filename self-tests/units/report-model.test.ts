// The results tree and its renderings, without a run: the verdict rules, the worst-outcome
// rule, the published schema for every outcome, and hostile text kept inert in every format.
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../src/wire/evidence.js';
import type { OutcomeKind } from '../../src/checks/requirement.js';
import { renderHtml } from '../../src/report/html.js';
import { reportView } from '../../src/report/view.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { DIGEST_COMMAND, suiteDigest } from '../../src/report/manifest.js';
import { renderLedger } from '../../src/report/reporter.js';
import { checks } from '../../tests/catalogue.js';
import { buildResults, type CheckInput, type RunInput } from '../../src/report/results.js';
import { GATEWAY_FAILING } from '../../src/wire/requests.js';
import { coverageSaid, oneLine } from '../../src/report/words.js';
import { renderTerminal } from '../../src/report/terminal.js';

const addFormats = ajvFormats.default as unknown as typeof ajvFormats.default.default;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(
  JSON.parse(readFileSync(new URL('../../schemas/conformance-report.schema.json', import.meta.url), 'utf8')) as object,
);

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
    kind: property ? 'property' : 'requirement',
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

test("a run names its implementation: --label, else the target's host, else the reference server", () => {
  const label = (extra: Partial<RunInput>) => buildResults([check('auth.x', 'passed')], run(extra)).target.label;
  expect(label({})).toBe('staging.example.com');
  expect(label({ target: { baseUrl: 'http://127.0.0.1:8080/v1', embedded: false, label: 'petstore-go 2.1' } })).toBe(
    'petstore-go 2.1',
  );
  expect(label({ target: { baseUrl: 'http://127.0.0.1:41234/v1', embedded: true } })).toBe('reference server');
});

test('a run given a --label is headed with it in every report, beside its base URL; without one, the heading is the base URL alone', () => {
  const given = buildResults(
    [check('auth.x', 'failed')],
    run({ target: { baseUrl: 'http://127.0.0.1:8080/v1', embedded: false, label: 'petstore-go 2.1' } }),
  );
  const html = renderHtml(reportView(given));
  expect(html).toMatch(/<title>Not conformant: petstore-go 2\.1 · /);
  expect(html).toContain('<dd><strong>petstore-go 2.1</strong> <code>http://127.0.0.1:8080/v1</code>');
  expect(renderMarkdown(reportView(given))).toContain('Target **petstore-go 2.1** `http://127.0.0.1:8080/v1`');
  expect(renderTerminal(reportView(given))).toMatch(/^ target +petstore-go 2\.1 · http:\/\/127\.0\.0\.1:8080\/v1$/m);
  expect(renderJunit(given)).toContain('<property name="label" value="petstore-go 2.1"/>');

  const plain = buildResults([check('auth.x', 'failed')], run());
  expect(renderHtml(reportView(plain))).toMatch(/<title>Not conformant: https:\/\/staging\.example\.com\/v1 · /);
  expect(renderMarkdown(reportView(plain))).toContain('Target `https://staging.example.com/v1` ·');
  expect(renderTerminal(reportView(plain))).toMatch(/^ target +https:\/\/staging\.example\.com\/v1$/m);
});

describe('the verdict', () => {
  test.each([
    [
      'every MUST passed, a SHOULD failed',
      [check('a.x', 'passed'), check('a.s', 'failed', 'SHOULD')],
      {},
      'conformant',
    ],
    ['a MUST was skipped (read-only)', [check('a.x', 'passed'), check('a.y', 'skipped')], {}, 'conformant'],
    ['a MUST failed', [check('a.x', 'failed'), check('a.y', 'error')], {}, 'nonconformant'],
    [
      'a MUST failed in a run that was then interrupted',
      [check('a.x', 'failed')],
      { interrupted: true },
      'nonconformant',
    ],
    [
      'a MUST failed in one check while its property could not finish',
      [check('a.x', 'failed'), check('a.x', 'error', 'MUST', true)],
      { interrupted: true },
      'nonconformant',
    ],
    [
      'a SHOULD failed in strict mode',
      [check('a.x', 'passed'), check('a.s', 'failed', 'SHOULD')],
      { strict: true },
      'nonconformant',
    ],
    ['a MUST could not be decided', [check('a.x', 'passed'), check('a.y', 'error')], {}, 'inconclusive'],
    [
      'a SHOULD could not be decided in strict mode',
      [check('a.s', 'error', 'SHOULD')],
      { strict: true },
      'inconclusive',
    ],
    ['the run was interrupted', [check('a.x', 'passed')], { interrupted: true }, 'inconclusive'],
    ['the suite itself failed', [check('a.x', 'passed')], { errors: ['tests/x.ts: SyntaxError'] }, 'inconclusive'],
    ['nothing ran', [], {}, 'inconclusive'],
  ] as const)('%s: %s', (_what, checks, extra, verdict) => {
    expect(buildResults(checks, run(extra)).verdict).toBe(verdict);
  });

  test('a requirement takes its outcome from its checks: a failed check stands, else error, else skipped, else passed', () => {
    const results = buildResults(
      [
        check('a.x', 'passed'),
        check('a.x', 'skipped', 'MUST', true),
        check('b.y', 'failed'),
        check('b.y', 'error', 'MUST', true),
        check('c.z', 'skipped'),
        check('c.z', 'passed', 'MUST', true),
      ],
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

  test("a check's kind is a field of the check, never read from its name", () => {
    const named = { ...check('a.x', 'passed'), name: 'a.x (property) looks like a property' };
    const kinds = buildResults(
      [named, { ...check('a.x', 'passed'), kind: 'property' as const }],
      run(),
    ).requirements[0]?.checks.map((c) => c.kind);
    expect(kinds).toEqual(['requirement', 'property']);
    expect(
      checks.every(
        (c) => c.kind === (c.name.startsWith(`${c.requirement.id} (property) `) ? 'property' : 'requirement'),
      ),
    ).toBe(true);
  });

  test('a target that could not be tested: verdict not-tested with the diagnosis, in every format, and the schema takes it', () => {
    const diagnosis = 'the server refused the API key (401 on GET /v1/pets with the key): check PETSTORE_API_KEY';
    const results = buildResults(
      [check('a.x', 'error'), check('a.s', 'error', 'SHOULD')],
      run({ diagnosis, seed: null }),
    );
    expect(results).toMatchObject({ verdict: 'not-tested', verdictReason: diagnosis, run: { diagnosis } });
    expect(validateReport(JSON.parse(JSON.stringify(results))), JSON.stringify(validateReport.errors)).toBe(true);
    expect(renderMarkdown(reportView(results))).toContain('Pet Store conformance: Not tested');
    expect(renderHtml(reportView(results))).toContain('<span id="level">Not tested</span>');
    // The one reason is the headline, not a list of every requirement repeating it.
    expect(renderMarkdown(reportView(results))).not.toContain('### Could not be decided');
    expect(renderMarkdown(reportView(results))).toContain('No check ran: each of the 2 requirements is not tested');
    expect(renderHtml(reportView(results))).not.toContain('<section class="findings">');
    expect(renderJunit(results)).toContain(': not-tested"');
    expect(renderTerminal(reportView(results))).toContain(`verdict  NOT TESTED: ${diagnosis}`);
    // Without a diagnosis the same checks are merely undecided.
    expect(buildResults([check('a.x', 'error')], run()).verdict).toBe('inconclusive');
  });

  test('a backend that falls over mid-run is said once: "the target failed during the run", not one line per requirement', () => {
    const gateway = (id: string, level: 'MUST' | 'SHOULD' = 'MUST'): CheckInput => ({
      ...check(id, 'error', level),
      message: `could not decide: ${GATEWAY_FAILING} (502 Bad Gateway from nginx on GET /v1/pets)`,
    });
    const fell = buildResults(
      [check('a.ok', 'passed'), ...Array.from({ length: 30 }, (_, i) => gateway(`g.m${i}`)), gateway('g.s', 'SHOULD')],
      run(),
    );
    expect(fell.verdict).toBe('inconclusive');
    expect(fell.verdictReason).toBe(
      `the target failed during the run (${GATEWAY_FAILING}): 30 MUST requirements could not be decided`,
    );
    const text = renderTerminal(reportView(fell));
    expect(text.split('\n').filter((l) => l.includes(GATEWAY_FAILING))).toHaveLength(1);
    expect(text).not.toMatch(/g\.(m\d+|s) /);
    // A violation proven before the fall stands, and the fall is still said.
    const both = buildResults([check('a.x', 'failed'), gateway('g.m1'), gateway('g.m2')], run());
    expect(both.verdict).toBe('nonconformant');
    expect(both.verdictReason).toBe(
      `1 MUST requirement violated: a.x; the target failed during the run (${GATEWAY_FAILING}), 2 more could not be decided`,
    );
    // Other undecided requirements are listed as before.
    expect(buildResults([check('a.y', 'error')], run()).verdictReason).toBe(
      '1 MUST requirement could not be decided: a.y',
    );
  });

  test('a skipped MUST requirement is one line of the terminal summary, with its reason', () => {
    const reason = 'store too large to prove a list complete: every status already fills a list of 100';
    const results = buildResults(
      [check('a.x', 'passed'), { ...check('consistency.create-then-list', 'skipped'), message: reason }],
      run(),
    );
    expect(
      renderTerminal(reportView(results), { width: 200 })
        .split('\n')
        .filter((l) => l.includes('consistency.create-then-list')),
    ).toEqual([` - consistency.create-then-list (skipped) ${reason}`]);
  });

  test('the one-line reason of a multi-case failure names the first case', () => {
    expect(
      oneLine('2 of 3 cases failed:\n- GET /pets: expected 401; got 200\n- POST /pets: expected 401; got 201'),
    ).toBe('2 of 3 cases failed: GET /pets: expected 401; got 200 …');
  });

  test('a line cut short keeps what was expected and what came back', () => {
    const line = `GET /v1/pets/1: expected 200 (a pet that exists: ${'x'.repeat(200)}); got 422 with {"code":"${'y'.repeat(200)}"}`;
    const shown = oneLine(line, 120);
    expect(shown.length).toBeLessThanOrEqual(120);
    expect(shown).toMatch(/^GET \/v1\/pets\/1: expected 200 \(a pet that exists: x+…; got 422 with \{"code":"y+…$/);
    // A short expectation leaves the rest to what came back.
    const short = oneLine(`GET /p: expected 200; got 500 with ${'z'.repeat(300)}`, 80);
    expect([short.length, short]).toEqual([80, expect.stringMatching(/^GET \/p: expected 200; got 500 with z+…$/)]);
  });

  test("retries are summed over a requirement's checks, kept per run with the pacing, shown in Markdown and HTML, and the schema takes them", () => {
    const retried = (
      c: CheckInput,
      statuses: Record<string, number>,
      count: number,
      retryAfterMs: number,
      resent = 0,
    ): CheckInput => ({ ...c, retries: { count, statuses, retryAfterMs, resent } });
    const results = buildResults(
      [
        retried(check('a.x', 'passed'), { 429: 2 }, 2, 1000),
        retried(check('a.x', 'passed', 'MUST', true), { 429: 1, 503: 1 }, 1, 0, 1),
        check('b.y', 'passed'),
        retried(check('c.z', 'error'), { 429: 1 }, 0, 0),
      ],
      run({
        retries: {
          count: 3,
          statuses: { 429: 4, 503: 1 },
          retryAfterMs: 1000,
          resent: 1,
          pacing: { limited: 5, pausedMs: 1000, slowestRate: 2.5, elapsedMs: 4000 },
        },
      }),
    );
    expect(results.requirements.map((e) => e.retries)).toEqual([
      { count: 3, statuses: { 429: 3, 503: 1 }, retryAfterMs: 1000, resent: 1 },
      undefined,
      { count: 0, statuses: { 429: 1 }, retryAfterMs: 0, resent: 0 },
    ]);
    expect(results.run.retries?.pacing.limited).toBe(5);
    expect(validateReport(JSON.parse(JSON.stringify(results))), JSON.stringify(validateReport.errors)).toBe(true);
    expect(buildResults([check('a.x', 'passed')], run()).run.retries).toBeNull();
    const markdown = renderMarkdown(reportView(results));
    expect(markdown).toContain('Retried or resent (2)');
    expect(markdown).toContain(
      '`429 ×3, 503 ×1 with Retry-After, 3 retried after 1.0 s of waits asked; 1 resent after a stale connection`',
    );
    expect(markdown).toContain(
      '> Requests sent again (the infrastructure, not findings): 429 ×4, 503 ×1 with Retry-After, 3 retried after 1.0 s of waits asked; 1 resent ' +
        'after a stale connection; every request paused 1.0 s in all; the pace slowed to \\~2.5 req/s.',
    );
    const html = renderHtml(reportView(results));
    expect(html).toContain('Sent again: 429 ×1 with Retry-After, none retried');
    expect(html).toContain('every request paused 1.0 s in all');
    // The schema holds them to their shape: a status that never asks to wait is no retry.
    const wrong = JSON.parse(JSON.stringify(results)) as {
      requirements: { retries?: { statuses: Record<string, number> } }[];
    };
    if (wrong.requirements[0]?.retries) wrong.requirements[0].retries.statuses = { 500: 1 };
    expect(validateReport(wrong)).toBe(false);
  });
});

describe('every rendering of hostile text', () => {
  const results = buildResults(
    [
      check('a.x', 'failed'),
      check('a.y', 'error'),
      check('a.z', 'skipped'),
      check('a.s', 'failed', 'SHOULD'),
      check('a.p', 'passed'),
    ],
    run(),
  );

  test('conformance.json of every outcome validates against the published schema', () => {
    const valid = validateReport(JSON.parse(JSON.stringify(results)));
    expect(validateReport.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(results.requirements[0]?.evidence).toHaveLength(10);
    expect(results.requirements[0]?.evidenceOmitted).toBe(2);
  });

  test('the HTML carries it as text: one script (its own), no markup from the target', () => {
    const html = renderHtml(reportView(results));
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
    const md = renderMarkdown(reportView(results));
    expect(md).toContain('a.x holds \\| \\*\\*bold\\*\\* \\<b\\>');
    const finding = md.split('\n').filter((l) => l.startsWith('- `a.x`'));
    expect(finding).toHaveLength(1);
    expect(finding[0]).toMatch(/: `failed: <\/pre><\/details><script>.*`$/);
    expect(md.replace(/`[^`\n]*`/g, '')).not.toMatch(/<script|\]\(http/);
  });

  test('the terminal marks SHOULD findings as warnings', () => {
    const text = renderTerminal(reportView(results));
    expect(text).toMatch(/✘ a\.x /);
    expect(text).toMatch(/\? a\.y \(could not decide\)/);
    expect(text).toMatch(/⚠ a\.s \(SHOULD, warning\)/);
    expect(text).toContain('verdict  NOT CONFORMANT: 1 MUST requirement violated: a.x');
  });

  test('the ledger keeps int64 ids digit for digit, in order', () => {
    const ledger = JSON.parse(renderLedger(results, ['9223372036854775807', '10', '2'])) as {
      ids: string[];
      count: number;
    };
    expect(ledger).toMatchObject({ count: 3, ids: ['2', '10', '9223372036854775807'] });
  });
});

test("the suite's digest is what the shell pipeline in manifest.json names computes", () => {
  const tree = mkdtempSync(join(tmpdir(), 'petstore-digest-'));
  const files: [string, string][] = [
    ['bin/x.js', '1'],
    ['src/b.ts', '2'],
    ['src/Z/é.ts', '3'],
    ['src/_.ts', '4'],
    ['src/a/b.ts', '4'],
    ['tests/t.ts', '5'],
    ['schemas/s.json', '{}'],
    ['package.json', '{}'],
    ['package-lock.json', '{}'],
    ['README.md', 'not covered'],
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

test('coverage names why inputs were not sent by the head of each reason, parentheses whole', () => {
  const said = (...whys: string[]) =>
    coverageSaid({
      sent: 1,
      catalogued: 9,
      notSent: whys.map((why, i) => ({ id: `i${i}`, requirement: 'r', why })),
      channels: [],
      statuses: {},
    });
  expect(said('its check ended first (failed)', 'its check ended first (failed)', 'no answer came')).toBe(
    "sent 1 of 9 catalogued inputs (what mainstream parsers forgive, the generators' constants), whatever the seed; " +
      'not sent: 2, its check ended first (failed); 1, no answer came',
  );
  expect(said('2 of 6 cases not run in read-only mode (writes; more)')).toMatch(/not sent: 1, read-only mode$/);
  expect(said('3 of 4 cases not run (write budget spent: 10 of 10)')).toMatch(/not sent: 1, write budget spent$/);
  expect(said('1 of 2 cases not run (not selected (--only, --skip))')).toMatch(
    /not sent: 1, not selected \(--only, --skip\)$/,
  );
});
