// The query channels of listPets: limit and status.
import {
  AJV,
  judged,
  JACKSON,
  LAST_WINS,
  NUMBER,
  PARSE_INT,
  PY_INT,
  QS_BRACKETS,
  RUBY_INTEGER,
  type Entry,
} from './entry.js';

type Query = readonly (readonly [string, string])[];
const malformedLimit = judged<Query>('listPets', 'limit', 'listPets.limit.malformed', 'MUST');
const openLimit = judged<Query>('listPets', 'limit', 'listPets.limit.malformed', 'allowed');
const unknownStatus = judged<Query>('listPets', 'status', 'listPets.status.unknown-rejected', 'SHOULD');

/** `limit` values; the rule: a 4xx Error or a 200 with at most 100 Pets, on a store of more than 100. */
export const LIMIT_LENIENCIES: readonly Entry<Query>[] = [
  malformedLimit('exponent', {
    value: [['limit', '1e3']],
    what: 'limit 1e3, an exponent (1000 to Number(), 1 to parseInt)',
    acceptedBy: [NUMBER, AJV, 'PHP numeric strings'],
  }),
  malformedLimit('hex', {
    value: [['limit', '0x3e8']],
    what: 'limit 0x3e8, hexadecimal for 1000',
    acceptedBy: [NUMBER, 'JavaScript parseInt()', AJV, 'Python int(s, 0)'],
  }),
  malformedLimit('underscore', {
    value: [['limit', '1_000']],
    what: 'limit 1_000, digits grouped with an underscore',
    acceptedBy: [PY_INT, RUBY_INTEGER],
  }),
  malformedLimit('fullwidth', {
    value: [['limit', '１０００']],
    what: 'limit １０００, fullwidth digits',
    acceptedBy: [PY_INT, 'Python str.isdigit() and re \\d'],
  }),
  malformedLimit('arabic-indic', {
    value: [['limit', '١٠٠٠']],
    what: 'limit ١٠٠٠, Arabic-Indic digits',
    acceptedBy: [PY_INT],
  }),
  malformedLimit('trailing-junk', {
    value: [['limit', '1000abc']],
    what: 'limit 1000abc, digits then letters',
    acceptedBy: [PARSE_INT],
  }),
  malformedLimit('infinity', {
    value: [['limit', 'Infinity']],
    what: 'limit Infinity',
    acceptedBy: [NUMBER, 'Python float()', 'Java Double.parseDouble()'],
  }),
  malformedLimit('nan', {
    value: [['limit', 'NaN']],
    what: 'limit NaN (every comparison false: a range check written as rejections lets it by)',
    acceptedBy: [NUMBER, 'Python float()'],
  }),
  malformedLimit('blank', {
    value: [['limit', ' ']],
    what: 'limit " ", one space (0 to Number())',
    acceptedBy: [NUMBER],
  }),
  malformedLimit('repeated', {
    value: [
      ['limit', '1'],
      ['limit', '1000'],
    ],
    what: 'limit twice, 1 then 1000',
    acceptedBy: [LAST_WINS, 'Go url.Values.Get and Flask args.get (the first value wins)'],
  }),
  malformedLimit('bracketed', {
    value: [['limit[]', '1000']],
    what: 'limit[]=1000, the bracket form of an array',
    acceptedBy: [QS_BRACKETS],
  }),
  openLimit('decimal-zero', {
    value: [['limit', '5.0']],
    what: 'limit 5.0 (an integer to JSON Schema)',
    acceptedBy: [AJV, 'DRF IntegerField'],
  }),
  openLimit('plus', {
    value: [['limit', '+5']],
    what: 'limit +5, a sign',
    acceptedBy: [NUMBER, PY_INT, 'Go strconv.Atoi', 'Java Integer.parseInt'],
  }),
  openLimit('leading-zero', {
    value: [['limit', '005']],
    what: 'limit 005, leading zeros',
    acceptedBy: [NUMBER, PY_INT, 'Go strconv.Atoi', 'Java Integer.parseInt'],
  }),
];

/** `status` filter values; the rule: a 4xx Error or a 200 with valid Pets (SHOULD: 400). */
export const STATUS_LENIENCIES: readonly Entry<Query>[] = [
  unknownStatus('upper-case', {
    value: [['status', 'AVAILABLE']],
    what: 'status AVAILABLE, another letter case',
    acceptedBy: [
      '.NET Enum.Parse(ignoreCase) and JsonStringEnumConverter',
      "Spring Boot's LenientStringToEnumConverter",
    ],
  }),
  unknownStatus('padded', {
    value: [['status', ' available']],
    what: 'status " available", a space before it',
    acceptedBy: ["Spring's StringToEnumConverterFactory (trims)", '.NET Enum.Parse'],
  }),
  unknownStatus('ordinal', {
    value: [['status', '0']],
    what: 'status 0, the first value by its position',
    acceptedBy: ['.NET Enum.Parse', JACKSON('enum ordinals (FAIL_ON_NUMBERS_FOR_ENUMS off by default)')],
  }),
  unknownStatus('comma-list', {
    value: [['status', 'available,sold']],
    what: 'status available,sold, two values in one',
    acceptedBy: ['.NET Enum.Parse of a [Flags] enum', 'Spring binding to a List (comma-separated)'],
  }),
];
