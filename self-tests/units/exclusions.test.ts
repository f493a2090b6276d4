// Exclusions after an accepted challenge (issue 44, part 3): a set's patch release may exclude a
// requirement, naming the issue and the day. The requirement still runs and is reported "excluded
// after challenge (URL)", and counts for no verdict or level. Tested with an injected exclusion:
// no shipped set excludes a real requirement.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { REQUIREMENT_SETS } from '../../src/data/generated/requirement-ids.js';
import { exclusionProblems, exclusionsOf, exclusionsSha256, type Exclusion } from '../../src/data/requirement-sets.js';
import { schemaValidators } from '../../src/report/baseline.js';
import { renderReports } from '../../src/report/reporter.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { reportView } from '../../src/report/view.js';
import { catalogue } from '../../tests/catalogue.js';
import { catalogueResults } from '../harness/results-of.js';

const validateReport = schemaValidators().report;

const MUST = catalogue.find((r) => r.level === 'MUST')?.id as string;
const SHOULD = catalogue.find((r) => r.level === 'SHOULD')?.id as string;
const ISSUE = 'https://github.com/example/petstore-conformance/issues/901';
const excluding = (id: string): Exclusion[] => [{ id, issue: ISSUE, date: '2026-11-27' }];

describe('an excluded requirement', () => {
  test('a failed MUST excluded after challenge still runs and is reported, and the run is conformant', () => {
    expect(catalogueResults({ [MUST]: 'failed' }).verdict).toBe('nonconformant');
    const r = catalogueResults({ [MUST]: 'failed' }, { exclusions: excluding(MUST) });
    expect(r.verdict, r.verdictReason).toBe('conformant');
    expect(r.level).toBe('fully-conformant');
    const e = r.requirements.find((x) => x.id === MUST);
    expect(e?.outcome).toBe('failed');
    expect(e?.notScored).toEqual({ excluded: { issue: ISSUE, date: '2026-11-27' } });
    expect(r.counts.MUST.requirements).toBe(catalogueResults().counts.MUST.requirements - 1);
    expect(validateReport(JSON.parse(JSON.stringify(r))), JSON.stringify(validateReport.errors)).toBe(true);
  });

  test('a failed SHOULD excluded counts against no level', () => {
    expect(catalogueResults({ [SHOULD]: 'failed' }).level).toBe('conformant');
    expect(catalogueResults({ [SHOULD]: 'failed' }, { exclusions: excluding(SHOULD) }).level).toBe('fully-conformant');
  });

  test('every report says "excluded after challenge (URL)"', () => {
    const r = catalogueResults({ [MUST]: 'failed' }, { exclusions: excluding(MUST) });
    const view = reportView(r);
    const said = `excluded after challenge (${ISSUE})`;
    const files = Object.fromEntries(renderReports(r, []).map((f) => [f.file, f.content]));
    for (const file of ['conformance.md', 'conformance.html', 'junit.xml', 'conformance.json'])
      expect(files[file], file).toContain(file === 'conformance.json' ? ISSUE : said);
    expect(renderTerminal(view)).toContain(`${MUST} excluded after challenge (https://`);
    expect(view.older).toBe('1 excluded after an accepted challenge: run, reported, not scored');
  });
});

describe("a set's exclusions", () => {
  const set = REQUIREMENT_SETS.at(-1)!;
  const own = set.adds[0] as string;

  test('name only requirements of the set, once each, with the SHA-256 its record holds', () => {
    const good = excluding(own);
    expect(exclusionProblems(set.id, good, exclusionsSha256(good))).toEqual([]);
    expect(exclusionProblems(set.id, good, '0'.repeat(64))).toEqual([
      expect.stringMatching(/sha256 in its record is not/),
    ]);
    const unknown = excluding('no.such-requirement');
    expect(exclusionProblems(set.id, unknown, exclusionsSha256(unknown))).toEqual([
      `${set.id}: no.such-requirement is not one of the set's requirements`,
    ]);
    const twice = [...good, ...good];
    expect(exclusionProblems(set.id, twice, exclusionsSha256(twice))).toEqual([`${set.id}: ${own} is excluded twice`]);
  });

  test('the registry: every set passes, and the shipped sets exclude no real requirement', () => {
    const registry = JSON.parse(
      readFileSync(new URL('../catalogue/requirement-ids.json', import.meta.url), 'utf8'),
    ) as { sets: { id: string; exclusions?: Exclusion[]; exclusionsSha256?: string }[] };
    for (const s of registry.sets) {
      expect(exclusionProblems(s.id, s.exclusions ?? [], s.exclusionsSha256), s.id).toEqual([]);
      expect(exclusionsOf(s.id)).toEqual(s.exclusions ?? []);
      expect(exclusionsOf(s.id)).toEqual([]);
    }
  });
});
