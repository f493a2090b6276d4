// The catalogue of what parsers forgive (tests/leniencies/) is data the suite keeps honest: each
// entry names who accepts it, a requirement of the catalogue that carries it, and a level that
// requirement can judge; and every entry is sent on every run, whatever the seed.
import { describe, expect, test } from 'vitest';
import { catalogue } from '../../tests/catalogue.js';
import { CATALOGUE } from '../../tests/leniencies/index.js';
import { runCatalogueAgainst } from '../harness/harness.js';

describe('the catalogue, as data', () => {
  test.each(CATALOGUE.map((e) => [e.id, e] as const))(
    '%s names its sources, its requirement and a level it can judge',
    (_id, e) => {
      expect(e.acceptedBy.length).toBeGreaterThan(0);
      expect(e.what.length).toBeGreaterThan(0);
      const carriers = catalogue.filter((r) => r.inputs?.some((i) => i.id === e.id));
      // The requirement that judges it carries it, so a run with --only that requirement sends it.
      expect(carriers.map((r) => r.id)).toContain(e.requirement);
      const judge = catalogue.find((r) => r.id === e.requirement);
      // A MUST entry is judged by a MUST rule; a SHOULD one by a SHOULD rule (a MUST rule carrying it holds for every choice).
      if (e.level === 'MUST') expect(judge?.level).toBe('MUST');
      if (e.level === 'SHOULD') expect(judge?.level).toBe('SHOULD');
    },
  );

  test('ids are unique', () => {
    const ids = CATALOGUE.map((e) => e.id);
    expect(ids.length).toBe(new Set(ids).size);
  });
});

// Five seeds, each a whole run against the reference server: every catalogued input is sent.
test.each([1, 7, 42, 1234, -99])(
  'seed %i: every catalogued input is sent, and the reference server passes',
  async (seed) => {
    const run = await runCatalogueAgainst((h) => h, { config: { seed } });
    expect(run.coverage?.notSent).toEqual([]);
    expect(run.coverage?.sent).toBe(CATALOGUE.length);
    const failed = [...run.outcomes].filter(([, o]) => o.outcome === 'failed' || o.outcome === 'error');
    expect(failed.map(([id, o]) => `${id}: ${o.message}`)).toEqual([]);
  },
  600_000,
);
