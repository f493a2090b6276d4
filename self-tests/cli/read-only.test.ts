// Read-only mode keeps every check that need not write: against a conforming server with pets of
// others, the whole catalogue sends no POST, and each requirement with a mix of cases runs its
// GET cases and passes saying how many cases it left out.
import { describe, expect, test } from 'vitest';
import { runSetup } from '../harness/harness.js';
import { variants } from '../harness/variants.js';
import type { Wrap } from '../harness/faults-kit.js';

const readOnlyRun = variants.find((v) => v.name === 'read-only-run');

/** Requirements whose cases mix GETs with a POST. */
const MIXED = [
  'auth.missing-key',
  'auth.wrong-key',
  'auth.empty-token',
  'auth.other-scheme',
  'auth.valid-key',
  'auth.before-validation',
  'auth.challenge',
];

describe('read-only mode', () => {
  test('the whole catalogue sends no POST, and each requirement with GET cases decides them', async () => {
    if (!readOnlyRun) throw new Error('variant read-only-run is missing');
    const methods: Record<string, number> = {};
    let counting = false;
    // Counts what the suite sends, not what prepare writes as "others" before it starts.
    const counted: Wrap = (inner, apiKey) => {
      const h = readOnlyRun.wrap(inner, apiKey);
      return (req) => {
        if (counting) methods[req.method] = (methods[req.method] ?? 0) + 1;
        return h(req);
      };
    };
    const run = await runSetup({
      ...readOnlyRun,
      wrap: counted,
      prepare: async (server) => {
        await readOnlyRun.prepare?.(server);
        counting = true;
      },
    });
    expect(Object.keys(methods)).toEqual(['GET']);
    for (const id of MIXED) {
      const o = run.outcomes.get(id);
      expect(o?.outcome, `${id}: ${o?.message}`).toBe('passed');
      expect(o?.note, id).toMatch(/^\d+ of \d+ cases not run in read-only mode/);
    }
    // Whatever must write is skipped with its reason, and nothing passes that ran no case.
    for (const [id, o] of run.outcomes) {
      expect(['passed', 'skipped'], `${id}: ${o.message}`).toContain(o.outcome);
      if (o.outcome === 'skipped') expect(o.message, id).toMatch(/read-only/);
    }
    expect(run.outcomes.get('createPet.minimal')?.outcome).toBe('skipped');
  });
});
