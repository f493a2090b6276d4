// What the property files share: their weights of the write budget, and small helpers for
// comparing what was sent with what came back.
import { expectErrorBody, expectPetList, fail, isClientError } from '../../src/assert.js';
import type { ApiResponse } from '../../src/client.js';
import type { NewPet, Pet } from '../../src/generated/schema-types.js';
import { codePoints, type Body } from '../../src/generators.js';
import { exactInteger, show } from '../../src/json.js';
import type { Trial } from '../../src/property.js';

/**
 * Each creating property's weight of the properties' share of PETSTORE_MAX_CREATES (PROPERTY_SHARE
 * in src/run.ts). `byMistake` is for the properties that create only when the server breaks the
 * rule (invalid bodies, wrong tokens): eight of them. The weights add up to at most 1.
 */
export const CREATE_WEIGHTS = Object.freeze({
  unicode: 0.28,
  int64: 0.2,
  model: 0.32,
  concurrent: 0.12,
  byMistake: 0.01,
});

/** Where two texts first differ, code point by code point. */
export function textDifference(sent: string, got: string): string {
  const a = [...sent];
  const b = [...got];
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const at = (cs: string[]) => (i < cs.length ? codePoints(cs[i] ?? '') : 'the end');
  return `${b.length} code points instead of ${a.length}; first difference at code point ${i + 1}: sent ${at(a)}, got ${at(b)}`;
}

/** The fields of `sent` that `pet` does not carry exactly (names code point for code point, int64 digit for digit). */
export function echoDifference(sent: NewPet, pet: Pet): string | undefined {
  if (pet.name !== sent.name) return `name: ${textDifference(sent.name, pet.name)}`;
  if (exactInteger(pet.categoryId) !== exactInteger(sent.categoryId)) {
    return `categoryId ${exactInteger(pet.categoryId) ?? show(pet.categoryId)} instead of ${exactInteger(sent.categoryId)}`;
  }
  if (sent.status !== undefined && pet.status !== sent.status) return `status ${show(pet.status)} instead of ${show(sent.status)}`;
  return undefined;
}

/** The body with its name (when it has a string one) prefixed by a run-unique tag, so the pet can be found. */
export function taggedBody(body: Body, trial: Trial): { body: Body; name?: string } {
  if (!('json' in body)) return { body };
  const json = body.json as Record<string, unknown> | null;
  if (json === null || typeof json !== 'object' || Array.isArray(json) || typeof json.name !== 'string') return { body };
  const name = trial.tagged(json.name);
  return { body: { json: { ...json, name } }, name };
}

/** Where the interface leaves the answer open: a 4xx Error (400 preferred), or a 200 list of at most `max` valid Pets. */
export function expectRejectedOrBounded(res: ApiResponse, max: number, what: string): void {
  if (isClientError(res)) {
    expectErrorBody(res);
    return;
  }
  if (res.status !== 200) fail(res, `a 4xx (400 preferred) with an Error body, or 200 with at most ${max} Pets (${what})`);
  const pets = expectPetList(res);
  if (pets.length > max) fail(res, `at most ${max} Pets (${what})`, `${pets.length} Pets`);
}
