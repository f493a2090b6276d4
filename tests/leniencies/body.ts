// The body channels of createPet: its JSON syntax, and each field.
import {
  AJV,
  DOTNET,
  entry,
  judged,
  GO_DECODER,
  JACKSON,
  JSON5,
  NUMBER,
  PY_INT,
  PY_JSON,
  RUBY_JSON,
  type Entry,
  type Fields,
} from './entry.js';

const q = JSON.stringify;
const members = (f: Fields) => [`"name":${q(f.name)}`, `"categoryId":${f.categoryId}`, `"status":${q(f.status)}`];
const object = (f: Fields, ...extra: string[]) => `{${[...members(f), ...extra].join(',')}}`;

type Body = (f: Fields) => string;
type Edit = (f: Fields) => Record<string, unknown>;
const notJson = judged<Body>('createPet', 'body', 'createPet.body-not-object', 'MUST');
const openBody = judged<Body>('createPet', 'body', 'createPet.gaps', 'allowed');
const categoryNotInteger = judged<Edit>('createPet', 'categoryId', 'createPet.category-type', 'MUST');
const statusOffEnum = judged<Edit>('createPet', 'status', 'createPet.status-enum', 'MUST');

/** createPet bodies that are not JSON, each carrying a valid NewPet; the rule: 400, nothing created. */
export const BODY_LENIENCIES: readonly Entry<Body>[] = [
  notJson('nan-literal', {
    value: (f) => object(f, '"weight":NaN'),
    what: 'NaN, a literal JSON does not have, in a field the interface does not define',
    acceptedBy: [PY_JSON, JACKSON('ALLOW_NON_NUMERIC_NUMBERS'), `${RUBY_JSON} allow_nan`, JSON5],
  }),
  notJson('infinity-literal', {
    value: (f) => object(f, '"weight":-Infinity'),
    what: '-Infinity, a literal JSON does not have, in a field the interface does not define',
    acceptedBy: [PY_JSON, JACKSON('ALLOW_NON_NUMERIC_NUMBERS'), `${RUBY_JSON} allow_nan`, JSON5],
  }),
  notJson('trailing-comma', {
    value: (f) => `{${members(f).join(',')},}`,
    what: 'a comma after the last member',
    acceptedBy: [
      JSON5,
      JACKSON('ALLOW_TRAILING_COMMA'),
      DOTNET('AllowTrailingCommas'),
      `${RUBY_JSON} allow_trailing_comma`,
    ],
  }),
  notJson('line-comment', {
    value: (f) => `{// a pet\n${members(f).join(',')}}`,
    what: 'a // comment',
    acceptedBy: [JSON5, JACKSON('ALLOW_COMMENTS'), DOTNET('ReadCommentHandling.Skip'), RUBY_JSON],
  }),
  notJson('block-comment', {
    value: (f) => `{/* a pet */${members(f).join(',')}}`,
    what: 'a /* */ comment',
    acceptedBy: [JSON5, JACKSON('ALLOW_COMMENTS'), DOTNET('ReadCommentHandling.Skip'), RUBY_JSON],
  }),
  notJson('single-quotes', {
    value: (f) => `{'name':'${f.name.replace(/'/g, "\\'")}','categoryId':${f.categoryId},'status':'${f.status}'}`,
    what: 'strings in single quotes',
    acceptedBy: [JSON5, JACKSON('ALLOW_SINGLE_QUOTES')],
  }),
  notJson('unquoted-keys', {
    value: (f) => `{name:${q(f.name)},categoryId:${f.categoryId},status:${q(f.status)}}`,
    what: 'member names without quotes',
    acceptedBy: [JSON5, JACKSON('ALLOW_UNQUOTED_FIELD_NAMES')],
  }),
  notJson('trailing-text', {
    value: (f) => `${object(f)} and more`,
    what: 'text after the object',
    acceptedBy: [GO_DECODER, JACKSON('readValue (FAIL_ON_TRAILING_TOKENS off by default)')],
  }),
  notJson('two-objects', {
    value: (f) => `${object(f)}${object(f)}`,
    what: 'two objects, one after the other',
    acceptedBy: [GO_DECODER, JACKSON('readValue (FAIL_ON_TRAILING_TOKENS off by default)')],
  }),
  notJson('plus-number', {
    value: (f) => `{"name":${q(f.name)},"categoryId":+${f.categoryId},"status":${q(f.status)}}`,
    what: 'categoryId with a + sign, which JSON numbers do not have',
    acceptedBy: [JSON5, JACKSON('ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS')],
  }),
  notJson('leading-zero', {
    value: (f) => `{"name":${q(f.name)},"categoryId":0${f.categoryId},"status":${q(f.status)}}`,
    what: 'categoryId with a leading zero, which JSON numbers do not have',
    acceptedBy: [JACKSON('ALLOW_LEADING_ZEROS_FOR_NUMBERS')],
  }),
  notJson('hex-number', {
    value: (f) => `{"name":${q(f.name)},"categoryId":0x${f.categoryId.toString(16)},"status":${q(f.status)}}`,
    what: 'categoryId in hexadecimal',
    acceptedBy: [JSON5],
  }),
  notJson('control-character', {
    value: (f) => `{"name":"${f.name}\there","categoryId":${f.categoryId},"status":${q(f.status)}}`,
    what: 'a raw tab inside the name string (JSON requires \\t)',
    acceptedBy: ['Python json.loads(strict=False)', JACKSON('ALLOW_UNESCAPED_CONTROL_CHARS')],
  }),
  openBody('integer-as-decimal', {
    value: (f) => `{"name":${q(f.name)},"categoryId":${f.categoryId}.0,"status":${q(f.status)}}`,
    what: 'categoryId written N.0, a number JSON Schema counts as an integer',
    acceptedBy: ['JSON Schema (type: integer)', AJV, JACKSON('ACCEPT_FLOAT_AS_INT')],
  }),
  openBody('byte-order-mark', {
    value: (f) => `\uFEFF${object(f)}`,
    what: 'a byte order mark before the object (RFC 8259 §8.1 lets a parser ignore it)',
    acceptedBy: ['.NET System.Text.Json', 'Python json.loads of bytes', JACKSON('(detects it)')],
  }),
  openBody('repeated-key', {
    value: (f) => `{"name":"first",${members(f).join(',')}}`,
    what: 'name twice, the second the one meant (RFC 8259 §4: names SHOULD be unique)',
    acceptedBy: ['JavaScript JSON.parse', PY_JSON, 'Go encoding/json', JACKSON('(last wins)')],
  }),
];

/** createPet bodies in valid JSON with one field a forgiving reader coerces; the rule: 400, nothing created. */
export const FIELD_LENIENCIES: readonly Entry<Edit>[] = [
  categoryNotInteger('padded-string', {
    value: (f) => ({ ...f, categoryId: ` ${f.categoryId} ` }),
    what: 'categoryId as a string of digits with spaces around it',
    acceptedBy: [PY_INT, NUMBER, AJV],
  }),
  categoryNotInteger('decimal-string', {
    value: (f) => ({ ...f, categoryId: `${f.categoryId}.0` }),
    what: 'categoryId as the string "N.0"',
    acceptedBy: ['DRF IntegerField', AJV],
  }),
  categoryNotInteger('one-element-array', {
    value: (f) => ({ ...f, categoryId: [f.categoryId] }),
    what: 'categoryId wrapped in a one-element array',
    acceptedBy: ["Ajv coerceTypes: 'array' (Fastify's default)", JACKSON('UNWRAP_SINGLE_VALUE_ARRAYS')],
  }),
  categoryNotInteger('boolean-false', {
    value: (f) => ({ ...f, categoryId: false }),
    what: 'categoryId false (0 to a coercer)',
    acceptedBy: [AJV, NUMBER, 'PHP (int) cast'],
  }),
  entry('createPet', 'name', 'boolean', {
    value: (f) => ({ ...f, name: true }),
    what: 'name true (the string "true" to a coercer)',
    acceptedBy: [AJV, JACKSON('ALLOW_COERCION_OF_SCALARS (on by default)'), 'Python str()'],
    requirement: 'createPet.name-type',
    level: 'MUST',
  }),
  statusOffEnum('upper-case', {
    value: (f) => ({ ...f, status: f.status.toUpperCase() }),
    what: 'status in upper case',
    acceptedBy: [DOTNET('JsonStringEnumConverter (case-insensitive)'), JACKSON('ACCEPT_CASE_INSENSITIVE_ENUMS')],
  }),
  statusOffEnum('ordinal', {
    value: (f) => ({ ...f, status: 0 }),
    what: 'status 0, the first value by its position',
    acceptedBy: [JACKSON('enum ordinals (FAIL_ON_NUMBERS_FOR_ENUMS off by default)'), DOTNET('numeric enum values')],
  }),
  statusOffEnum('padded', {
    value: (f) => ({ ...f, status: ` ${f.status}` }),
    what: 'status with a space before it',
    acceptedBy: ["Spring's StringToEnumConverterFactory (trims)"],
  }),
  entry('createPet', 'keys', 'capitalised', {
    value: (f) => ({ Name: f.name, CategoryId: f.categoryId, status: f.status }),
    what: 'Name and CategoryId for name and categoryId (member names are case-sensitive)',
    acceptedBy: ['Go encoding/json (case-insensitive match)', DOTNET('Web defaults: PropertyNameCaseInsensitive')],
    requirement: 'createPet.missing-name',
    level: 'MUST',
  }),
];
