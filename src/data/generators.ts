// Random inputs for properties, derived from schemas/ and shrinking: src/data/generators/, re-exported.
export { asInt64, BEYOND_INT64, int64, INT64_EDGES } from './generators/int64.js';
export {
  codePoints,
  NAME_LENGTH,
  NAME_SURELY_ACCEPTED,
  nameGap,
  plainText,
  unicodeText,
} from './generators/unicode.js';
export { LIMIT, newPet, statusFilter, validLimit, type FieldArbitraries } from './generators/valid.js';
export {
  invalidBodies,
  MALFORMED_LIMIT_CONSTANTS,
  malformedLimit,
  NOT_JSON_CONSTANTS,
  outOfRangeLimit,
  ruleKey,
  unknownStatusFilter,
  wrongToken,
  type Body,
  type BrokenRule,
  type InvalidBody,
  type InvalidRule,
  type RuleKind,
} from './generators/invalid.js';
