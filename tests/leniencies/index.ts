// The catalogue of what parsers forgive (see entry.ts for its levels), one file per channel, and
// the constants the generators draw from: every entry sent on every run.
import type { CatalogueInput } from '../../src/checks/requirement.js';
import { AUTHORIZATION_LENIENCIES, KEY_LESS_LAST_CHARACTER } from './authorization.js';
import { BODY_LENIENCIES, FIELD_LENIENCIES } from './body.js';
import { BEYOND_INT64_CATEGORIES, INT64_EDGE_CATEGORIES, LIMIT_CONSTANTS, NOT_JSON_BODIES } from './constants.js';
import { PET_ID_LENIENCIES } from './path.js';
import { LIMIT_LENIENCIES, STATUS_LENIENCIES } from './query.js';

export {
  AUTHORIZATION_LENIENCIES,
  BEYOND_INT64_CATEGORIES,
  BODY_LENIENCIES,
  FIELD_LENIENCIES,
  INT64_EDGE_CATEGORIES,
  KEY_LESS_LAST_CHARACTER,
  LIMIT_CONSTANTS,
  LIMIT_LENIENCIES,
  NOT_JSON_BODIES,
  PET_ID_LENIENCIES,
  STATUS_LENIENCIES,
};

/** Every catalogued input, for coverage and the catalogue's own self-test. */
export const CATALOGUE: readonly CatalogueInput[] = [
  ...LIMIT_LENIENCIES,
  ...LIMIT_CONSTANTS,
  ...STATUS_LENIENCIES,
  ...PET_ID_LENIENCIES,
  ...BODY_LENIENCIES,
  ...NOT_JSON_BODIES,
  ...FIELD_LENIENCIES,
  ...BEYOND_INT64_CATEGORIES,
  ...INT64_EDGE_CATEGORIES,
  ...AUTHORIZATION_LENIENCIES,
].map(({ value: _value, ...input }) => input);
