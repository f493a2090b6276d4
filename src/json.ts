// Lossless JSON: int64 values beyond 2^53 must survive digit for digit (Principle 4),
// so integers that a double cannot hold exactly are kept as bigint.
import { parse, stringify, isInteger } from 'lossless-json';

/** An int64 value as parsed: a number when exactly representable, else a bigint. */
export type Int64 = number | bigint;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

function parseNumber(literal: string): number | bigint {
  // "12.0" is an integer for JSON Schema; keep its digits exact too.
  const integral = isInteger(literal) ? literal : /^-?\d+\.0+$/.test(literal) ? literal.replace(/\.0+$/, '') : undefined;
  if (integral !== undefined) {
    const n = Number(integral);
    return Number.isSafeInteger(n) ? n : BigInt(integral);
  }
  return Number(literal);
}

/** Parses JSON text, keeping unsafe integers as bigint. Throws SyntaxError on invalid JSON. */
export function parseJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

/** Serialises a value to JSON, writing bigint values as exact integer literals. */
export function stringifyJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value is not serialisable as JSON');
  return text;
}

/** The exact decimal text of an integer value, for digit-for-digit comparison. */
export function exactInteger(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

export function isInt64(value: unknown): boolean {
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX;
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** Renders a parsed value for humans (bigint digits included), compactly. */
export function show(value: unknown, max = 300): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : stringifyJson(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
