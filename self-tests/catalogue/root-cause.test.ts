// Root cause first: against a server that loses int64 precision in categoryId (issue 16), every
// report names createPet.int64-extremes first and the failures it explains under it; and the
// grouping rules of src/report/causes.ts, on cases made up to show each one.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CaseCause } from '../../src/checks/outcomes.js';
import { causesOf, inCauseOrder, type CauseInput } from '../../src/report/causes.js';
import { renderReports } from '../../src/report/reporter.js';
import { REPORT_FORMAT_VERSION, type RequirementResult, type Results } from '../../src/report/results.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { reportView } from '../../src/report/view.js';
import { faults } from '../harness/faults/index.js';
import { runSetup } from '../harness/harness.js';
import { resultsOf } from '../harness/results-of.js';

const addFormats = ajvFormats.default as unknown as typeof ajvFormats.default.default;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(
  JSON.parse(readFileSync(new URL('../../schemas/conformance-report.schema.json', import.meta.url), 'utf8')) as object,
);

const CAUSE = 'createPet.int64-extremes';

describe('a server that keeps categoryId as a double', () => {
  let results: Results;
  let failed: RequirementResult[];
  beforeAll(async () => {
    const fault = faults.find((f) => f.name === 'category-stored-as-double');
    if (!fault) throw new Error('no fault category-stored-as-double');
    // An empty store, which the run populates itself: its lists hold the pets it created, each with
    // its categoryId rounded.
    results = resultsOf(await runSetup({ ...fault, config: { ...fault.config, runs: 5 }, populated: false }));
    failed = results.requirements.filter((e) => e.outcome === 'failed');
  });

  test('fails it, and the lists and the bodies not stored as sent because of it', () => {
    expect(failed.length).toBeGreaterThanOrEqual(3);
    // No valid list, and createPet.gaps' "stored as sent": their own statements, broken by the rounding.
    expect(failed.map((e) => e.id)).toEqual(expect.arrayContaining(['listPets.ok', 'createPet.gaps']));
    for (const e of results.requirements.filter((x) => x.blockedBy !== undefined))
      expect([CAUSE, 'listPets.ok'], e.id).toContain(e.blockedBy);
    // A list rule with no valid list to judge is blocked by listPets.ok, not failed beside it.
    const max = results.requirements.find((e) => e.id === 'listPets.limit.max');
    expect([max?.outcome, max?.blockedBy]).toEqual(['skipped', 'listPets.ok']);
    expect(max?.checks[0]?.message).toMatch(/^blocked by listPets\.ok: /);
    expect(failed.filter((e) => e.causedBy === undefined).map((e) => e.id)).toEqual([CAUSE]);
    expect(new Set(failed.flatMap((e) => (e.causedBy ? [e.causedBy] : [])))).toEqual(new Set([CAUSE]));
  });

  test('the terminal names it first, in the verdict and the first finding, the others under it', () => {
    const text = renderTerminal(reportView(results), { width: 100 });
    const verdict = text.split('\n').find((l) => l.includes('verdict')) ?? '';
    expect(verdict).toMatch(new RegExp(`violated: ${CAUSE.replace('.', '\\.')},`));
    const findings = text.split('\n').filter((l) => /^ [✘?⚠] /.test(l));
    expect(findings[0]).toMatch(new RegExp(`^ ✘ ${CAUSE.replace('.', '\\.')} `));
    // Every other failure is named after it, in its "also failed because of this" lines.
    const after = text.slice(text.indexOf(findings[0] as string));
    expect(after).toContain('also failed because of this: ');
    for (const e of failed) expect(after, e.id).toContain(e.id);
  });

  test('conformance.md names it first, the others under it', () => {
    const md = renderReports(results, []).find((r) => r.file === 'conformance.md')?.content ?? '';
    expect(md).toMatch(new RegExp(`\\*\\*\\d+ MUST requirements violated: ${CAUSE.replace('.', '\\.')},`));
    const violations = md.slice(md.indexOf('### Violations'));
    const bullets = violations.split('\n').filter((l) => l.startsWith('- '));
    expect(bullets[0]).toMatch(new RegExp(`^- \`${CAUSE.replace('.', '\\.')}\` `));
    expect(violations).toMatch(/\n {2}- also failed because of this: `/);
    for (const e of failed) expect(violations, e.id).toContain(`\`${e.id}\``);
  });

  test('every report keeps every failure; conformance.json records the grouping and stays valid', () => {
    const files = Object.fromEntries(renderReports(results, []).map((r) => [r.file, r.content]));
    const json = JSON.parse(files['conformance.json'] as string) as Results;
    expect(validateReport(json), JSON.stringify(validateReport.errors)).toBe(true);
    expect(json.formatVersion).toBe(REPORT_FORMAT_VERSION);
    expect(json.requirements.find((e) => e.id === 'listPets.ok')?.causedBy).toBe(CAUSE);
    for (const e of failed) {
      expect(json.requirements.find((x) => x.id === e.id)?.outcome, e.id).toBe('failed');
      expect(files['junit.xml'], e.id).toContain(`<testcase name="${e.id} `);
      expect(files['conformance.html'], e.id).toContain(`id="req-${e.id}"`);
    }
    expect(files['junit.xml']).toContain(`<property name="causedBy" value="${CAUSE}"/>`);
    // The page lists the cause first among the violations, the others under it.
    const html = files['conformance.html'] as string;
    const list = html.slice(html.indexOf('<div class="finding f-failed">'));
    expect(list.indexOf(`href="#req-${CAUSE}"`)).toBeLessThan(list.indexOf('href="#req-listPets.ok"'));
    expect(list).toContain('also failed because of this: ');
  });
});

/** A case of the made-up runs below, whose ids are short letters, not the catalogue's. */
type MadeUpCase = { [K in Exclude<keyof CaseCause, 'mine'>]?: readonly string[] } & { mine?: true };
/** A requirement of the made-up runs below: failed, with these cases. */
const failing = (id: string, ...cases: MadeUpCase[]): CauseInput => ({
  id,
  level: id.startsWith('should') ? 'SHOULD' : 'MUST',
  outcome: 'failed',
  cases: (cases.length ? cases : [{}]) as CaseCause[],
});

/** Each failure grouped under another, and its root. */
const rootCauses = (entries: readonly CauseInput[]) =>
  new Map([...causesOf(entries)].map(([id, { root }]) => [id, root]));

describe('grouping, from what the checks say about each failing case', () => {
  test('a failure is grouped under another when every one of its failing cases resolves to that one', () => {
    const roots = rootCauses([failing('a'), failing('b', { rules: ['a'] }, { rules: ['x', 'a'] })]);
    expect(Object.fromEntries(roots)).toEqual({ b: 'a' });
  });

  test('one case of its own, or cases pointing at two failures, keep a failure a root', () => {
    expect(rootCauses([failing('a'), failing('b', { rules: ['a'] }, {})]).size).toBe(0);
    expect(rootCauses([failing('a'), failing('c'), failing('b', { rules: ['a'] }, { rules: ['c'] })]).size).toBe(0);
  });

  test('a rule that did not fail, or that names the failure itself first, points nowhere', () => {
    const passed: CauseInput = { id: 'a', outcome: 'passed', cases: [] };
    expect(rootCauses([passed, failing('b', { rules: ['a'] })]).size).toBe(0);
    expect(rootCauses([failing('a'), failing('b', { rules: ['b', 'a'] })]).size).toBe(0);
  });

  test('cases pointing at different failures that share one root are grouped under it', () => {
    // A list holding two spoiled pets, one created by c.model, grouped under a.cause, one by a.cause itself.
    const roots = rootCauses([
      failing('a.cause'),
      failing('c.model', { rules: ['a.cause'] }),
      failing('b.list', { rules: ['c.model'] }, { rules: ['a.cause'] }),
    ]);
    expect(Object.fromEntries(roots)).toEqual({ 'b.list': 'a.cause', 'c.model': 'a.cause' });
  });

  test('causes chain to their root', () => {
    const roots = rootCauses([failing('c'), failing('b', { rules: ['c'] }), failing('a', { rules: ['b'] })]);
    expect(Object.fromEntries(roots)).toEqual({ a: 'c', b: 'c' });
  });

  test('one failed sender of the judged answers wins over the rules; two are no one', () => {
    expect(
      Object.fromEntries(rootCauses([failing('s'), failing('r'), failing('j', { sentBy: ['s'], rules: ['r'] })])),
    ).toEqual({ j: 's' });
    expect(
      Object.fromEntries(
        rootCauses([failing('s'), failing('t'), failing('r'), failing('j', { sentBy: ['s', 't'], rules: ['r'] })]),
      ),
    ).toEqual({ j: 'r' });
  });

  test('a cycle breaks at a link that rests on a rule, not on the same exchange', () => {
    // errors.body judged only errors.unknown-path's answers; errors.unknown-path failed on errors.body's rule.
    const roots = rootCauses([
      failing('errors.body', { sentBy: ['errors.unknown-path'] }),
      failing('errors.unknown-path', { rules: ['errors.body'] }),
    ]);
    expect(Object.fromEntries(roots)).toEqual({ 'errors.body': 'errors.unknown-path' });
  });
});

describe("blocked or failed: whether the evidence breaks the requirement's own statement", () => {
  const said = (entries: CauseInput[]) => Object.fromEntries(causesOf(entries));

  test('cases that broke only another failed rule block the requirement; its own rule named too, or mine, fail it', () => {
    expect(said([failing('a'), failing('b', { rules: ['a'] })])).toEqual({ b: { root: 'a', blocked: true } });
    expect(said([failing('a'), failing('b', { rules: ['a', 'b'] })])).toEqual({ b: { root: 'a', blocked: false } });
    expect(said([failing('a'), failing('b', { rules: ['a'], mine: true })])).toEqual({
      b: { root: 'a', blocked: false },
    });
    // One case that broke its own statement is enough for a violation of its own.
    expect(said([failing('a'), failing('b', { rules: ['a'] }, { rules: ['a'], mine: true })])).toEqual({
      b: { root: 'a', blocked: false },
    });
  });

  test('the same exchange, judged by a rule of the whole run, is a violation of its own, grouped', () => {
    expect(said([failing('s'), failing('j', { sentBy: ['s'] })])).toEqual({ j: { root: 's', blocked: false } });
  });

  test('a MUST may be blocked by a SHOULD it relied on, but no MUST violation is explained by a SHOULD', () => {
    expect(said([failing('should.exact'), failing('m', { rules: ['should.exact'] })])).toEqual({
      m: { root: 'should.exact', blocked: true },
    });
    expect(said([failing('should.exact'), failing('m', { rules: ['should.exact'], mine: true })])).toEqual({});
    expect(said([failing('should.page'), failing('j', { sentBy: ['should.page'] })])).toEqual({});
    // A SHOULD is explained by a MUST as by any failure.
    expect(said([failing('a'), failing('should.x', { rules: ['a'], mine: true })])).toEqual({
      'should.x': { root: 'a', blocked: false },
    });
  });
});

describe('the true story, against whole runs of the broken servers', () => {
  /** The verdict line and findings of conformance.md, and the results, of one fault's whole run. */
  const storyOf = async (name: string) => {
    const fault = faults.find((f) => f.name === name);
    if (!fault) throw new Error(`no fault ${name}`);
    // Five runs per property: the story does not depend on how many inputs a property draws.
    const results = resultsOf(await runSetup({ ...fault, config: { ...fault.config, runs: 5 } }));
    const files = Object.fromEntries(renderReports(results, []).map((r) => [r.file, r.content]));
    const md = files['conformance.md'] ?? '';
    const findings = md
      .slice(md.indexOf('### '))
      .split('\n')
      .filter((l) => l.startsWith('- '));
    const violated = results.requirements.filter((e) => e.outcome === 'failed');
    return { results, files, first: findings[0] ?? '', violated };
  };

  test('a default limit of 10 is the SHOULD it breaks, not a created pet missing from a list', async () => {
    const { results, first, violated } = await storyOf('default-ten');
    expect(first).toMatch(/^- `listPets\.limit\.default-exact` /);
    expect(violated.filter((e) => e.level === 'MUST')).toEqual([]);
    const blocked = results.requirements.find((e) => e.id === 'consistency.create-then-list');
    expect(blocked?.blockedBy).toBe('listPets.limit.default-exact');
    expect(results.verdict).toBe('conformant');
  });

  test('ids rounded above 2^53: the content type and the key are not blamed for a pet read back 404', async () => {
    const { results, violated, first } = await storyOf('ids-through-double');
    const entry = (id: string) => results.requirements.find((e) => e.id === id);
    // The headline says the ids lost their last digits, even cut to one line.
    expect(first).toContain('≥ 2^53 and exact in a double: rounded?');
    expect(violated.map((e) => e.id)).not.toContain('service.json-content-type');
    expect(violated.map((e) => e.id)).not.toContain('auth.valid-key');
    // A 404 is no successful answer: nothing for the content type's rule to judge there.
    expect(entry('service.json-content-type')?.blockedBy).toBe('getPet.existing');
    // A 404 to the right key is the key accepted: the rule held on that answer.
    expect(entry('auth.valid-key')?.outcome).toBe('passed');
    expect(entry('auth.valid-key')?.blockedBy).toBeUndefined();
  });

  test('status null for an omitted status: the rules about ids judge the ids, and pass', async () => {
    const { results, first } = await storyOf('status-null-when-omitted');
    expect(first).toMatch(/^- `createPet\.status-omitted` /);
    for (const id of ['createPet.client-id', 'createPet.distinct-ids'] as const) {
      const entry = results.requirements.find((e) => e.id === id);
      expect(entry?.outcome, id).toBe('passed');
      expect(entry?.blockedBy, id).toBeUndefined();
    }
  });

  test('limit ignored: limit=1 answered with 20 pets breaks listPets.limit.min too, said as also failed', async () => {
    const { results, files } = await storyOf('limit-ignored');
    const min = results.requirements.find((e) => e.id === 'listPets.limit.min');
    // Its statement says "yields at most 1 Pet": violated, not merely blocked, and grouped under the limit rule.
    expect(min?.outcome).toBe('failed');
    expect(min?.blockedBy).toBeUndefined();
    expect(files['conformance.md']).toMatch(
      /- `listPets\.limit\.respected` .*\n {2}- also failed because of this: `listPets\.limit\.min`/,
    );
  });

  test('createPet refusing the right key: one cause, the rejects said as also failed under auth.valid-key', async () => {
    const { results, first } = await storyOf('create-rejects-everything');
    expect(first).toMatch(/^- `auth\.valid-key` /);
    for (const id of ['createPet.missing-name', 'createPet.body-not-object', 'auth.scheme-case'] as const) {
      const entry = results.requirements.find((e) => e.id === id);
      // "Answered 400" is false too (a 401 came back): violated, grouped under the key refused.
      expect(entry?.outcome, id).toBe('failed');
      expect(entry?.causedBy, id).toBe('auth.valid-key');
    }
  });

  test('listPets open without a key: validation before authentication is said as also failed under it', async () => {
    const { results, first } = await storyOf('list-without-auth');
    expect(first).toMatch(/^- `auth\.missing-key` /);
    expect(results.requirements.find((e) => e.id === 'auth.before-validation')?.causedBy).toBe('auth.missing-key');
  });

  test('createPet answering 200, not 201: the key and the content type held on that answer and pass', async () => {
    const { results, first } = await storyOf('created-200');
    expect(first).toMatch(/^- `createPet\.minimal` /);
    for (const id of ['service.json-content-type', 'auth.valid-key', 'auth.scheme-case'] as const) {
      const entry = results.requirements.find((e) => e.id === id);
      expect(entry?.outcome, id).toBe('passed');
      expect(entry?.blockedBy, id).toBeUndefined();
    }
  });

  test("every name answered with the example's: the checks whose statement is not the name pass", async () => {
    const { results, files, first } = await storyOf('name-from-example');
    expect(first).toMatch(/^- `createPet\.minimal` /);
    for (const id of ['createPet.status-omitted', 'createPet.client-id', 'createPet.status-echo'] as const)
      expect(results.requirements.find((e) => e.id === id)?.outcome, id).toBe('passed');
    // The model's cases that met a changed name broke only the name's rule: blocked by createPet.minimal,
    // in every report (and passed, as its other checks did).
    expect(results.requirements.find((e) => e.id === 'consistency.model')?.blockedBy).toBe('createPet.minimal');
    expect(files['conformance.md']).toMatch(
      /\n {2}- blocked by this \(not violated themselves\): .*`consistency\.model`/,
    );
    expect(files['junit.xml']).toContain('<property name="blockedBy" value="createPet.minimal"/>');
    expect(files['conformance.html']).toContain('blocked by this (not violated themselves): ');
  });

  test('a categoryId read through a double: names came back exact, so createPet.unicode is not violated', async () => {
    const { violated } = await storyOf('category-through-double');
    expect(violated.map((e) => e.id)).toContain('createPet.int64-extremes');
    expect(violated.map((e) => e.id)).not.toContain('createPet.unicode');
  });
});

describe('the order a report names findings in', () => {
  const entry = (id: string, causedBy?: string): RequirementResult => ({
    id,
    level: 'MUST',
    section: 's',
    statement: 's',
    area: id.split('.')[0] as string,
    outcome: 'failed',
    durationMs: 0,
    checks: [],
    message: 'm',
    ...(causedBy ? { causedBy } : {}),
  });

  test('roots explaining the most first, then in catalogue order, each followed by those grouped under it', () => {
    const all = [entry('a.one'), entry('a.two', 'c.big'), entry('b.lone'), entry('c.big'), entry('d.three', 'c.big')];
    expect(inCauseOrder(all, all).map((e) => e.id)).toEqual(['c.big', 'a.two', 'd.three', 'a.one', 'b.lone']);
  });

  test('a failure whose cause another list shows comes after the roots of its own list', () => {
    const all = [entry('a.member', 'z.cause'), entry('b.root'), entry('z.cause')];
    const list = all.slice(0, 2);
    expect(inCauseOrder(list, all).map((e) => e.id)).toEqual(['b.root', 'a.member']);
  });
});
