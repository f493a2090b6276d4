// The generators are derived from schemas/, so they are checked against them: every valid value
// validates, every invalid value does not, and it breaks exactly the rule it is labelled with.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  INT64_EDGES,
  LIMIT,
  NAME_LENGTH,
  NAME_SURELY_ACCEPTED,
  invalidBodies,
  malformedLimit,
  nameGap,
  newPet,
  outOfRangeLimit,
  plainText,
  ruleKey,
  statusFilter,
  unknownStatusFilter,
  validLimit,
  wrongToken,
} from '../../src/data/generators.js';
import { exactInteger, INT64_MAX, INT64_MIN, isInt64, parseJson, stringifyJson } from '../../src/wire/json.js';
import { PET_STATUSES, schemaFiles, validate } from '../../src/data/schemas.js';

const sample = <T>(arb: fc.Arbitrary<T>, numRuns = 400, seed = 1) => fc.sample(arb, { seed, numRuns });
const codePointsOf = (s: string) => [...s].length;
const SAFE = 2n ** 53n;

describe('valid NewPets', () => {
  const pets = sample(newPet(), 2000);

  test('every one validates against NewPet and survives a JSON round trip exactly', () => {
    for (const pet of pets) {
      expect(validate('NewPet', pet).problems, JSON.stringify(pet.name)).toEqual([]);
      const back = parseJson(stringifyJson(pet)) as typeof pet;
      expect(back.name).toBe(pet.name);
      expect(exactInteger(back.categoryId)).toBe(exactInteger(pet.categoryId));
    }
  });

  test('names run from 1 to 200 code points over the whole range, astral planes and controls included', () => {
    const lengths = pets.map((p) => codePointsOf(p.name));
    expect(Math.min(...lengths)).toBe(NAME_LENGTH.min);
    expect(Math.max(...lengths)).toBeGreaterThan(150);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(NAME_LENGTH.max);
    const all = pets.flatMap((p) => [...p.name].map((c) => c.codePointAt(0) ?? 0));
    expect(all.some((cp) => cp >= 0x20000)).toBe(true);
    expect(all.some((cp) => cp >= 0x10000 && cp < 0x20000)).toBe(true);
    expect(all.some((cp) => cp < 0x20)).toBe(true);
    expect(all.some((cp) => cp >= 0xd800 && cp <= 0xdfff)).toBe(false);
  });

  test('categoryId covers the signed int64 range: both extremes, beyond 2^53 on either side, exact as bigint', () => {
    const ids = pets.map((p) => BigInt(exactInteger(p.categoryId) ?? 'x'));
    expect(ids).toContain(INT64_MAX);
    expect(ids).toContain(INT64_MIN);
    expect(ids.some((n) => n > SAFE)).toBe(true);
    expect(ids.some((n) => n < -SAFE)).toBe(true);
    expect(ids.some((n) => n > -1000n && n < 1000n)).toBe(true);
    for (const p of pets) expect(isInt64(p.categoryId)).toBe(true);
    // Safe integers are numbers and the rest bigint, as src/wire/json.ts reads them back.
    for (const p of pets) expect(typeof p.categoryId === 'bigint').toBe(!Number.isSafeInteger(Number(p.categoryId)));
    for (const edge of INT64_EDGES) expect(edge >= INT64_MIN && edge <= INT64_MAX).toBe(true);
  });

  test('status is present (one of the enumeration) or absent', () => {
    expect(pets.some((p) => !('status' in p))).toBe(true);
    expect(new Set(pets.map((p) => p.status).filter(Boolean))).toEqual(new Set(PET_STATUSES));
  });

  test('plain names are ones every server must accept', () => {
    for (const name of sample(plainText({ max: NAME_SURELY_ACCEPTED }))) expect(nameGap(name), name).toBeUndefined();
    expect(nameGap('🐈\u200D⬛ חתול \u200Fقطة')).toBeUndefined();
    expect(nameGap('a\u0000b')).toMatch(/U\+0000/);
    expect(nameGap('a\u202Eb')).toMatch(/U\+202E/);
    expect(nameGap('a\u{F0000}')).toMatch(/U\+F0000/);
    expect(nameGap(' x')).toMatch(/white space/);
    expect(nameGap('x'.repeat(NAME_SURELY_ACCEPTED + 1))).toMatch(/code points long/);
  });
});

describe('invalid bodies', () => {
  const base = newPet({ name: plainText() });
  const rules = invalidBodies(base);
  const valid = sample(base, 50, 7);

  test('the rules come from the schema: each required property missing, a wrong type for each, int64 range and fraction, enum case and spelling', () => {
    const schema = schemaFiles.NewPet as { required: string[]; properties: Record<string, unknown> };
    const keys = rules.map(ruleKey);
    for (const field of schema.required) expect(keys).toContain(`missing:${field}`);
    for (const field of Object.keys(schema.properties)) expect(keys).toContain(`type:${field}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'not-json',
        'not-object',
        'fraction:categoryId',
        'int64-range:categoryId',
        'enum-case:status',
        'enum-spelling:status',
      ]),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  test.each(rules.map((r) => [ruleKey(r), r] as const))(
    '%s: every body breaks that rule and only that one',
    (_key, rule) => {
      for (const { rule: label, body } of sample(rule.arbitrary, 200, 3)) {
        expect(label.says).toBe(rule.says);
        if ('raw' in body) {
          expect(() => parseJson(body.raw), body.raw).toThrow();
          continue;
        }
        // What the server receives: the body as JSON text, read back the way the suite reads JSON.
        const json = parseJson(stringifyJson(body.json));
        const result = validate('NewPet', json);
        expect(result.valid, stringifyJson(json)).toBe(false);
        if (rule.field === undefined) {
          expect(json === null || typeof json !== 'object' || Array.isArray(json)).toBe(true);
          continue;
        }
        // The problem names the field, and putting a valid value back makes the body valid.
        expect(result.problems.join('; ')).toContain(rule.field);
        const fixed = {
          ...(json as Record<string, unknown>),
          [rule.field]: (valid[0] as unknown as Record<string, unknown>)[rule.field],
        };
        expect(validate('NewPet', fixed).problems).toEqual([]);
      }
    },
  );
});

describe('listPets query values, from openapi.json', () => {
  test('valid limits are integers from minimum to maximum, both bounds and the default among them', () => {
    const limits = sample(validLimit());
    for (const n of limits) expect(Number.isInteger(n) && n >= LIMIT.min && n <= LIMIT.max).toBe(true);
    expect(limits).toEqual(expect.arrayContaining([LIMIT.min, LIMIT.default, LIMIT.max]));
    expect(LIMIT).toEqual({ min: 1, max: 100, default: 20 });
  });

  test('out-of-range limits are integers outside the range; malformed ones are not integers at all', () => {
    for (const s of sample(outOfRangeLimit())) {
      expect(s).toMatch(/^-?\d+$/);
      const n = BigInt(s);
      expect(n < BigInt(LIMIT.min) || n > BigInt(LIMIT.max)).toBe(true);
    }
    for (const s of sample(malformedLimit())) expect(s).not.toMatch(/^-?\d+$/);
  });

  test('status filters are the enumeration; unknown ones are never in it', () => {
    expect(new Set(sample(statusFilter()))).toEqual(new Set(PET_STATUSES));
    for (const s of sample(unknownStatusFilter())) expect(PET_STATUSES).not.toContain(s);
  });
});

describe('bearer tokens', () => {
  test('are never the key, and are valid header text', () => {
    const key = 'the-Real_key.123';
    const tokens = sample(wrongToken(key), 1000);
    for (const t of tokens) {
      expect(t).not.toBe(key);
      expect(t).toMatch(/^[A-Za-z0-9\-._~+/]+=*$/);
    }
    expect(tokens.some((t) => t.includes(key))).toBe(true);
  });
});
