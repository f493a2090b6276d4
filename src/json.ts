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

/** Integer literals long enough to be unsafe (also as 1234567890123456789.0), where compact JSON has numbers. */
const LONG_INTEGER = /(^|[[:,])(-?\d{16,}(?:\.0+)?)(?=$|[,\]}])/g;
const MARKED = /^\u0001-?\d+(?:\.0+)?$/;
const NOT_FAST = Symbol('not fast');

/** True when arrays and objects nest more than `allowed` levels deep. */
function deeperThan(value: unknown, allowed: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (allowed === 0) return true;
  for (const item of Object.values(value)) if (deeperThan(item, allowed - 1)) return true;
  return false;
}

/** Puts `value` back in place of marked long integers; counts what it restored. */
function restoreMarked(value: unknown, count: { n: number }): unknown {
  if (typeof value === 'string') {
    if (!MARKED.test(value)) return value;
    count.n++;
    return parseNumber(value.slice(1));
  }
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const restored = restoreMarked(item, count);
      // defineProperty: a plain assignment to "__proto__" would set the prototype instead.
      if (restored !== item) Object.defineProperty(value, key, { value: restored, writable: true, enumerable: true, configurable: true });
    }
  }
  return value;
}

/**
 * The native parser, where it can vouch for the exact value: long integers are first quoted with a
 * marker, and the text must come back character for character from JSON.stringify, so no number
 * lost a digit, no key was repeated and every marked string is a literal that was marked.
 * Answers are mostly compact JSON; anything else (white space, escapes) takes the exact parser.
 */
function parseFast(text: string): unknown {
  let marks = 0;
  const marked = /\d{16}/.test(text)
    ? text.replace(LONG_INTEGER, (_, before: string, digits: string) => {
        marks++;
        return `${before}"\\u0001${digits}"`;
      })
    : text;
  let value: unknown;
  try {
    value = JSON.parse(marked);
    if (deeperThan(value, MAX_JSON_DEPTH) || JSON.stringify(value) !== marked) return NOT_FAST;
  } catch {
    return NOT_FAST;
  }
  if (marks === 0) return value;
  const count = { n: 0 };
  value = restoreMarked(value, count);
  return count.n === marks ? value : NOT_FAST;
}

/** Parses JSON text, keeping unsafe integers as bigint. Throws SyntaxError on invalid or too deeply nested JSON. */
export function parseJson(text: string): unknown {
  const fast = parseFast(text);
  if (fast !== NOT_FAST) return fast;
  checkDepth(text);
  return parse(text, null, parseNumber);
}

/** True when a bigint is anywhere in the value (arrays and plain objects, as parsed from JSON). */
export function containsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(containsBigInt);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsBigInt);
  return false;
}

/**
 * The JSON text lossless-json writes, built from the native serialiser wherever no bigint is
 * inside (several times faster): a list of pets with one int64 beyond 2^53 is written pet by pet.
 */
function writeJson(value: unknown): string | undefined {
  if (!containsBigInt(value)) return JSON.stringify(value) as string | undefined;
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((item) => writeJson(item) ?? 'null').join(',')}]`;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return stringify(value);
  const members: string[] = [];
  for (const [key, item] of Object.entries(value as object)) {
    const text = writeJson(item);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** Serialises a value to JSON, writing bigint values as exact integer literals. */
export function stringifyJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = writeJson(value);
  } catch {
    text = stringify(value); // a bigint from a toJSON(): lossless-json knows what to do
  }
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
