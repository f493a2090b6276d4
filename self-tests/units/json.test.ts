// The fast paths of src/wire/json.ts give exactly what lossless-json gives: the same values (int64
// beyond 2^53 as bigint, digit for digit), the same refusals (repeated keys, not JSON), the same
// text when writing. Checked over generated JSON, and over texts bent the ways servers bend them.
// Every spelling JSON allows for an integer (`1E2`, `1.0`, `10e-1`, `-0`…) reads as that integer.
import fc from 'fast-check';
import { parse, stringify } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import {
  exactNumber,
  INT64_MAX,
  INT64_MIN,
  MAX_INTEGER_DIGITS,
  parseJson,
  stringifyJson,
} from '../../src/wire/json.js';

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
    return (
      ka.length === kb.length &&
      ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '\u0001123',
    '\u00019999999999999999999',
    ',12345678901234567]',
    '__proto__',
    '"',
    '\\',
    '\u2028',
    '\ud800',
  ),
);
const number = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 2 ** 53, -(2 ** 53), 1.5),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    number,
    text,
    fc.constant(null),
    fc.boolean(),
    fc.array(tie('value')),
    fc.dictionary(fc.oneof(text, fc.constant('__proto__')), tie('value')),
  ),
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
  // Indented, as some servers write (white space inside strings too: both parsers read the same text).
  (t) => t.replace(/([,:[{])/g, '$1\n  ').replace(/([\]}])/g, '\n$1'),
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
    [
      '{"id":12345678901234567890,"n":"\\u00011234567890123456789"}',
      { id: 12345678901234567890n, n: '\u00011234567890123456789' },
    ],
    ['[12345678901234567.0,1.0,-0]', [12345678901234567n, 1, -0]],
    [
      '[\n  {"id": 9007199254740993, "name": "a  b"},\n  -12345678901234567890\n]',
      [{ id: 9007199254740993n, name: 'a  b' }, -12345678901234567890n],
    ],
    ['{"__proto__":12345678901234567890}', JSON.parse('{"__proto__":1}')],
  ] as const)('%s', (t, expected) => {
    const got = parseJson(t);
    if (t.startsWith('{"__proto__"')) {
      expect(Object.getOwnPropertyDescriptor(got, '__proto__')?.value).toBe(12345678901234567890n);
      return;
    }
    expect(same(got, expected)).toBe(true);
  });

  test('a text read again (the latest are remembered) reads the same value, which no reader can change', () => {
    const texts = [
      '[{"id":12345678901234567890,"name":"a","categoryId":1},{"id":2,"name":"b","categoryId":-9223372036854775808}]',
      '{"__proto__":12345678901234567890,"a":[1,{"b":9007199254740993}]}',
      '12345678901234567890',
      '[{"id":1,"name":"c"}]',
    ];
    for (const t of texts) {
      const first = parseJson(t);
      const again = parseJson(t);
      expect(same(again, parse(t, null, exactNumber)), t).toBe(true);
      if (first === null || typeof first !== 'object') continue;
      expect(again).toBe(first);
      // A check that tried to change what it read would throw: nothing another reads changes.
      const inner = Array.isArray(first)
        ? (first[0] as Record<string, unknown>)
        : ((first as { a: unknown[] }).a[1] as Record<string, unknown>);
      expect(() => (inner.id = 'changed')).toThrow(TypeError);
      expect(() => (inner.b = 'changed')).toThrow(TypeError);
      expect(same(parseJson(t), parse(t, null, exactNumber)), t).toBe(true);
    }
  });

  test('a key repeated with another value is refused, as the lossless parser refuses it', () => {
    expect(() => parseJson('{"a":1,"a":2}')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":12345678901234567890,"a":2}')).toThrow(SyntaxError);
    expect(parseJson('{"a":1,"a":1}')).toEqual({ a: 1 });
  });

  // The catalogue's categoryId with a leading zero found the fast path marking 0282… as a long integer.
  test.each(['{"a":02826375858735093679}', '{"a":0282637585873509}', '[-012345678901234567]', '0123456789012345678'])(
    'a number with a leading zero is refused, however long: %s',
    (t) => {
      expect(() => parseJson(t)).toThrow(SyntaxError);
    },
  );
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

/** An integer as a value of the parser: a number when a double holds it exactly, else a bigint. */
const asParsed = (n: bigint): number | bigint => (Number.isSafeInteger(Number(n)) ? Number(n) : n);

/**
 * The ways JSON can spell an integer: its digits with the decimal point moved `point` places left
 * and an exponent making up for it, `zeros` trailing zeros made up for by the exponent, an
 * optional fraction of zeros, either exponent letter and sign.
 */
const spelling = (n: bigint) =>
  fc
    .record({
      point: fc.nat({ max: 25 }),
      zeros: fc.nat({ max: 4 }),
      fractionZeros: fc.nat({ max: 3 }),
      letter: fc.constantFrom('e', 'E'),
      plus: fc.boolean(),
      padExponent: fc.nat({ max: 2 }),
    })
    .map(({ point, zeros, fractionZeros, letter, plus, padExponent }) => {
      const sign = n < 0n ? '-' : '';
      const digits = `${n < 0n ? -n : n}${'0'.repeat(n === 0n ? 0 : zeros)}`;
      const cut = Math.min(point, digits.length - 1);
      const whole = digits.slice(0, digits.length - cut);
      const fraction = `${digits.slice(digits.length - cut)}${'0'.repeat(fractionZeros)}`;
      const exponent = cut - (n === 0n ? 0 : zeros);
      const e =
        exponent === 0 && !plus && padExponent === 0
          ? ''
          : `${letter}${exponent < 0 ? '-' : plus ? '+' : ''}${'0'.repeat(padExponent)}${Math.abs(exponent)}`;
      return `${sign}${whole}${fraction ? `.${fraction}` : ''}${e}`;
    });

const int64 = fc.oneof(
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
  fc.constantFrom(
    INT64_MIN,
    INT64_MAX,
    INT64_MIN + 1n,
    INT64_MAX - 1n,
    2n ** 53n,
    2n ** 53n + 1n,
    -(2n ** 53n) - 1n,
    0n,
    1n,
    -1n,
    10n,
    -(10n ** 18n),
  ),
);

describe('an integer reads exactly in every spelling JSON allows', () => {
  test('int64 values, the extremes included, in generated spellings, inside objects and arrays', () => {
    fc.assert(
      fc.property(
        int64.chain((n) => fc.tuple(fc.constant(n), spelling(n))),
        ([n, literal]) => {
          expect(exactNumber(literal), literal).toBe(asParsed(n));
          const parsed = parseJson(`{"categoryId":${literal},"ids":[${literal}, ${literal}]}`) as {
            categoryId: unknown;
            ids: unknown[];
          };
          expect(parsed.categoryId, literal).toBe(asParsed(n));
          expect(parsed.ids, literal).toEqual([asParsed(n), asParsed(n)]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['9007199254740993e0', 9007199254740993n],
    ['90071992547409930e-1', 9007199254740993n],
    ['9.223372036854775807E18', INT64_MAX],
    ['-9223372036854775808.000', INT64_MIN],
    ['1.0', 1],
    ['1E2', 100],
    ['10e-1', 1],
    ['0.5e1', 5],
    ['-0', -0],
    ['0e-5', 0],
    ['1e+21', 10n ** 21n],
  ] as const)('%s', (literal, expected) => {
    expect(Object.is(exactNumber(literal), expected) || exactNumber(literal) === expected).toBe(true);
    expect(parseJson(`[${literal}]`)).toEqual([expected]);
  });

  test('a number with a fraction, however small, never reads as an int64', () => {
    fc.assert(
      fc.property(
        int64,
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom('', 'e0', 'E-2', 'e-0'),
        (n, places, exponent) => {
          // n, then a fraction of `places` places ending in 5, in an exponent spelling.
          const literal = `${n < 0n ? '-' : ''}${n < 0n ? -n : n}.${'0'.repeat(places - 1)}5${exponent}`;
          const value = exactNumber(literal);
          expect(typeof value === 'number' && !Number.isSafeInteger(value), literal).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
    for (const literal of ['1.00000000000000005', '0.99999999999999999', '-1e-400', '4503599627370496.25']) {
      expect(Number.isInteger(exactNumber(literal)), literal).toBe(false);
    }
  });

  test('huge exponents and long runs of zeros are read at once, as doubles far outside int64', () => {
    const started = performance.now();
    expect(exactNumber('1e999999999')).toBe(Infinity);
    expect(exactNumber('-1E+99999999999999999999')).toBe(-Infinity);
    expect(exactNumber('1e-999999999')).toBe(Number.MIN_VALUE); // not 0: that would be an integer
    expect(exactNumber(`1${'0'.repeat(MAX_INTEGER_DIGITS)}`)).toBe(Number(`1${'0'.repeat(MAX_INTEGER_DIGITS)}`));
    expect(exactNumber(`1${'0'.repeat(1_000_000)}e-1000000`)).toBe(1);
    expect(exactNumber(`1.${'0'.repeat(1_000_000)}1`)).toBe(1 + Number.EPSILON); // a fraction stays one
    expect(parseJson(`[1${'0'.repeat(1_000_000)}1]`)).toEqual([Infinity]);
    // A guard against a superlinear read (a quadratic one takes hours on a million digits), not a
    // speed target: some 40 times an honest read beside two busy loops on 2 cores.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
