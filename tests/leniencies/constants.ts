// The constants the generators draw from (principle 9: sent on every run, not when a seed draws them).
import { BEYOND_INT64, INT64_EDGES, MALFORMED_LIMIT_CONSTANTS, NOT_JSON_CONSTANTS } from '../../src/data/generators.js';
import { entry, type Entry, type Fields } from './entry.js';

const GENERATOR = (name: string) => `the suite's generator ${name} (a constant it draws from)`;
/** A slug for a constant: its characters, with the URL's escapes for the others. */
const slug = (value: string) => (value === '' ? 'empty' : encodeURIComponent(value).replace(/%/g, '~'));

/** The constants of malformedLimit(), under the same rule as the catalogue's limits. */
export const LIMIT_CONSTANTS: readonly Entry<readonly (readonly [string, string])[]>[] = MALFORMED_LIMIT_CONSTANTS.map(
  (value) =>
    entry('listPets', 'limit', `constant-${slug(value)}`, {
      value: [['limit', value]],
      what: `limit ${JSON.stringify(value)}`,
      acceptedBy: [GENERATOR('malformedLimit()')],
      requirement: 'listPets.limit.malformed',
      level: 'MUST',
    }),
);

/** The constants of the not-json body rule: 400 and nothing created. */
export const NOT_JSON_BODIES: readonly Entry<(f: Fields) => string>[] = NOT_JSON_CONSTANTS.map((value) =>
  entry('createPet', 'body', `constant-${slug(value)}`, {
    value: () => value,
    what: `the body ${JSON.stringify(value)}, not JSON`,
    acceptedBy: [GENERATOR("invalidBodies()'s not-json rule")],
    requirement: 'createPet.body-not-object',
    level: 'MUST',
  }),
);

/** The constants of beyondInt64(), as categoryId: 400, nothing created. */
export const BEYOND_INT64_CATEGORIES: readonly Entry<bigint>[] = BEYOND_INT64.map((value) =>
  entry('createPet', 'categoryId', `beyond-int64-${slug(String(value))}`, {
    value,
    what: `categoryId ${value}, beyond int64`,
    acceptedBy: [GENERATOR('beyondInt64()')],
    requirement: 'createPet.category-range',
    level: 'MUST',
  }),
);

/** The edges int64() draws from, as categoryId: created, echoed and read back digit for digit. */
export const INT64_EDGE_CATEGORIES: readonly Entry<bigint>[] = INT64_EDGES.map((value) =>
  entry('createPet', 'categoryId', `int64-edge-${slug(String(value))}`, {
    value,
    what: `categoryId ${value}, an int64 edge`,
    acceptedBy: [GENERATOR('int64()')],
    requirement: 'createPet.int64-extremes',
    level: 'MUST',
  }),
);
