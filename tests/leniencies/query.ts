// The query channels of listPets: limit and status.
import {
  AJV,
  entry,
  JACKSON,
  LAST_WINS,
  NUMBER,
  PARSE_INT,
  PY_INT,
  QS_BRACKETS,
  RUBY_INTEGER,
  type Entry,
} from './entry.js';

/** `limit` values; the rule: a 4xx Error or a 200 with at most 100 Pets, on a store of more than 100. */
export const LIMIT_LENIENCIES: readonly Entry<readonly (readonly [string, string])[]>[] = [
  entry('listPets', 'limit', 'exponent', {
    value: [['limit', '1e3']],
    what: 'limit 1e3, an exponent (1000 to Number(), 1 to parseInt)',
    acceptedBy: [NUMBER, AJV, 'PHP numeric strings'],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'hex', {
    value: [['limit', '0x3e8']],
    what: 'limit 0x3e8, hexadecimal for 1000',
    acceptedBy: [NUMBER, 'JavaScript parseInt()', AJV, 'Python int(s, 0)'],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'underscore', {
    value: [['limit', '1_000']],
    what: 'limit 1_000, digits grouped with an underscore',
    acceptedBy: [PY_INT, RUBY_INTEGER],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'fullwidth', {
    value: [['limit', '１０００']],
    what: 'limit １０００, fullwidth digits',
    acceptedBy: [PY_INT, 'Python str.isdigit() and re \\d'],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'arabic-indic', {
    value: [['limit', '١٠٠٠']],
    what: 'limit ١٠٠٠, Arabic-Indic digits',
    acceptedBy: [PY_INT],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'trailing-junk', {
    value: [['limit', '1000abc']],
    what: 'limit 1000abc, digits then letters',
    acceptedBy: [PARSE_INT],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'infinity', {
    value: [['limit', 'Infinity']],
    what: 'limit Infinity',
    acceptedBy: [NUMBER, 'Python float()', 'Java Double.parseDouble()'],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'nan', {
    value: [['limit', 'NaN']],
    what: 'limit NaN (every comparison false: a range check written as rejections lets it by)',
    acceptedBy: [NUMBER, 'Python float()'],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'blank', {
    value: [['limit', ' ']],
    what: 'limit " ", one space (0 to Number())',
    acceptedBy: [NUMBER],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'repeated', {
    value: [
      ['limit', '1'],
      ['limit', '1000'],
    ],
    what: 'limit twice, 1 then 1000',
    acceptedBy: [LAST_WINS, 'Go url.Values.Get and Flask args.get (the first value wins)'],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'bracketed', {
    value: [['limit[]', '1000']],
    what: 'limit[]=1000, the bracket form of an array',
    acceptedBy: [QS_BRACKETS],
    requirement: 'listPets.limit.malformed',
    level: 'MUST',
  }),
  entry('listPets', 'limit', 'decimal-zero', {
    value: [['limit', '5.0']],
    what: 'limit 5.0 (an integer to JSON Schema)',
    acceptedBy: [AJV, 'DRF IntegerField'],
    requirement: 'listPets.limit.malformed',
    level: 'allowed',
  }),
  entry('listPets', 'limit', 'plus', {
    value: [['limit', '+5']],
    what: 'limit +5, a sign',
    acceptedBy: [NUMBER, PY_INT, 'Go strconv.Atoi', 'Java Integer.parseInt'],
    requirement: 'listPets.limit.malformed',
    level: 'allowed',
  }),
  entry('listPets', 'limit', 'leading-zero', {
    value: [['limit', '005']],
    what: 'limit 005, leading zeros',
    acceptedBy: [NUMBER, PY_INT, 'Go strconv.Atoi', 'Java Integer.parseInt'],
    requirement: 'listPets.limit.malformed',
    level: 'allowed',
  }),
];

/** `status` filter values; the rule: a 4xx Error or a 200 with valid Pets (SHOULD: 400). */
export const STATUS_LENIENCIES: readonly Entry<readonly (readonly [string, string])[]>[] = [
  entry('listPets', 'status', 'upper-case', {
    value: [['status', 'AVAILABLE']],
    what: 'status AVAILABLE, another letter case',
    acceptedBy: [
      '.NET Enum.Parse(ignoreCase) and JsonStringEnumConverter',
      "Spring Boot's LenientStringToEnumConverter",
    ],
    requirement: 'listPets.status.unknown-rejected',
    level: 'SHOULD',
  }),
  entry('listPets', 'status', 'padded', {
    value: [['status', ' available']],
    what: 'status " available", a space before it',
    acceptedBy: ["Spring's StringToEnumConverterFactory (trims)", '.NET Enum.Parse'],
    requirement: 'listPets.status.unknown-rejected',
    level: 'SHOULD',
  }),
  entry('listPets', 'status', 'ordinal', {
    value: [['status', '0']],
    what: 'status 0, the first value by its position',
    acceptedBy: ['.NET Enum.Parse', JACKSON('enum ordinals (FAIL_ON_NUMBERS_FOR_ENUMS off by default)')],
    requirement: 'listPets.status.unknown-rejected',
    level: 'SHOULD',
  }),
  entry('listPets', 'status', 'comma-list', {
    value: [['status', 'available,sold']],
    what: 'status available,sold, two values in one',
    acceptedBy: ['.NET Enum.Parse of a [Flags] enum', 'Spring binding to a List (comma-separated)'],
    requirement: 'listPets.status.unknown-rejected',
    level: 'SHOULD',
  }),
];
