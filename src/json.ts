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

/**
 * Deepest nesting of arrays and objects parseJson follows. The parser is recursive: a hostile body
 * of 10,000 nested arrays would end in a RangeError, or not, depending on the thread's stack.
 * No Pet or Error body comes near this; every thread's stack holds it.
 */
export const MAX_JSON_DEPTH = 512;

/** Throws a SyntaxError when arrays and objects nest deeper than MAX_JSON_DEPTH (brackets in strings do not count). */
function checkDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw new SyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels at position ${i} (not parsed)`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** Parses JSON text, keeping unsafe integers as bigint. Throws SyntaxError on invalid or too deeply nested JSON. */
export function parseJson(text: string): unknown {
  checkDepth(text);
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

/**
 * A copy of a piece of a string. V8 makes a slice of a long string point into it, so a 300-character
 * excerpt kept in a failure message would keep a whole 8 MiB body alive for the rest of the run.
 * (A JSON round trip copies every code unit exactly, lone surrogates included.)
 */
export function detach(piece: string): string {
  return JSON.parse(JSON.stringify(piece)) as string;
}

/** Renders a parsed value for humans (bigint digits included), compactly. */
export function show(value: unknown, max = 300): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : stringifyJson(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${detach(text.slice(0, max))}… (${text.length} chars)` : text;
}
