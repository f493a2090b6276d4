// Invalid values, each naming the rule it breaks: NewPet bodies, listPets query values, tokens.
import fc from 'fast-check';
import { parseJson, stringifyJson } from '../../wire/json.js';
import { schemaFiles } from '../schemas.js';
import type { NewPet } from '../generated/schema-types.js';
import { beyondInt64 } from './int64.js';
import { anyChar, fromCodePoint } from './unicode.js';
import { LIMIT, newPet, resolve, statusSchema, unsupported, type Schema } from './valid.js';

export type RuleKind =
  'not-json' | 'not-object' | 'missing' | 'type' | 'fraction' | 'int64-range' | 'enum-case' | 'enum-spelling';

export interface BrokenRule {
  kind: RuleKind;
  /** The property whose rule is broken; absent for rules about the whole body. */
  field?: string;
  /** In plain words, e.g. `name is missing (required)`. */
  says: string;
}

export type Body = { json: unknown } | { raw: string };

export interface InvalidBody {
  rule: BrokenRule;
  body: Body;
}

export interface InvalidRule extends BrokenRule {
  arbitrary: fc.Arbitrary<InvalidBody>;
}

/** One value of every JSON type, by the schema's name for it. */
const JSON_TYPES: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  string: fc.oneof(fc.string({ maxLength: 8 }), fc.integer().map(String)),
  integer: fc.integer(),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2, noNullPrototype: true }),
};

/** JSON types a value of this schema type must not have ("integer" admits no fraction: a rule of its own). */
function wrongTypes(type: string, optional: boolean): string[] {
  const allowed = type === 'number' ? ['number', 'integer'] : type === 'integer' ? ['integer', 'number'] : [type];
  // null for an optional property is read by many servers as "absent"; the interface does not say.
  return Object.keys(JSON_TYPES).filter((t) => !allowed.includes(t) && !(optional && t === 'null'));
}

function flipCase(text: string, flips: readonly boolean[]): string {
  return [...text].map((c, i) => (flips[i] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
}

/** A value equal to an allowed one but for letter case. */
function enumCase(values: readonly string[]): fc.Arbitrary<string> {
  return fc
    .constantFrom(...values)
    .chain((v) =>
      fc.array(fc.boolean(), { minLength: v.length, maxLength: v.length }).map((flips) => flipCase(v, flips)),
    )
    .filter((s) => !values.includes(s));
}

/** An allowed value with one edit: a letter inserted, dropped, replaced or swapped, or a space added. */
function enumSpelling(values: readonly string[]): fc.Arbitrary<string> {
  const lower = new Set(values.map((v) => v.toLowerCase()));
  const letter = fc.integer({ min: 0x61, max: 0x7a }).map(fromCodePoint);
  return fc
    .tuple(fc.constantFrom(...values), fc.constantFrom('insert', 'delete', 'replace', 'swap', 'pad'), fc.nat(), letter)
    .map(([v, edit, at, c]) => {
      const i = at % (v.length + 1);
      const j = Math.min(i, v.length - 1);
      switch (edit) {
        case 'insert':
          return v.slice(0, i) + c + v.slice(i);
        case 'delete':
          return v.slice(0, j) + v.slice(j + 1);
        case 'replace':
          return v.slice(0, j) + c + v.slice(j + 1);
        case 'swap':
          return j + 1 < v.length ? v.slice(0, j) + v.charAt(j + 1) + v.charAt(j) + v.slice(j + 2) : `${v}s`;
        default:
          return i % 2 ? ` ${v}` : `${v} `;
      }
    })
    .filter((s) => !lower.has(s.toLowerCase()));
}

function parses(text: string): boolean {
  try {
    parseJson(text);
    return true;
  } catch {
    return false;
  }
}

/** The bodies that are not JSON the not-json rule draws from; the example checks send each on every run. */
export const NOT_JSON_CONSTANTS: readonly string[] = Object.freeze([
  '',
  ' ',
  '{',
  'nul',
  "{'name':'x'}",
  'name=x&categoryId=1',
]);

/**
 * The rules of a schema as invalid-body generators, each breaking exactly that rule of an
 * otherwise valid body drawn from `base`: the body is not JSON or not an object; a required
 * property is missing; a property has a wrong JSON type, a fraction where an integer belongs,
 * an integer beyond int64, or an enum value off by case or spelling.
 */
export function invalidBodies(base: fc.Arbitrary<NewPet> = newPet()): InvalidRule[] {
  const schema = resolve(schemaFiles.NewPet as Schema);
  const objects = base as fc.Arbitrary<unknown> as fc.Arbitrary<Record<string, unknown>>;
  const rules: InvalidRule[] = [];
  const rule = (r: BrokenRule, body: fc.Arbitrary<Body>) =>
    rules.push({ ...r, arbitrary: body.map((b) => ({ rule: r, body: b })) });
  const replacing = (field: string, bad: fc.Arbitrary<unknown>) =>
    fc.tuple(objects, bad).map(([o, v]): Body => ({ json: { ...o, [field]: v } }));

  rule(
    { kind: 'not-json', says: 'the body is not JSON' },
    fc
      .oneof(
        fc.constantFrom(...NOT_JSON_CONSTANTS),
        objects.map((o) => stringifyJson(o).slice(0, -1)),
        fc.string({ maxLength: 12 }),
      )
      .filter((text) => !parses(text))
      .map((raw) => ({ raw })),
  );
  rule(
    { kind: 'not-object', says: `the body is JSON but not an object (type: ${schema.type})` },
    fc
      .oneof(
        objects.map((o) => [o]),
        JSON_TYPES.null!,
        JSON_TYPES.string!,
        JSON_TYPES.integer!,
        JSON_TYPES.boolean!,
      )
      .map((json) => ({ json })),
  );
  const required = new Set(schema.required ?? []);
  for (const [field, raw] of Object.entries(schema.properties ?? {})) {
    const s = resolve(raw);
    if (required.has(field)) {
      rule(
        { kind: 'missing', field, says: `${field} is missing (required)` },
        objects.map((o): Body => {
          const { [field]: _gone, ...rest } = o;
          return { json: rest };
        }),
      );
    }
    if (s.type === undefined) unsupported(s, `NewPet.${field}`);
    const types = wrongTypes(s.type, !required.has(field));
    rule(
      { kind: 'type', field, says: `${field} is not of type ${s.type} (${types.join(', ')} instead)` },
      replacing(field, fc.oneof(...types.map((t) => JSON_TYPES[t]!))),
    );
    if (s.type === 'integer') {
      rule(
        { kind: 'fraction', field, says: `${field} is a number with a fraction (type: integer)` },
        replacing(field, JSON_TYPES.number!),
      );
    }
    if (s.format === 'int64') {
      rule(
        { kind: 'int64-range', field, says: `${field} is an integer beyond int64 (format: int64)` },
        replacing(field, beyondInt64()),
      );
    }
    if (s.enum) {
      const values = s.enum.filter((v): v is string => typeof v === 'string');
      rule(
        {
          kind: 'enum-case',
          field,
          says: `${field} differs from an allowed value only in letter case (enum: ${values.join(', ')})`,
        },
        replacing(field, enumCase(values)),
      );
      rule(
        { kind: 'enum-spelling', field, says: `${field} is an allowed value misspelt (enum: ${values.join(', ')})` },
        replacing(field, enumSpelling(values)),
      );
    }
  }
  return rules;
}

/** `kind` or `kind:field`, the key properties use to map a rule to a requirement. */
export function ruleKey(rule: BrokenRule): string {
  return rule.field === undefined ? rule.kind : `${rule.kind}:${rule.field}`;
}

// listPets query values the parameters' schemas refuse.

/** Integers outside `minimum..maximum`: just outside, far outside, beyond 64 bits. */
export function outOfRangeLimit(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom(BigInt(LIMIT.min - 1), BigInt(LIMIT.max + 1), -1n),
      fc.bigInt({ min: -(2n ** 31n), max: BigInt(LIMIT.min - 1) }),
      fc.bigInt({ min: BigInt(LIMIT.max + 1), max: 2n ** 31n }),
      beyondInt64(),
    )
    .map(String);
}

/** The constants malformedLimit draws from; the example checks send each on every run (tests/leniencies/). */
export const MALFORMED_LIMIT_CONSTANTS: readonly string[] = Object.freeze([
  '',
  ' ',
  'abc',
  '1.5',
  '1e2',
  '0x10',
  '+5',
  '5abc',
  'NaN',
  'Infinity',
  '١٠',
  '１０',
  '1,5',
  '[1]',
  'null',
  'true',
]);

/** `limit` values that are not integers at all: fractions, words, empty, other notations, digits of other scripts. */
export function malformedLimit(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom(...MALFORMED_LIMIT_CONSTANTS),
      fc
        .tuple(fc.integer({ min: LIMIT.min, max: LIMIT.max }), fc.integer({ min: 1, max: 99 }))
        .map(([i, f]) => `${i}.${f}`),
      fc.string({ unit: anyChar(), maxLength: 8 }),
    )
    .filter((s) => !/^-?\d+$/.test(s));
}

/** `status` filter values outside the enumeration: off by case or spelling, or other words. */
export function unknownStatusFilter(): fc.Arbitrary<string> {
  const values = (statusSchema.enum ?? []).filter((v): v is string => typeof v === 'string');
  const word = fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map(fromCodePoint),
    minLength: 1,
    maxLength: 10,
  });
  return fc.oneof(
    enumCase(values),
    enumSpelling(values),
    word.filter((s) => !values.includes(s)),
  );
}

// Credentials.

const B64TOKEN_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'];

/**
 * Bearer tokens that are never `apiKey`: random b64token strings (RFC 6750 §2.1), and the key
 * with a few characters added before or after it (a prefix or substring comparison accepts
 * those; reports still show the key only as $PETSTORE_API_KEY).
 */
export function wrongToken(apiKey: string): fc.Arbitrary<string> {
  const chars = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom(...B64TOKEN_CHARS), minLength: min, maxLength: max });
  return fc
    .oneof(
      fc.tuple(chars(1, 64), fc.nat({ max: 2 })).map(([t, pad]) => t + '='.repeat(pad)),
      fc.tuple(chars(1, 3), fc.boolean()).map(([extra, before]) => (before ? extra + apiKey : apiKey + extra)),
    )
    .filter((t) => t !== apiKey);
}
