// Comparing pets exactly: int64 digit for digit, names code point for code point.
import { exactInteger } from '../src/json.js';
import type { Pet } from '../src/generated/schema-types.js';

/** Undefined when equal on every interface field; otherwise which field differs. */
export function samePet(expected: Pet, actual: Pet): string | undefined {
  if (exactInteger(actual.id) !== exactInteger(expected.id)) return `id ${String(actual.id)} ≠ ${String(expected.id)}`;
  if (actual.name !== expected.name) return `name ${JSON.stringify(actual.name)} ≠ ${JSON.stringify(expected.name)}`;
  if (exactInteger(actual.categoryId) !== exactInteger(expected.categoryId)) {
    return `categoryId ${String(actual.categoryId)} ≠ ${String(expected.categoryId)}`;
  }
  if (actual.status !== expected.status) return `status ${String(actual.status)} ≠ ${String(expected.status)}`;
  return undefined;
}
