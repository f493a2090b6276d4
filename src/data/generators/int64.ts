// int64 values for properties: the whole signed 64-bit range, its edges weighted in, and beyond.
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN, type Int64 } from '../../wire/json.js';

/** A parsed int64 the way src/wire/json.ts reads one back: a number when safe, else a bigint. */
export function asInt64(value: bigint): Int64 {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

/** Where int64 handling usually breaks, simplest first (shrinking walks towards the front). */
export const INT64_EDGES: readonly bigint[] = Object.freeze([
  0n,
  1n,
  -1n,
  2n ** 31n - 1n,
  -(2n ** 31n),
  2n ** 32n,
  2n ** 53n - 1n,
  -(2n ** 53n - 1n),
  2n ** 53n,
  -(2n ** 53n),
  2n ** 53n + 1n,
  -(2n ** 53n + 1n),
  INT64_MAX - 1n,
  INT64_MIN + 1n,
  INT64_MAX,
  INT64_MIN,
]);

const SAFE = 2n ** 53n;

/**
 * Any int64, extremes weighted in. The range is drawn in bands (the edges; what a double holds
 * exactly; beyond it on either side), each shrinking towards its own simplest value, so a value
 * that breaks only beyond 2^53 shrinks towards 2^53+1 rather than towards 0, where it would pass.
 */
export function int64(): fc.Arbitrary<Int64> {
  return fc
    .oneof(
      fc.constantFrom(...INT64_EDGES),
      fc.bigInt({ min: -SAFE, max: SAFE }),
      fc.bigInt({ min: SAFE + 1n, max: INT64_MAX }),
      fc.bigInt({ min: INT64_MIN, max: -SAFE - 1n }),
    )
    .map(asInt64);
}

/** The constants beyondInt64 draws from; createPet.category-range sends each on every run. */
export const BEYOND_INT64: readonly bigint[] = Object.freeze([INT64_MAX + 1n, INT64_MIN - 1n, 2n ** 64n, -(2n ** 64n)]);

/** Integers just past either end of int64 and far beyond, as exact bigints. */
export function beyondInt64(): fc.Arbitrary<bigint> {
  return fc.oneof(
    fc.constantFrom(...BEYOND_INT64),
    fc.bigInt({ min: INT64_MAX + 1n, max: 2n ** 80n }),
    fc.bigInt({ min: -(2n ** 80n), max: INT64_MIN - 1n }),
  );
}
