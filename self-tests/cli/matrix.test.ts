// `petstore-conformance matrix`: three runs over the real catalogue, built from chosen outcomes by
// buildResults as a run builds them, put side by side by the command in-process; matrix.html is
// opened in the bundled headless Chromium (browser.ts), its filters clicked and its rows counted.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { main } from '../../src/commands/cli.js';
import { labelOf, runMode, signalOf, uniqueLabels, type CellOutcome } from '../../src/commands/matrix/model.js';
import { renderReports } from '../../src/report/reporter.js';
import {
  buildResults,
  LEVELS,
  type CheckInput,
  type ConformanceLevel,
  type Results,
  type RunInput,
} from '../../src/report/results.js';
import { LEVEL_TITLE } from '../../src/report/verdict.js';
import type { OutcomeKind } from '../../src/checks/requirement.js';
import { catalogue } from '../../tests/catalogue.js';
import type { Handler } from '../../src/reference-server/handler.js';
import { faults } from '../harness/faults/index.js';
import { runSetup } from '../harness/harness.js';
import { catalogueResults, resultsOf } from '../harness/results-of.js';
import { launchBundledChromium, pageProblems } from './browser.js';
import { root, tempDir } from '../net-kit.js';

const dir = tempDir('matrix');
const ids = catalogue.map((r) => r.id);
const MUST = catalogue.filter((r) => r.level === 'MUST').map((r) => r.id);
const level = (id: string) => catalogue.find((r) => r.id === id)?.level;

/** A run in which every requirement passed, but for those named (and those left out: not run). */
function results(
  target: { baseUrl: string; embedded: boolean; label?: string },
  outcomes: Record<string, [OutcomeKind, string]> = {},
  omit: string[] = [],
): Results {
  const checks: CheckInput[] = catalogue
    .filter((r) => !omit.includes(r.id))
    .map((r) => {
      const [outcome, message] = outcomes[r.id] ?? ['passed', undefined];
      return {
        requirement: r,
        name: `${r.id} ${r.statement}`,
        kind: 'requirement',
        outcome,
        ...(message ? { message } : {}),
        evidence: [],
        durationMs: 3,
      };
    });
  const at = new Date('2026-06-01T12:00:00Z');
  return buildResults(checks, {
    suite: { name: 'petstore-conformance', version: '1.0.0', commit: null },
    target,
    startedAt: at,
    finishedAt: at,
    seed: 42,
    node: process.version,
    strict: false,
    readOnly: false,
    clock: null,
    only: [],
    skip: [],
    interrupted: false,
    errors: [],
    createdPets: [],
    runTag: null,
  });
}

const MISSING_KEY = 'GET /v1/pets without a key answered 200, expected 401\nsecond line of evidence';
const CHALLENGE = 'a 401 without WWW-Authenticate';
const UNDECIDED = 'the request timed out after 10000 ms';
const SKIPPED = 'not run in read-only mode';
/** Left out of b's run and of a's (the first input: the rows are the union, in the catalogue's order). */
const OMITTED = ids[ids.length - 1] as string;
const A_OMITTED = ids[0] as string;
/** b differs from the others on these; c only on auth.challenge. */
const B_OUTCOMES: Record<string, [OutcomeKind, string]> = {
  'auth.missing-key': ['failed', MISSING_KEY],
  'auth.challenge': ['failed', CHALLENGE],
  'createPet.int64-extremes': ['error', UNDECIDED],
  'createPet.unicode': ['skipped', SKIPPED],
};
const DIFFER = [A_OMITTED, ...Object.keys(B_OUTCOMES), OMITTED];

const a = results({ baseUrl: 'http://127.0.0.1:8081/v1', embedded: false, label: 'Acme <Pets> & Co' }, {}, [A_OMITTED]);
// A run of format 1.3.0, from before target.label: its column is named by its host.
const b: Results = {
  ...results({ baseUrl: 'http://127.0.0.1:8082/v1', embedded: false }, B_OUTCOMES, [OMITTED]),
  formatVersion: '1.3.0',
};
delete (b.target as { label?: string }).label;
const c = results({ baseUrl: 'http://127.0.0.1:9/v1', embedded: true }, { 'auth.challenge': ['failed', CHALLENGE] });
const LABELS = ['Acme <Pets> & Co', '127.0.0.1:8082', 'reference server'];

/** Writes a report's conformance.json (and its conformance.html when asked) into its own folder. */
function place(name: string, r: Results | string, html = false): string {
  mkdirSync(join(dir, name), { recursive: true });
  const path = join(dir, name, 'conformance.json');
  writeFileSync(path, typeof r === 'string' ? r : JSON.stringify(r, null, 2));
  // As a run writes them beside its conformance.json: its conformance.html, badge.svg and the rest.
  if (html && typeof r !== 'string')
    for (const f of renderReports(r, []))
      if (f.file !== 'conformance.json') writeFileSync(join(dir, name, f.file), f.content);
  return path;
}

/** The command in-process: exit code, stdout, stderr. */
async function matrix(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((s) => void out.push(String(s)));
  vi.spyOn(console, 'error').mockImplementation((s) => void err.push(String(s)));
  const code = await main(['matrix', ...args]);
  vi.restoreAllMocks();
  return { code, out: out.join('\n'), err: err.join('\n') };
}
afterEach(() => vi.restoreAllMocks());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const out = join(dir, 'out');
let paths: string[];
beforeAll(async () => {
  paths = [place('a', a, true), place('b', b, true), place('c', c)];
  const { code, out: said, err } = await matrix([...paths, '--out', out]);
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(said).toBe(
    `matrix: ${ids.length} requirements × 3 implementations, ${DIFFER.length} rows differ; wrote ${join(out, 'matrix.html')} and ${join(out, 'matrix.md')}`,
  );
});
const read = (file: string) => readFileSync(join(out, file), 'utf8');

describe('matrix A B C --out DIR', () => {
  test('matrix.html and matrix.md name the three implementations and every requirement', () => {
    const html = read('matrix.html');
    const md = read('matrix.md');
    for (const [i, label] of LABELS.entries()) {
      const shown = label.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
      expect(html).toContain(`<a class="label" href="#impl-${i + 1}" title="${shown}">${shown}</a>`);
      expect(md).toContain(`**${label.replace(/[<>&]/g, '\\$&')}**`);
    }
    for (const id of ids) {
      expect(html).toContain(`id="m-${id}"`);
      expect(md).toMatch(
        new RegExp(
          `^\\| (\\*\\*≠\\*\\*)?( fails in [a-z ]+)? \\| \`${id.replace(/\./g, '\\.')}\` \\| ${level(id)} \\|`,
          'm',
        ),
      );
    }
  });

  test('matrix.md marks exactly the rows where the implementations differ, and shows each outcome', () => {
    const md = read('matrix.md');
    const marked = [...md.matchAll(/^\| \*\*≠\*\*(?: fails in [a-z ]+)? \| `([^`]+)`/gm)].map((m) => m[1]);
    expect(marked.sort()).toEqual([...DIFFER].sort());
    const line = (id: string) => md.split('\n').find((l) => l.includes(`| \`${id}\` |`)) ?? '';
    expect(line(A_OMITTED)).toMatch(/\| — not run \| \[✅ passed\]\([^)]+\) \| ✅ passed \|$/);
    expect(line(OMITTED)).toMatch(/\| \[✅ passed\]\([^)]+\) \| — not run \| ✅ passed \|$/);
    expect(line('auth.missing-key')).toContain('[❌ failed](../b/conformance.html#req-auth.missing-key)');
    // Failed in b alone, passed elsewhere: most likely b's bug. Failed in b and c: no such signal.
    expect(line('auth.missing-key')).toMatch(/^\| \*\*≠\*\* fails in exactly one implementation \|/);
    expect(line('auth.challenge')).toMatch(/^\| \*\*≠\*\* \|/);
    expect(line('createPet.int64-extremes')).toContain('❔ undecided');
    expect(line('createPet.unicode')).toContain('⏭️ skipped');
    // c has no conformance.html beside its json: no link.
    expect(line('auth.challenge')).toMatch(
      /\| \[✅ passed\]\(\.\.\/a\/conformance\.html#req-auth\.challenge\) \| \[❌ failed\]\(\.\.\/b\/[^)]+\) \| ❌ failed \|$/,
    );
    expect(md).toContain(`- \`auth.missing-key\`, 127.0.0.1:8082: failed: \`${MISSING_KEY.split('\n')[0]}\``);
    const { MUST: must, SHOULD: should } = b.counts;
    expect(md).toContain(
      `| 2 | **127.0.0.1:8082** | ❌ Not conformant ![badge](../b/badge.svg) | ` +
        `${must.passed} of ${must.requirements} passed, 1 failed, 1 undecided, 1 skipped | ` +
        `${should.passed} of ${should.requirements} passed, 1 failed | \`42\` | 1.0.0 | 2026-06-01 12:00 UTC |`,
    );
  });

  test('a repeated label gets a suffix; a report without target.label is named by its host, the bundled server "reference server"', async () => {
    expect(uniqueLabels(['x', 'x', 'x (2)', 'y', 'x'])).toEqual(['x', 'x (2)', 'x (2) (2)', 'y', 'x (3)']);
    expect(LABELS.slice(1)).toEqual([labelOf(b), labelOf(c)]);
    const twice = join(dir, 'twice');
    expect((await matrix([paths[1] as string, paths[1] as string, '--out', twice])).code).toBe(0);
    expect(readFileSync(join(twice, 'matrix.md'), 'utf8')).toContain('| 2 | **127.0.0.1:8082 (2)** |');
  });
});

test('where implementations disagree: fails in exactly one, fails in all, with no ranking', () => {
  const cells = (...o: CellOutcome[]) => o.map((outcome) => ({ outcome }));
  expect(signalOf(cells('passed', 'failed', 'passed'))).toBe('one');
  expect(signalOf(cells('failed', 'failed', 'not-run'))).toBe('all');
  expect(signalOf(cells('failed', 'failed', 'passed'))).toBeUndefined();
  expect(signalOf(cells('failed', 'error'))).toBeUndefined();
  expect(signalOf(cells('failed'))).toBeUndefined();
  const html = read('matrix.html');
  expect(html).toContain('<input type="checkbox" id="only-one">');
  expect(html).toContain('<input type="checkbox" id="only-all">');
  expect(html).toMatch(/data-signal="one" id="m-auth\.missing-key"/);
});

test('over the harness: a requirement two faults both break fails in all; one only one breaks, in exactly one', async () => {
  const named = (name: string) => {
    const f = faults.find((x) => x.name === name);
    if (!f) throw new Error(`no fault ${name}`);
    return f;
  };
  // Both break listPets.limit.respected; only the second breaks createPet.client-id.
  const setups = [
    named('limit-ignored'),
    named('limit-one-over'),
    named('client-id-honoured'),
    { name: 'reference', wrap: (h: Handler) => h },
  ];
  const files = await Promise.all(
    setups.map(async (s) => {
      const run = await runSetup({ ...s, config: { runs: 1 } });
      const r = resultsOf(run);
      return place(`fault-${s.name}`, { ...r, target: { ...r.target, label: s.name } });
    }),
  );
  const out = join(dir, 'faults');
  expect((await matrix([...files.slice(0, 2), '--out', out])).code).toBe(0);
  let html = readFileSync(join(out, 'matrix.html'), 'utf8');
  expect(html).toMatch(/data-signal="all" id="m-listPets\.limit\.respected"/);
  expect((await matrix([...files.slice(1), '--out', out])).code).toBe(0);
  html = readFileSync(join(out, 'matrix.html'), 'utf8');
  expect(html).toMatch(/data-signal="one" id="m-createPet\.client-id"/);
  expect(html).toMatch(/data-signal="one" id="m-listPets\.limit\.respected"/);
}, 600_000);

test('--history: one implementation over time, in the order its runs finished, each requirement with its trend', async () => {
  const on = (r: Results, day: string): Results => ({
    ...r,
    run: { ...r.run, startedAt: `${day}T11:59:00.000Z`, finishedAt: `${day}T12:00:00.000Z` },
  });
  const target = { baseUrl: 'http://127.0.0.1:8081/v1', embedded: false, label: 'Acme' };
  const good = results(target);
  const bad = results(target, { 'auth.missing-key': ['failed', MISSING_KEY], 'auth.challenge': ['failed', CHALLENGE] });
  const fixed = results(target, { 'auth.missing-key': ['failed', MISSING_KEY] });
  const files = [
    place('h3', on(fixed, '2026-06-03')),
    place('h1', on(good, '2026-06-01')),
    place('h2', on(bad, '2026-06-02')),
  ];
  const history = join(dir, 'history');
  const { code, err } = await matrix(['--history', ...files, '--out', history]);
  expect(err).toBe('');
  expect(code).toBe(0);
  const md = readFileSync(join(history, 'matrix.md'), 'utf8');
  const line = (id: string) => md.split('\n').find((l) => l.includes(`| \`${id}\` |`)) ?? '';
  expect(md.indexOf('2026-06-01 12:00 UTC · suite 1.0.0')).toBeLessThan(
    md.indexOf('2026-06-02 12:00 UTC · suite 1.0.0'),
  );
  expect(line('auth.missing-key')).toMatch(/^\| \*\*≠\*\* failed since 2026-06-02 12:00 UTC · suite 1\.0\.0 \|/);
  expect(line('auth.challenge')).toMatch(
    /^\| \*\*≠\*\* passed since 2026-06-03 12:00 UTC · suite 1\.0\.0, after 2 changes \|/,
  );
  expect(line('listPets.ok')).toMatch(/^\| {2}\| /);
  const other = await matrix([
    '--history',
    files[0] as string,
    place('h4', results({ ...target, label: 'Other' })),
    '--out',
    history,
  ]);
  expect(other.code).toBe(2);
  expect(other.err).toContain('matrix --history follows one implementation; these runs are of Acme, Other');
});

test('a column says how its run was narrowed or sharpened: a partial run is not like for like', () => {
  const partial = results({ baseUrl: 'http://127.0.0.1:8084/v1', embedded: false });
  Object.assign(partial.run, {
    selection: { only: ['auth', 'listPets'], skip: ['auth.challenge'] },
    readOnly: true,
    strict: true,
  });
  expect(runMode(partial)).toBe('only auth,listPets · skip auth.challenge · read-only · strict');
  expect(runMode(a)).toBe('');
});

describe('mixed versions', () => {
  const newerSuite = () => place('newer-suite', { ...a, suite: { ...a.suite, version: '2.0.0' } });
  const otherInterface = () =>
    place('other-interface', JSON.stringify({ ...c, interface: { ...c.interface, version: '1.1.0' } }));

  test.each([
    [
      'suite',
      newerSuite,
      /^petstore-conformance: matrix: the runs differ in suite versions 1\.0\.0 \(.*\/a\/conformance\.json\), 2\.0\.0 \(.*newer-suite.*\): .*--allow-mixed/,
    ],
    [
      'interface',
      otherInterface,
      /^petstore-conformance: matrix: the runs differ in interface versions 1\.0\.0 \(.*\), 1\.1\.0 \(.*other-interface.*\): .*--allow-mixed/,
    ],
  ])('runs of different %s versions are refused in one line, exit 2, nothing written', async (_what, other, line) => {
    const to = join(dir, `refused-${_what}`);
    const { code, err, out: said } = await matrix([paths[0] as string, other(), '--out', to]);
    expect(code).toBe(2);
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toMatch(line);
    expect(said).toBe('');
    expect(existsSync(to)).toBe(false);
  });

  test('with --allow-mixed they are put side by side, the odd columns marked', async () => {
    const to = join(dir, 'mixed');
    const { code, err } = await matrix([
      paths[0] as string,
      paths[1] as string,
      newerSuite(),
      otherInterface(),
      '--out',
      to,
      '--allow-mixed',
    ]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const html = readFileSync(join(to, 'matrix.html'), 'utf8');
    const heads = [...html.matchAll(/<th scope="col" class="col ([^"]*)" id="col-(\d)">[\s\S]*?<\/th>/g)];
    expect(heads.map((m) => [m[2], m[1]?.includes('is-mixed')])).toEqual([
      ['1', false],
      ['2', false],
      ['3', true],
      ['4', true],
    ]);
    expect(heads[2]?.[0]).toContain('<div class="mixed-mark" title="mixed: suite 2.0.0, not 1.0.0">mixed</div>');
    expect(heads[3]?.[0]).toContain('<div class="mixed-mark" title="mixed: interface 1.1.0, not 1.0.0">mixed</div>');
    expect(html).toContain('<p class="banner" id="mixed">Mixed versions (--allow-mixed): suite versions');
    const md = readFileSync(join(to, 'matrix.md'), 'utf8');
    expect(md).toMatch(/^\| 3 \| \*\*Acme \\<Pets\\> \\& Co \(2\)\*\* ⚠️ mixed: suite 2\.0\.0, not 1\.0\.0 \|/m);
    expect(md).toContain('> **Mixed versions (--allow-mixed):** ');
  });
});

describe('bad input: one line on stderr, exit 2, no stack trace', () => {
  const file = (name: string, text: string) => place(name, text);
  test.each([
    ['a missing file', () => [join(dir, 'nowhere.json')], /nowhere\.json: no such file$/],
    ['a file that is not JSON', () => [file('not-json', '{"format": ')], /not-json\/conformance\.json: not JSON: /],
    [
      'JSON that is no report',
      () => [file('no-report', '{"known": []}')],
      /no-report\/conformance\.json: not a conformance report/,
    ],
    [
      'a report format of another major version',
      () => [file('format-2', JSON.stringify({ ...a, formatVersion: '2.0.0' }))],
      /format-2\/conformance\.json: report format version "2\.0\.0" cannot be read: this suite reads 1\.x$/,
    ],
    [
      'a report that breaks the schema',
      () => [file('invalid', JSON.stringify({ ...a, requirements: 'none' }))],
      /invalid\/conformance\.json: not a valid conformance\.json \(schemas\/conformance-report\.schema\.json\): \/requirements must be array$/,
    ],
    ['no input', () => [], /matrix needs at least one conformance\.json/],
    ['no --out', () => ['--out'], /matrix: Option '--out <value>' argument missing/],
    ['an unknown option', () => ['--outdir', 'x'], /matrix: Unknown option '--outdir'/],
  ])('%s', async (_what, args, line) => {
    const given = args();
    const { code, err } = await matrix(
      given.some((g) => g.startsWith('--')) || given.length === 0 ? given : [...given, '--out', join(dir, 'never')],
    );
    expect(code).toBe(2);
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toMatch(/^petstore-conformance: matrix/);
    expect(err).toMatch(line);
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  test('an input without --out names the flag', async () => {
    const { code, err } = await matrix([paths[0] as string]);
    expect([code, err]).toEqual([2, expect.stringMatching(/^petstore-conformance: matrix needs --out DIR/)]);
  });
});

/** Twelve implementations: labels long and short, every level, columns of undecided cells (the widest a cell gets). */
const SHOULDS = catalogue.filter((r) => r.level === 'SHOULD').map((r) => r.id);
const NOT_TESTED: Partial<RunInput> = { diagnosis: 'connection refused' };
const TWELVE: [string, Record<string, OutcomeKind>, Partial<RunInput>?][] = [
  ['Acme <Pets> & Co', {}],
  ['Contoso Pet Store Enterprise Edition', { [SHOULDS[0] as string]: 'failed' }],
  ['petstore-go', { [MUST[0] as string]: 'failed' }],
  ['Reference server', { [MUST[1] as string]: 'error' }],
  ['Zoo API gateway (staging)', Object.fromEntries(ids.map((id) => [id, 'error'])), NOT_TESTED],
  ['Kotlin Ktor', { [SHOULDS[1] as string]: 'error' }],
  ['Django REST framework', { [MUST[2] as string]: 'failed', [SHOULDS[2] as string]: 'failed' }],
  ['Rails 8', {}],
  ['Spring Boot 3', { [MUST[3] as string]: 'skipped' }],
  ['Express + Prisma', { [MUST[4] as string]: 'error', [MUST[5] as string]: 'error' }],
  ['Hono on Workers', { [SHOULDS[3] as string]: 'failed' }],
  ['FastAPI', {}],
];
const twelveResults = ([label, outcomes, extra]: (typeof TWELVE)[number], i: number) =>
  catalogueResults(outcomes, {
    target: { baseUrl: `http://127.0.0.1:${8100 + i}/v1`, embedded: false, label },
    ...extra,
  });

/**
 * What the first screen shows, measured in the page: the header's box, the requirement rows whole
 * in the window, the words of the header drawn on more than one line, and each column's head.
 */
const FIRST_SCREEN = `(() => {
  const thead = document.querySelector('table.matrix thead');
  const box = thead.getBoundingClientRect();
  const whole = (e) => {
    const b = e.getBoundingClientRect();
    return b.height > 0 && b.top >= 0 && b.bottom <= innerHeight && b.left >= 0 && b.right <= innerWidth;
  };
  const rowsInView = [...document.querySelectorAll('tr.req')].filter(whole).length;
  const broken = [];
  const walker = document.createTreeWalker(thead, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    for (const m of n.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  const row = (cls) => [...document.querySelectorAll('tr.' + cls + ' td')];
  const [levels, must, should] = [row('h-level'), row('h-MUST'), row('h-SHOULD')];
  const columns = [...document.querySelectorAll('tr.h-label th.col')].map((th, i) => {
    const label = th.querySelector('.label');
    return {
      text: label.textContent,
      title: label.title,
      cut: label.scrollWidth > label.clientWidth,
      inView: [th, levels[i], must[i], should[i]].every(whole),
      level: levels[i].textContent,
      counts: [must[i].textContent, should[i].textContent],
    };
  });
  return { head: { top: box.top, bottom: box.bottom, height: box.height }, rowsInView, broken, columns };
})()`;

interface FirstScreen {
  head: { top: number; bottom: number; height: number };
  rowsInView: number;
  broken: string[];
  columns: { text: string; title: string; cut: boolean; inView: boolean; level: string; counts: string[] }[];
}

describe('matrix.html in headless Chromium (the browser bundled by @sparticuz/chromium)', () => {
  test('renders offline with no console error; the filters hide rows; a failed cell opens its reason and links to its evidence', async () => {
    const started = performance.now();
    const bundled = await launchBundledChromium();
    try {
      const page = await bundled.browser.newPage({ viewport: { width: 1400, height: 900 } });
      page.setDefaultTimeout(10_000); // a missing element fails in seconds, not playwright's 30
      const problems = pageProblems(page);
      await page.goto(`file://${join(out, 'matrix.html')}`);
      const visible = () => page.locator('tr.req:visible').evaluateAll((rows) => rows.map((r) => r.id.slice(2)));
      const areas = () => page.locator('tbody.area:visible').count();
      expect(await visible()).toEqual(ids);
      expect(await page.locator('#shown').textContent()).toBe(`${ids.length} of ${ids.length} requirements shown`);
      for (const label of LABELS) expect(await page.getByRole('columnheader', { name: label }).isVisible()).toBe(true);

      await page.locator('#only-differ').check();
      expect((await visible()).sort()).toEqual([...DIFFER].sort());
      expect(await areas()).toBe(new Set(DIFFER.map((id) => id.split('.')[0])).size);
      await page.locator('#only-must').check();
      expect((await visible()).sort()).toEqual(DIFFER.filter((id) => level(id) === 'MUST').sort());
      await page.locator('#only-differ').uncheck();
      expect(await visible()).toEqual(MUST);
      expect(await page.locator('#shown').textContent()).toBe(`${MUST.length} of ${ids.length} requirements shown`);
      await page.locator('#only-must').uncheck();
      expect(await visible()).toEqual(ids);

      const failed = page.locator('tr[id="m-auth.missing-key"] td.c-failed');
      const reason = failed.locator('.why');
      expect(await reason.isVisible()).toBe(false);
      await failed.locator('summary').click();
      expect(await reason.textContent()).toBe(MISSING_KEY.split('\n')[0]);
      expect(await reason.isVisible()).toBe(true);

      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('.toolbar').isVisible()).toBe(false);
      await page.emulateMedia({ media: 'screen' });

      // The link lands on the requirement in b's own report, which opens it.
      await failed.locator('a.evidence').click();
      await page.waitForURL(/\/b\/conformance\.html#req-auth\.missing-key$/);
      await expect
        .poll(() => page.locator('details[id="req-auth.missing-key"]').evaluate((d) => (d as HTMLDetailsElement).open))
        .toBe(true);
      expect(problems).toEqual([]);
      console.log(`matrix self-test: browser check ${Math.round(performance.now() - started)} ms`);
    } finally {
      await bundled.close();
    }
  }, 600_000);

  test('twelve implementations at 1280×800: the first screen shows every label, level and count and 12 rows or more', async () => {
    // Labels long and short, every level, undecided cells (the widest word a cell shows).
    const runs = TWELVE.map(twelveResults);
    const twelve = runs.map((r, i) => place(`wide-${i}`, r, true));
    const wide = join(dir, 'wide');
    expect((await matrix([...twelve, '--out', wide])).code).toBe(0);
    const bundled = await launchBundledChromium();
    try {
      const page = await bundled.browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.setDefaultTimeout(10_000);
      const problems = pageProblems(page);
      await page.goto(`file://${join(wide, 'matrix.html')}`);
      // Kept in reports/ (never committed) for a look afterwards.
      const shot = join(root, 'reports', 'self-test', 'matrix-1280x800.png');
      mkdirSync(dirname(shot), { recursive: true });
      await page.screenshot({ path: shot });
      const { scroll, client } = await page
        .locator('.scroll')
        .evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
      expect(scroll, 'the table overflows the screen').toBeLessThanOrEqual(client);
      const screen = (await page.evaluate(FIRST_SCREEN)) as FirstScreen;
      console.log(
        `matrix self-test: 12 implementations at 1280×800: header ${Math.round(screen.head.height)} px high ` +
          `(from ${Math.round(screen.head.top)} px), ${screen.rowsInView} requirement rows in view; screenshot ${shot}`,
      );
      expect(screen.head.bottom, 'the header ends on the first screen').toBeLessThan(800);
      expect(screen.rowsInView, 'requirement rows whole on the first screen').toBeGreaterThanOrEqual(12);
      expect(screen.broken, 'words broken across lines in the header').toEqual([]);
      const levels = runs.map((r) => r.level as ConformanceLevel);
      expect(new Set(levels).size, 'every level among the twelve').toBe(5);
      for (const [i, col] of screen.columns.entries()) {
        const label = TWELVE[i]?.[0];
        const r = runs[i] as Results;
        expect(col.inView, `column ${i + 1}: label, level and counts on the first screen`).toBe(true);
        // The label whole, or cut with the whole on hover.
        expect(col.cut ? col.title : col.text).toBe(label);
        expect(col.level).toBe(LEVEL_TITLE[r.level as ConformanceLevel]);
        expect(col.counts).toEqual(LEVELS.map((l) => `${r.counts[l].passed}/${r.counts[l].requirements}`));
      }
      expect(
        screen.columns.some((c) => c.cut),
        'a long label is cut',
      ).toBe(true);
      // Each implementation's badge, below the matrix: loaded, naming its level.
      const badges = await page
        .locator('#implementations img')
        .evaluateAll((imgs) =>
          imgs.map((i) => ({ width: (i as HTMLImageElement).naturalWidth, alt: (i as HTMLImageElement).alt })),
        );
      expect(badges.map((b) => b.width > 0)).toEqual(TWELVE.map(() => true));
      expect(badges.map((b) => b.alt.split(': ')[1]?.split(' · ')[0])).toEqual(
        levels.map((l) => LEVEL_TITLE[l].toLowerCase()),
      );

      const heights = await page
        .locator('tr.req')
        .evaluateAll((rows) => rows.map((r) => Math.round(r.getBoundingClientRect().height)));
      expect(Math.max(...heights), 'a requirement takes more than one line').toBeLessThan(40);
      const statement = page.locator('tr[id="m-auth.missing-key"] .st');
      expect(await statement.isVisible()).toBe(false);
      await page.locator('#statements').check();
      expect(await statement.isVisible()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await bundled.close();
    }
  }, 600_000);
});
