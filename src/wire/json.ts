// Lossless JSON: int64 values beyond 2^53 must survive digit for digit (Principle 4),
// so integers that a double cannot hold exactly are kept as bigint.
import { parse, stringify } from 'lossless-json';
import { quoted, type QuotedText } from './redact.js';

/** An int64 value as parsed: a number when exactly representable, else a bigint. */
export type Int64 = number | bigint;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * Integers with more digits than this before the decimal point are kept as the double JSON.parse
 * reads: far outside int64 either way, and `1e999999999` must not build a billion-digit bigint.
 */
export const MAX_INTEGER_DIGITS = 1000;

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact value of a JSON number literal, decided from its digits whatever the spelling: an
 * integer (`12`, `1.0`, `1E2`, `10e-1`, `90071992547409930e-1`) is a number when a double holds it
 * exactly, else a bigint; anything else is the double JSON.parse reads.
 */
export function exactNumber(literal: string): number | bigint {
  const m = NUMBER.exec(literal);
  if (!m) return Number(literal);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  // value = digits × 10^shift, with the digits' trailing zeros moved into the shift.
  const all = `${whole}${fraction}`;
  let end = all.length;
  while (end > 0 && all.charCodeAt(end - 1) === 0x30) end--; // a loop: /0+$/ is quadratic on long runs of zeros
  const digits = all.slice(0, end).replace(/^0+/, '');
  if (digits === '') return sign ? -0 : 0;
  // Number() of a long exponent is inexact only far beyond any bound used here.
  const shift = Number(exponent) - fraction.length + (all.length - end);
  if (shift < 0) return fractionOf(Number(literal), sign === '-', digits, shift);
  if (digits.length + shift > MAX_INTEGER_DIGITS) return Number(literal);
  const value = BigInt(`${sign}${digits}`) * 10n ** BigInt(shift);
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

const bits = new DataView(new ArrayBuffer(8));

/**
 * A fraction (`digits` × 10^`shift`, shift < 0) as a double that is not an integer: where the
 * nearest double is one (`1.00000000000000005`, `1e-400`), the next double toward the literal, so
 * a fraction never passes for an integer.
 */
function fractionOf(d: number, negative: boolean, digits: string, shift: number): number {
  if (!Number.isInteger(d) || Math.abs(d) >= 2 ** 53) return d;
  // From 2^52 up no double has a fraction: NaN, which no schema takes for an integer.
  if (Math.abs(d) >= 2 ** 52) return Number.NaN;
  if (d === 0) return negative ? -Number.MIN_VALUE : Number.MIN_VALUE; // too small for a double, yet not 0
  const whole = BigInt(Math.abs(d));
  // The literal lies within one of d, so its first 40 digits decide on which side of d it lies;
  // the digits after them end in a non-zero one, so they only ever add.
  const kept = digits.slice(0, 40);
  const keptShift = shift + digits.length - kept.length;
  const head = BigInt(kept) * 10n ** BigInt(Math.max(0, keptShift));
  const scaled = whole * 10n ** BigInt(Math.max(0, -keptShift));
  const away = head > scaled || (head === scaled && digits.length > kept.length);
  bits.setFloat64(0, Math.abs(d));
  const b = bits.getBigUint64(0);
  bits.setBigUint64(0, away ? b + 1n : b - 1n); // the next double away from zero, or toward it
  return (negative ? -1 : 1) * bits.getFloat64(0);
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
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH)
        throw new SyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels at position ${i} (not parsed)`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** Integer literals long enough to be unsafe (also as 1234567890123456789.0), where JSON has numbers. */
const LONG_INTEGER = /(^\s*|[[:,]\s*)(-?[1-9]\d{15,}(?:\.0+)?)(?=\s*(?:$|[,\]}]))/g;
/** JSON's white space between tokens, and the strings, kept as they are (see parseFast). */
const SPACE_OUTSIDE_STRINGS = /("(?:[^"\\]|\\.)*")|[ \t\n\r]+/g;
const MARKED = /^\u0001-?\d+(?:\.0+)?$/;
const NOT_FAST = Symbol('not fast');

/**
 * True when arrays and objects may nest more than MAX_JSON_DEPTH levels deep: only a text with
 * that many opening brackets can (counted with indexOf, far cheaper than walking the value).
 */
function mayNestDeeper(text: string): boolean {
  let opened = 0;
  for (const bracket of ['[', '{']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1))
      if (++opened > MAX_JSON_DEPTH) return true;
  }
  return false;
}

/** True when arrays and objects nest more than `allowed` levels deep. */
function deeperThan(value: unknown, allowed: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (allowed === 0) return true;
  for (const item of Object.values(value)) if (deeperThan(item, allowed - 1)) return true;
  return false;
}

/**
 * Puts the exact value back in place of each marked long integer (no other string starts with
 * U+0001: see parseFast), noting in `found` whether one of them needed a bigint.
 */
function restoreMarked(value: unknown, found: { bigint: boolean }): unknown {
  if (typeof value === 'string') {
    if (value.charCodeAt(0) !== 1 || !MARKED.test(value)) return value;
    const exact = exactNumber(value.slice(1));
    if (typeof exact === 'bigint') found.bigint = true;
    return exact;
  }
  if (value !== null && typeof value === 'object') {
    // for-in: a parsed value is a plain object or array, with no inherited enumerable key.
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      if (typeof item !== 'object' && typeof item !== 'string') continue;
      const restored = restoreMarked(item, found);
      if (restored !== item) setOwn(value, key, restored);
    }
  }
  return value;
}

/** Sets a property the parse made: by assignment, but "__proto__" (which would set the prototype) by defineProperty. */
function setOwn(holder: object, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
  else (holder as Record<string, unknown>)[key] = value;
}

/**
 * The native parser, where it can vouch for the exact value: long integers are first quoted with a
 * marker, and the text must come back character for character from JSON.stringify (white space
 * between tokens aside), so no number lost a digit, no key was repeated and every marked string is
 * a literal that was marked (a text that escapes U+0001 itself, the marker's first character,
 * takes the exact parser).
 * Answers are mostly compact or indented JSON; anything else (escapes, exponents) takes the exact parser.
 */
function parseFast(text: string): unknown {
  const known = vouched.get(text);
  if (known !== undefined) return known;
  // JSON.stringify writes integers from 1e21 up as `1e+21`: exact only when read from the digits.
  if (text.includes('e+') && /\de\+/.test(text)) return NOT_FAST;
  const long = /\d{16}/.test(text);
  if (long && text.includes('\\u0001')) return NOT_FAST;
  const marked = long ? text.replace(LONG_INTEGER, '$1"\\u0001$2"') : text;
  let value: unknown;
  try {
    value = JSON.parse(marked);
    if (mayNestDeeper(text) && deeperThan(value, MAX_JSON_DEPTH)) return NOT_FAST;
    const written = JSON.stringify(value);
    // Indented JSON is vouched for once its white space between tokens is gone.
    if (written !== marked && written !== marked.replace(SPACE_OUTSIDE_STRINGS, '$1')) return NOT_FAST;
  } catch {
    return NOT_FAST;
  }
  const found = { bigint: false };
  if (long) value = restoreMarked(value, found);
  vouch(text, value);
  return numbersOnly(value, found.bigint);
}

/** Parsed objects and arrays known to hold no bigint: a validator takes them as they are (see holdsNoBigInt). */
const withoutBigInt = new WeakSet<object>();

function numbersOnly(value: unknown, holdsBigInt: boolean): unknown {
  if (value !== null && typeof value === 'object' && !holdsBigInt) withoutBigInt.add(value);
  return value;
}

/** True for a value parseJson made that holds no bigint anywhere (found at the parse, not by walking it). */
export function holdsNoBigInt(value: object): boolean {
  return withoutBigInt.has(value);
}

/**
 * Values parseFast vouched for lately, by their text: a store answers the same list many times
 * over (a property lists it after each case), and every answer of that text gets that one value,
 * frozen to the last member, so no reader can change what another reads (the attempt throws: the
 * modules are strict). Bounded: texts up to VOUCHED_CHARS each, the latest up to VOUCHED_TOTAL
 * characters in all.
 */
const vouched = new Map<string, unknown>();
const VOUCHED_CHARS = 32 * 1024;
const VOUCHED_TOTAL = 1024 * 1024;
let vouchedChars = 0;

function vouch(text: string, value: unknown): void {
  if (text.length > VOUCHED_CHARS) return;
  for (const oldest of vouched.keys()) {
    if (vouchedChars + text.length <= VOUCHED_TOTAL) break;
    vouched.delete(oldest);
    vouchedChars -= oldest.length;
  }
  vouched.set(text, deepFreeze(value));
  if (value !== null && typeof value === 'object') shared.add(value);
  vouchedChars += text.length;
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/** Values parseJson gave every reader of one text, frozen to the last member (see vouch). */
const shared = new WeakSet<object>();

/** True for a value parseJson shared and froze: nothing changes it, so a verdict on it holds for good. */
export function isShared(value: object): boolean {
  return shared.has(value);
}

/** Parses JSON text, keeping unsafe integers as bigint. Throws SyntaxError on invalid or too deeply nested JSON. */
export function parseJson(text: string): unknown {
  const fast = parseFast(text);
  if (fast !== NOT_FAST) return fast;
  checkDepth(text);
  return parse(text, null, exactNumber);
}

/** True when a bigint is anywhere in the value (arrays and plain objects, as parsed from JSON). */
function containsBigInt(value: unknown): boolean {
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
export function show(value: unknown, max = 300): QuotedText {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : stringifyJson(value);
  } catch {
    text = String(value);
  }
  // A value shown in a message came from or goes to the wire: marked for redaction.
  return quoted(text.length > max ? `${detach(text.slice(0, max))}… (${text.length} chars)` : text);
}
