// Ids are the contract between the catalogue, the reports and users' --only/--skip filters.
// self-tests/catalogue/requirement-ids.json records each id with its level (once, in the set that added it), so changing an id's meaning,
// dropping one or reusing a retired one takes a deliberate edit of that file.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Level } from '../../src/checks/requirement.js';
import { catalogue, checks } from '../../tests/catalogue.js';

interface Registry {
  retired: string[];
  sets: { adds: Record<string, Level> }[];
}

const FILE = 'self-tests/catalogue/requirement-ids.json';
const registry = JSON.parse(readFileSync(new URL('./requirement-ids.json', import.meta.url), 'utf8')) as Registry;
/** Every id with its level, from the sets that added them. */
const recorded = {
  requirements: Object.fromEntries(registry.sets.flatMap((s) => Object.entries(s.adds))),
  retired: registry.retired,
};

/** The interface's headings a requirement may cite. */
const SECTIONS = [
  'What the service does',
  'Resources and their fields',
  'Authentication',
  'Errors',
  'Endpoints › List all animals',
  'Limits',
  'Endpoints › Add an animal',
  'Endpoints › Get an animal (deprecated)',
  'Versioning',
];

/** `<area>.<topic>[.<detail>]`: a camelCase area, then lower-case kebab words. */
const ID_SHAPE = /^[a-z][A-Za-z]*(\.[a-z][a-z0-9]*(-[a-z0-9]+)*)+$/;

describe('requirement ids', () => {
  test.each(catalogue.map((r) => [r.id, r.level] as const))('%s is recorded as %s', (id, level) => {
    expect(
      recorded.requirements[id],
      `${id} is new or changed level: record it in ${FILE} (a level change retires the id)`,
    ).toBe(level);
  });

  test.each(Object.keys(recorded.requirements).map((id) => [id] as const))('%s is in the catalogue', (id) => {
    const ids = catalogue.map((r) => r.id);
    expect(
      ids,
      `${id} is recorded in ${FILE} but no requirement has it: restore it, or move it to "retired"`,
    ).toContain(id);
  });

  test('no retired id is in use or still recorded', () => {
    const inUse = new Set([...catalogue.map((r) => r.id), ...Object.keys(recorded.requirements)]);
    expect(recorded.retired.filter((id) => inUse.has(id))).toEqual([]);
  });

  test('ids are unique and read as <area>.<topic>', () => {
    const ids = catalogue.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.filter((id) => !ID_SHAPE.test(id))).toEqual([]);
  });

  test.each(catalogue.map((r) => [r.id, r] as const))(
    '%s cites a section of the interface in one plain line',
    (_id, r) => {
      expect(SECTIONS).toContain(r.section);
      expect(r.statement.trim()).not.toBe('');
      expect(r.statement).not.toMatch(/\n|^(test|should|check)s?\b/i);
    },
  );
});

describe('tests of the catalogue', () => {
  test('every test name starts with a recorded id followed by a space', () => {
    const stray = checks.filter(
      (c) => !c.name.startsWith(`${c.requirement.id} `) || !(c.requirement.id in recorded.requirements),
    );
    expect(stray.map((c) => c.name)).toEqual([]);
  });

  test('every requirement has a test', () => {
    const tested = new Set(checks.map((c) => c.requirement.id));
    expect(catalogue.filter((r) => !tested.has(r.id)).map((r) => r.id)).toEqual([]);
  });
});
