// What the property files share: their weights of the write budget, the plain valid pet they
// generate, and a helper for finding what a body created (an accepted body's echo is checked by
// tests/pets.ts).
import fc from 'fast-check';
import { newPet, type Body } from '../../src/data/generators.js';
import type { NewPet } from '../../src/data/generated/schema-types.js';
import type { Trial } from '../../src/checks/property.js';
import { Violation } from '../../src/checks/outcomes.js';

/**
 * Each creating property's weight of the properties' share of PETSTORE_MAX_CREATES (PROPERTY_SHARE
 * in src/checks/budget.ts). `byMistake` is for each of the properties that create only when the server
 * breaks the rule (invalid bodies, wrong tokens). What the catalogue asks adds up to at most 1 (a self-test
 * sums it).
 */
export const CREATE_WEIGHTS = Object.freeze({
  unicode: 0.28,
  int64: 0.2,
  model: 0.32,
  concurrent: 0.12,
  byMistake: 0.01,
});

/**
 * A valid NewPet with a plain name and a small categoryId, for the properties about creating and
 * reading back (how exactly fields are stored is createPet's rules', whose examples meet every such
 * fault on every seed). Made once, when first wanted: fast-check tokenizes a string arbitrary as it
 * is made, a few ms each time.
 */
export const plainNewPet = (): fc.Arbitrary<NewPet> =>
  (plain ??= newPet({
    name: fc.stringMatching(/^[a-z][a-z ]{0,10}[a-z]$/),
    categoryId: fc.integer({ min: 1, max: 1_000 }),
  }));
let plain: fc.Arbitrary<NewPet> | undefined;

/** The body with its name (when it has a string one) prefixed by a run-unique tag, so the pet can be found. */
export function taggedBody(body: Body, trial: Trial): { body: Body; name?: string } {
  if (!('json' in body)) return { body };
  const json = body.json as Record<string, unknown> | null;
  if (json === null || typeof json !== 'object' || Array.isArray(json) || typeof json.name !== 'string')
    return { body };
  const name = trial.tagged(json.name);
  return { body: { json: { ...json, name } }, name };
}

/**
 * A read of a pet created earlier expects it found only as long as no other write lost it: a
 * refused create, in this sequence or in a check running beside it, may be what did. Its one
 * exchange does not show that, so its finding states no expectation for `export` to send alone.
 */
/** Why such a finding states nothing: the same whether a read or a list missed the pet. */
export const AFTER_OTHER_WRITES =
  'a pet created earlier, missing after other writes (of its sequence or of checks beside it) the finding does not record';

export function afterOtherWrites(check: () => void): void {
  try {
    check();
  } catch (err) {
    if (err instanceof Violation)
      for (const x of err.evidence) {
        delete x.expected;
        x.notStated = AFTER_OTHER_WRITES;
      }
    throw err;
  }
}
