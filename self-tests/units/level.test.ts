// The conformance level: read off the verdict and the scored outcomes, stated by every report of a
// run (JSON, manifest, Markdown, terminal, HTML, JUnit) and by its badges (badge.svg, badge.json).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import type { OutcomeKind } from '../../src/checks/requirement.js';
import { badgeOf, renderBadgeJson, renderBadgeSvg } from '../../src/report/badge.js';
import { buildManifest } from '../../src/report/manifest.js';
import { renderReports } from '../../src/report/reporter.js';
import type { ConformanceLevel, Results } from '../../src/report/results.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { reportLevel } from '../../src/report/verdict.js';
import { reportView } from '../../src/report/view.js';
import { catalogue } from '../../tests/catalogue.js';
import { catalogueResults } from '../harness/results-of.js';
import { root } from '../net-kit.js';

const addFormats = ajvFormats.default as unknown as typeof ajvFormats.default.default;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(
  JSON.parse(readFileSync(new URL('../../schemas/conformance-report.schema.json', import.meta.url), 'utf8')) as object,
);

const MUST = catalogue.find((r) => r.level === 'MUST')?.id as string;
const [SHOULD, SHOULD_2] = catalogue.filter((r) => r.level === 'SHOULD').map((r) => r.id) as [string, string];

const results = (outcomes: Record<string, OutcomeKind> = {}, { strict = false, diagnosis = '' } = {}) =>
  catalogueResults(outcomes, { strict, ...(diagnosis ? { diagnosis } : {}) });

const CASES: [string, () => Results, ConformanceLevel, string][] = [
  ['every requirement passed', () => results(), 'fully-conformant', 'brightgreen'],
  [
    'a SHOULD skipped (skips count as for the verdict)',
    () => results({ [SHOULD]: 'skipped' }),
    'fully-conformant',
    'brightgreen',
  ],
  ['a SHOULD failed', () => results({ [SHOULD]: 'failed' }), 'conformant', 'green'],
  ['a SHOULD undecided', () => results({ [SHOULD_2]: 'error' }), 'conformant', 'green'],
  ['a MUST failed', () => results({ [MUST]: 'failed', [SHOULD]: 'failed' }), 'nonconformant', 'red'],
  ['a SHOULD failed with --strict', () => results({ [SHOULD]: 'failed' }, { strict: true }), 'nonconformant', 'red'],
  ['a MUST undecided', () => results({ [MUST]: 'error' }), 'inconclusive', 'orange'],
  ['the target not tested', () => results({}, { diagnosis: 'connection refused' }), 'not-tested', 'lightgrey'],
];

describe.each(CASES)('%s', (_what, make, level, color) => {
  const r = make();

  test(`the level is ${level}, recorded in conformance.json (valid against the schema) and in the manifest`, () => {
    expect(r.level).toBe(level);
    expect(validateReport(JSON.parse(JSON.stringify(r))), JSON.stringify(validateReport.errors)).toBe(true);
    expect(buildManifest(r, root, [], { commit: null, dirty: null }).level).toBe(level);
    // A report of an earlier format has no level: a reader derives the same one.
    const { level: _recorded, ...older } = r;
    expect(reportLevel({ ...older, formatVersion: '1.10.0' })).toBe(level);
  });

  test('every report states it, in its own form', () => {
    const view = reportView(r);
    const title = view.level.title;
    const files = Object.fromEntries(renderReports(r, []).map((f) => [f.file, f.content]));
    expect(files['conformance.md']).toMatch(new RegExp(`^## \\S+ Pet Store conformance: ${title}\\n`));
    expect(files['conformance.html']).toContain(`<span id="level">${title}</span>`);
    expect(files['junit.xml']).toContain(`<property name="conformanceLevel" value="${level}"/>`);
    expect(renderTerminal(view)).toMatch(new RegExp(`\\n level {4}${title.toUpperCase()}(: |\\n)`));
    const badge = JSON.parse(files['badge.json'] as string) as Record<string, unknown>;
    expect(badge).toEqual({
      schemaVersion: 1,
      label: `Pet Store ${r.run.requirementSet?.id}`,
      message: `${title.toLowerCase()} · 2026-06-01`,
      color,
    });
    expect(files['badge.svg']).toContain(
      `aria-label="Pet Store ${r.run.requirementSet?.id}: ${title.toLowerCase()} · 2026-06-01"`,
    );
  });
});

test('what a level adds to the verdict is said: the SHOULDs not met, or that all were met', () => {
  expect(reportView(results({ [SHOULD]: 'failed', [SHOULD_2]: 'error' })).level.said).toBe(
    `2 SHOULD requirements not met: ${SHOULD}, ${SHOULD_2}`,
  );
  expect(reportView(results({ [SHOULD]: 'skipped' })).level.said).toBe(
    'every SHOULD requirement checked was met too; 1 SHOULD requirement skipped',
  );
  expect(reportView(results({ [MUST]: 'failed' })).level.said).toBe('');
});

test('badge.svg: each text fitted to its half, the halves adding up to the width, hostile text escaped', () => {
  const r = results();
  const svg = renderBadgeSvg({ ...r, run: { ...r.run, requirementSet: { id: '<x>&"', current: false } } });
  expect(svg).not.toContain('<x>');
  expect(svg).toContain('&#60;x&#62;&#38;&#34;');
  const width = Number(/^<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);
  const rects = [...svg.matchAll(/<rect (?:x="\d+(?:\.\d+)?" )?width="(\d+)" height="20" fill="#/g)].map((m) =>
    Number(m[1]),
  );
  expect(rects).toHaveLength(2);
  expect((rects[0] as number) + (rects[1] as number)).toBe(width);
  const texts = [...svg.matchAll(/textLength="(\d+)"/g)].map((m) => Number(m[1]));
  expect(texts.map((t, i) => (rects[i] as number) - t)).toEqual([20, 20]);
  expect(renderBadgeJson(r)).toBe(
    `${JSON.stringify({ schemaVersion: 1, ...badgeOf(r), color: badgeOf(r).color.name }, null, 2)}\n`,
  );
});
