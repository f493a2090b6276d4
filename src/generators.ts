// Random inputs for properties, derived from the files in schemas/ (never re-typed here): valid
// NewPets, bodies that break exactly one rule of the NewPet schema, listPets query values from the
// OpenAPI parameters, and bearer tokens that are never the real key. Every arbitrary shrinks, so a
// failing property ends on a small input.
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN, parseJson, stringifyJson, type Int64 } from './json.js';
import { readSchemaFile, schemaFiles, SCHEMA_NAMES, type SchemaName } from './schemas.js';
import type { NewPet, PetStatus } from './generated/schema-types.js';

/** The part of JSON Schema the contract files use. */
interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: readonly unknown[];
  required?: readonly string[];
  properties?: Readonly<Record<string, Schema>>;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

/** Follows `X.json` (schema files) and `#/components/schemas/X` (openapi.json) references. */
function resolve(schema: Schema): Schema {
  if (schema.$ref === undefined) return schema;
  const name = /(\w+)(?:\.json)?$/.exec(schema.$ref)?.[1];
  if (!SCHEMA_NAMES.includes(name as SchemaName)) throw new Error(`generators: cannot resolve $ref ${schema.$ref}`);
  return resolve(schemaFiles[name as SchemaName] as Schema);
}

function unsupported(schema: Schema, where: string): never {
  throw new Error(`generators: no arbitrary for ${where}: ${JSON.stringify(schema)}; extend src/generators.ts`);
}

// ---------------------------------------------------------------------------------------------
// Integers: format int64 is the whole signed 64-bit range.

/** A parsed int64 the way src/json.ts reads one back: a number when safe, else a bigint. */
export function asInt64(value: bigint): Int64 {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

/** Where int64 handling usually breaks, simplest first (shrinking walks towards the front). */
export const INT64_EDGES: readonly bigint[] = Object.freeze([
  0n, 1n, -1n, 2n ** 31n - 1n, -(2n ** 31n), 2n ** 32n, 2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 53n, -(2n ** 53n),
  2n ** 53n + 1n, -(2n ** 53n + 1n), INT64_MAX - 1n, INT64_MIN + 1n, INT64_MAX, INT64_MIN,
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

/** Integers just past either end of int64 and far beyond, as exact bigints. */
function beyondInt64(): fc.Arbitrary<bigint> {
  return fc.oneof(
    fc.constantFrom(INT64_MAX + 1n, INT64_MIN - 1n, 2n ** 64n, -(2n ** 64n)),
    fc.bigInt({ min: INT64_MAX + 1n, max: 2n ** 80n }),
    fc.bigInt({ min: -(2n ** 80n), max: INT64_MIN - 1n }),
  );
}

// ---------------------------------------------------------------------------------------------
// Text. The interface leaves name length and character limits open; generated names cover the
// whole code point range (astral planes included, surrogates excluded: JSON text is UTF-8).

/** One code point of plain text: letters, marks, numbers, punctuation, symbols. */
const PLAIN_CHAR = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
/**
 * Text every server must store: plain characters and spaces, and the invisible format characters
 * ordinary text relies on (zero-width joiners in emoji, direction marks in right-to-left text,
 * emoji tag characters in flags).
 */
const ORDINARY_TEXT = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\u061C\u200C-\u200F\u{E0020}-\u{E007F}]*$/u;

/** Blocks of ordinary text in many scripts, right-to-left, combining marks, emoji and astral CJK. */
const PLAIN_BLOCKS: readonly (readonly [number, number])[] = [
  [0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0xc0, 0x24f], [0x300, 0x36f], [0x391, 0x3c9], [0x410, 0x44f],
  [0x5d0, 0x5ea], [0x621, 0x64a], [0x905, 0x939], [0x3041, 0x3096], [0x4e00, 0x9fff], [0xac00, 0xd7a3],
  [0x1d400, 0x1d7ff], [0x1f300, 0x1f64f], [0x20000, 0x2a6df],
];

const fromCodePoint = (cp: number) => String.fromCodePoint(cp);
const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

/** A code point of plain text in one of PLAIN_BLOCKS. */
function plainChar(): fc.Arbitrary<string> {
  return fc
    .oneof(...PLAIN_BLOCKS.map(([min, max]) => fc.integer({ min, max })))
    .map(fromCodePoint)
    .filter((c) => PLAIN_CHAR.test(c));
}

/** Any code point but a surrogate: printable ASCII, the BMP (controls included), the astral planes, plain text. */
function anyChar(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map(fromCodePoint) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).filter((cp) => !isSurrogate(cp)).map(fromCodePoint) },
    { weight: 3, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map(fromCodePoint) },
    { weight: 2, arbitrary: plainChar() },
  );
}

/** Default name lengths in code points (not in the schema: the interface leaves them open). */
export const NAME_LENGTH = Object.freeze({ min: 1, max: 200 });

/** Text of `min..max` code points over the whole Unicode range; mostly short, sometimes up to `max`. */
export function unicodeText({ min = NAME_LENGTH.min, max = NAME_LENGTH.max } = {}): fc.Arbitrary<string> {
  const unit = anyChar();
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit, minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit, minLength: min, maxLength: max, size: 'max' }) },
  );
}

/** Plain text (no controls, no white space at either end) of `min..max` code points, in many scripts. */
export function plainText({ min = 1, max = 12 } = {}): fc.Arbitrary<string> {
  return fc.string({ unit: plainChar(), minLength: min, maxLength: max });
}

/**
 * Names every reasonable server stores: at most this many code points of ordinary text. Beyond
 * it (or with controls, unassigned or private-use code points, bidi overrides, white space at
 * the ends) the interface lets a server refuse a name with 400 ("length or character limits of
 * name: not shown").
 */
export const NAME_SURELY_ACCEPTED = 64;

/** Why a server may refuse this name, or undefined when the name must be accepted. */
export function nameGap(name: string): string | undefined {
  const chars = [...name];
  if (chars.length === 0) return 'it is empty';
  if (chars.length > NAME_SURELY_ACCEPTED) return `it is ${chars.length} code points long`;
  if (name.trim() !== name) return 'it starts or ends with white space';
  const odd = chars.find((c) => !ORDINARY_TEXT.test(c));
  if (odd !== undefined) return `it holds ${codePoints(odd)} (a control, unassigned, private-use, separator or unusual format code point)`;
  return undefined;
}

/** Code points of a string, as `U+XXXX` (for failure messages about text). */
export function codePoints(text: string): string {
  return [...text].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

// ---------------------------------------------------------------------------------------------
// Valid values, walked from the schema.

/** Arbitraries to use for named properties instead of the schema-derived ones. */
export type FieldArbitraries = Readonly<Record<string, fc.Arbitrary<unknown>>>;

function arbitraryFor(schema: Schema, where: string, fields: FieldArbitraries): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(s.properties ?? {})) model[key] = fields[key] ?? arbitraryFor(sub, `${where}.${key}`, fields);
      return fc.record(model, { requiredKeys: [...(s.required ?? [])], noNullPrototype: true });
    }
    case 'string':
      return unicodeText();
    case 'integer':
      if (s.format === 'int64') return int64();
      return fc.integer({ min: s.minimum ?? -(2 ** 31), max: s.maximum ?? 2 ** 31 - 1 });
    default:
      return unsupported(s, where);
  }
}

/**
 * Any valid NewPet: every property of the schema, the optional ones present or absent; names over
 * the whole Unicode range (1..200 code points), categoryId over the whole int64 range.
 */
export function newPet(fields: FieldArbitraries = {}): fc.Arbitrary<NewPet> {
  return arbitraryFor(schemaFiles.NewPet as Schema, 'NewPet', fields) as fc.Arbitrary<NewPet>;
}

// ---------------------------------------------------------------------------------------------
// Invalid bodies, each breaking exactly one rule of the schema, labelled with that rule.

export type RuleKind = 'not-json' | 'not-object' | 'missing' | 'type' | 'fraction' | 'int64-range' | 'enum-case' | 'enum-spelling';

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
    .chain((v) => fc.array(fc.boolean(), { minLength: v.length, maxLength: v.length }).map((flips) => flipCase(v, flips)))
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
        case 'insert': return v.slice(0, i) + c + v.slice(i);
        case 'delete': return v.slice(0, j) + v.slice(j + 1);
        case 'replace': return v.slice(0, j) + c + v.slice(j + 1);
        case 'swap': return j + 1 < v.length ? v.slice(0, j) + v.charAt(j + 1) + v.charAt(j) + v.slice(j + 2) : `${v}s`;
        default: return i % 2 ? ` ${v}` : `${v} `;
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
  const rule = (r: BrokenRule, body: fc.Arbitrary<Body>) => rules.push({ ...r, arbitrary: body.map((b) => ({ rule: r, body: b })) });
  const replacing = (field: string, bad: fc.Arbitrary<unknown>) =>
    fc.tuple(objects, bad).map(([o, v]): Body => ({ json: { ...o, [field]: v } }));

  rule(
    { kind: 'not-json', says: 'the body is not JSON' },
    fc
      .oneof(
        fc.constantFrom('', ' ', '{', 'nul', "{'name':'x'}", 'name=x&categoryId=1'),
        objects.map((o) => stringifyJson(o).slice(0, -1)),
        fc.string({ maxLength: 12 }),
      )
      .filter((text) => !parses(text))
      .map((raw) => ({ raw })),
  );
  rule(
    { kind: 'not-object', says: `the body is JSON but not an object (type: ${schema.type})` },
    fc.oneof(objects.map((o) => [o]), JSON_TYPES.null!, JSON_TYPES.string!, JSON_TYPES.integer!, JSON_TYPES.boolean!).map((json) => ({ json })),
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
      rule({ kind: 'fraction', field, says: `${field} is a number with a fraction (type: integer)` }, replacing(field, JSON_TYPES.number!));
    }
    if (s.format === 'int64') {
      rule({ kind: 'int64-range', field, says: `${field} is an integer beyond int64 (format: int64)` }, replacing(field, beyondInt64()));
    }
    if (s.enum) {
      const values = s.enum.filter((v): v is string => typeof v === 'string');
      rule({ kind: 'enum-case', field, says: `${field} differs from an allowed value only in letter case (enum: ${values.join(', ')})` }, replacing(field, enumCase(values)));
      rule({ kind: 'enum-spelling', field, says: `${field} is an allowed value misspelt (enum: ${values.join(', ')})` }, replacing(field, enumSpelling(values)));
    }
  }
  return rules;
}

/** `kind` or `kind:field`, the key properties use to map a rule to a requirement. */
export function ruleKey(rule: BrokenRule): string {
  return rule.field === undefined ? rule.kind : `${rule.kind}:${rule.field}`;
}

// ---------------------------------------------------------------------------------------------
// listPets query values, from the OpenAPI parameters.

interface Parameter {
  name: string;
  in: string;
  schema: Schema;
}

const listParameters = (
  (readSchemaFile('openapi.json') as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }).paths['/pets']?.get?.parameters ?? []
);

function queryParameter(name: string): Schema {
  const p = listParameters.find((x) => x.name === name && x.in === 'query');
  if (!p) throw new Error(`generators: openapi.json has no listPets query parameter "${name}"`);
  return resolve(p.schema);
}

const limitSchema = queryParameter('limit');
if (limitSchema.type !== 'integer' || limitSchema.minimum === undefined || limitSchema.maximum === undefined) unsupported(limitSchema, 'limit');

/** The `limit` parameter's bounds and default, as openapi.json states them. */
export const LIMIT = Object.freeze({
  min: limitSchema.minimum,
  max: limitSchema.maximum,
  default: typeof limitSchema.default === 'number' ? limitSchema.default : limitSchema.maximum,
});

/** Any allowed `limit`, its bounds and default weighted in. */
export function validLimit(): fc.Arbitrary<number> {
  return fc.oneof(fc.integer({ min: LIMIT.min, max: LIMIT.max }), fc.constantFrom(LIMIT.min, LIMIT.default, LIMIT.max));
}

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

/** `limit` values that are not integers at all: fractions, words, empty, other notations, digits of other scripts. */
export function malformedLimit(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom('', ' ', 'abc', '1.5', '1e2', '0x10', '+5', '5abc', 'NaN', 'Infinity', '١٠', '１０', '1,5', '[1]', 'null', 'true'),
      fc.tuple(fc.integer({ min: LIMIT.min, max: LIMIT.max }), fc.integer({ min: 1, max: 99 })).map(([i, f]) => `${i}.${f}`),
      fc.string({ unit: anyChar(), maxLength: 8 }),
    )
    .filter((s) => !/^-?\d+$/.test(s));
}

const statusSchema = queryParameter('status');

/** Any allowed `status` filter. */
export function statusFilter(): fc.Arbitrary<PetStatus> {
  return arbitraryFor(statusSchema, 'status', {}) as fc.Arbitrary<PetStatus>;
}

/** `status` filter values outside the enumeration: off by case or spelling, or other words. */
export function unknownStatusFilter(): fc.Arbitrary<string> {
  const values = (statusSchema.enum ?? []).filter((v): v is string => typeof v === 'string');
  const word = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map(fromCodePoint), minLength: 1, maxLength: 10 });
  return fc.oneof(enumCase(values), enumSpelling(values), word.filter((s) => !values.includes(s)));
}

// ---------------------------------------------------------------------------------------------
// Credentials.

const B64TOKEN_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'];

/**
 * Bearer tokens that are never `apiKey`: random b64token strings (RFC 6750 §2.1), and the key
 * with a few characters added before or after it (a prefix or substring comparison accepts
 * those; reports still show the key only as $PETSTORE_API_KEY).
 */
export function wrongToken(apiKey: string): fc.Arbitrary<string> {
  const chars = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...B64TOKEN_CHARS), minLength: min, maxLength: max });
  return fc
    .oneof(
      fc.tuple(chars(1, 64), fc.nat({ max: 2 })).map(([t, pad]) => t + '='.repeat(pad)),
      fc.tuple(chars(1, 3), fc.boolean()).map(([extra, before]) => (before ? extra + apiKey : apiKey + extra)),
    )
    .filter((t) => t !== apiKey);
}
