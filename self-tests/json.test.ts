// The fast paths of src/json.ts give exactly what lossless-json gives: the same values (int64
// beyond 2^53 as bigint, digit for digit), the same refusals (repeated keys, not JSON), the same
// text when writing. Checked over generated JSON, and over texts bent the ways servers bend them.
import fc from 'fast-check';
import { isInteger, parse, stringify } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { parseJson, stringifyJson } from '../src/json.js';

/** The exact reading, as json.ts defined it before its fast path. */
function exactNumber(literal: string): number | bigint {
  const integral = isInteger(literal) ? literal : /^-?\d+\.0+$/.test(literal) ? literal.replace(/\.0+$/, '') : undefined;
  if (integral === undefined) return Number(literal);
  const n = Number(integral);
  return Number.isSafeInteger(n) ? n : BigInt(integral);
}

type Read = { value: unknown } | { error: true };
const read = (parser: (text: string) => unknown, text: string): Read => {
  try {
    return { value: parser(text) };
  } catch {
    return { error: true };
  }
};

/** Same value: same types (number or bigint), -0 apart from 0, same keys in the same order, same prototype. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return Object.is(a, b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a !== null && typeof a === 'object') {
    if (b === null || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b as object);
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('\u0001123', '\u00019999999999999999999', ',12345678901234567]', '__proto__', '"', '\\', '\u2028', '\ud800'));
const number = fc.oneof(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.integer(), fc.double(), fc.constantFrom(0, -0, 2 ** 53, -(2 ** 53), 1.5));
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, number, text, fc.constant(null), fc.boolean(), fc.array(tie('value')), fc.dictionary(fc.oneof(text, fc.constant('__proto__')), tie('value'))),
})).value;

/** Ways a server's text differs from the canonical one. */
const BENDS: readonly ((t: string) => string)[] = [
  (t) => t,
  (t) => t.replace(/,/, ' ,'),
  (t) => t.replace(/:/, ': '),
  (t) => t.replace(/}/, ',"a":1,"a":2}'),
  (t) => t.replace(/(\{"[^"]*":)([^,}]*)/, '$1$2,$1$2'),
  (t) => t.replace(/\d{16,}/, (d) => `${d}.0`),
  (t) => t.replace(/\d{16,}/, (d) => `${d}.5`),
  (t) => t.replace(/\[/, '[12345678901234567890,'),
  (t) => t.replace(/"/, '"\\u0041'),
  (t) => `${t} `,
  (t) => t.slice(0, -1),
];

describe('parseJson reads exactly what the lossless parser reads', () => {
  test('generated JSON, canonical and bent', () => {
    fc.assert(
      fc.property(jsonValue, fc.nat(), (value, bend) => {
        const canonical = stringify(value) as string;
        for (const t of [canonical, (BENDS[bend % BENDS.length] as (t: string) => string)(canonical)]) {
          const exact = read((x) => parse(x, null, exactNumber), t);
          const ours = read(parseJson, t);
          expect('error' in ours).toBe('error' in exact);
          if ('value' in ours && 'value' in exact) expect(same(ours.value, exact.value), t).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test.each([
    ['[9007199254740993]', [9007199254740993n]],
    ['9007199254740992', 9007199254740992n],
    ['{"id":12345678901234567890,"n":"\\u00011234567890123456789"}', { id: 12345678901234567890n, n: '\u00011234567890123456789' }],
    ['[12345678901234567.0,1.0,-0]', [12345678901234567n, 1, -0]],
    ['{"__proto__":12345678901234567890}', JSON.parse('{"__proto__":1}')],
  ] as const)('%s', (t, expected) => {
    const got = parseJson(t);
    if (t.startsWith('{"__proto__"')) {
      expect(Object.getOwnPropertyDescriptor(got, '__proto__')?.value).toBe(12345678901234567890n);
      return;
    }
    expect(same(got, expected)).toBe(true);
  });

  test('a key repeated with another value is refused, as the lossless parser refuses it', () => {
    expect(() => parseJson('{"a":1,"a":2}')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":12345678901234567890,"a":2}')).toThrow(SyntaxError);
    expect(parseJson('{"a":1,"a":1}')).toEqual({ a: 1 });
  });
});

describe('stringifyJson writes exactly what the lossless serialiser writes', () => {
  test('generated values', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        expect(stringifyJson(value)).toBe(stringify(value));
      }),
      { numRuns: 3000 },
    );
  });
});
