// The suite is tested like a product: every fault must be caught by the requirement it breaks,
// and the reference server must pass with no MUST failure.
import { describe, expect, test } from 'vitest';
import { failing, runCatalogueAgainst } from './harness/harness.js';
import { faults } from './harness/faults/index.js';

describe('broken servers', () => {
  test('the reference server itself fails no requirement', async () => {
    const run = await runCatalogueAgainst((h) => h);
    expect(failing(run)).toEqual([]);
  });

  test.concurrent.each(faults.map((f) => [f.name, f] as const))('%s is caught', async (_name, fault) => {
    const run = await runCatalogueAgainst(fault.wrap, { options: fault.options ?? {} });
    const outcome = run.outcomes.get(fault.breaks);
    expect(outcome?.outcome, `${fault.does}: expected ${fault.breaks} to fail; failing: ${failing(run).join(', ') || 'none'}`).toBe('failed');
  });
});
