// The path channel of getPet: petId.
import { AJV, judged, NUMBER, PARSE_INT, PY_INT, RUBY_INTEGER, type Entry } from './entry.js';

type Segment = (id: string) => string;
const malformedId = judged<Segment>('getPet', 'petId', 'getPet.malformed-id', 'MUST');
const openId = judged<Segment>('getPet', 'petId', 'getPet.malformed-id', 'allowed');

/** petId segments made from an existing pet's id N; the rule: 400 or 404 with an Error body. */
export const PET_ID_LENIENCIES: readonly Entry<Segment>[] = [
  malformedId('trailing-junk', {
    value: (id) => `${id}abc`,
    what: 'the id with letters after it',
    acceptedBy: [PARSE_INT],
  }),
  malformedId('hex', {
    value: (id) => `0x${BigInt(id).toString(16)}`,
    what: 'the id in hexadecimal',
    acceptedBy: [NUMBER, AJV, 'Python int(s, 0)'],
  }),
  malformedId('fraction', {
    value: (id) => `${id}.7`,
    what: 'the id with a fraction',
    acceptedBy: [PARSE_INT, 'Python int(float(s))'],
  }),
  malformedId('underscore', {
    value: (id) => (id.length > 1 ? `${id.slice(0, 1)}_${id.slice(1)}` : `0_${id}`),
    what: 'the id with an underscore between its digits',
    acceptedBy: [PY_INT, RUBY_INTEGER],
  }),
  malformedId('fullwidth', {
    value: (id) => [...id].map((c) => (/\d/.test(c) ? String.fromCodePoint(0xff10 + Number(c)) : c)).join(''),
    what: 'the id in fullwidth digits',
    acceptedBy: [PY_INT],
  }),
  openId('plus', {
    value: (id) => `+${id}`,
    what: 'the id with a sign',
    acceptedBy: [NUMBER, PY_INT, 'Go strconv.ParseInt', 'Java Long.parseLong'],
  }),
  openId('leading-zero', {
    value: (id) => `0${id}`,
    what: 'the id with a leading zero',
    acceptedBy: [NUMBER, PY_INT, 'Go strconv.ParseInt', 'Java Long.parseLong'],
  }),
  openId('decimal-zero', {
    value: (id) => `${id}.0`,
    what: 'the id with .0 (an integer to JSON Schema)',
    acceptedBy: [AJV, 'DRF IntegerField'],
  }),
];
