// What the property files share: their weights of the write budget, and small helpers for
// finding what a body created (an accepted body's echo is checked by tests/pets.ts).
import type { Body } from '../../src/data/generators.js';
import type { Trial } from '../../src/checks/property.js';

/**
 * Each creating property's weight of the properties' share of PETSTORE_MAX_CREATES (PROPERTY_SHARE
 * in src/checks/run.ts). `byMistake` is for the properties that create only when the server breaks the
 * rule (invalid bodies, wrong tokens): eight of them. The weights add up to at most 1.
 */
export const CREATE_WEIGHTS = Object.freeze({
  unicode: 0.28,
  int64: 0.2,
  model: 0.32,
  concurrent: 0.12,
  byMistake: 0.01,
});

/** The body with its name (when it has a string one) prefixed by a run-unique tag, so the pet can be found. */
export function taggedBody(body: Body, trial: Trial): { body: Body; name?: string } {
  if (!('json' in body)) return { body };
  const json = body.json as Record<string, unknown> | null;
  if (json === null || typeof json !== 'object' || Array.isArray(json) || typeof json.name !== 'string')
    return { body };
  const name = trial.tagged(json.name);
  return { body: { json: { ...json, name } }, name };
}
