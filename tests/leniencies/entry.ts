// What mainstream parsers, coercers and validators forgive that the interface does not: one table
// per input channel, each value with who accepts it, the requirement that judges the answer and
// its level. Every entry is sent on every run, whatever the seed, with the rest of the request
// valid, so that a server that forgives the value shows it (a limit read as more than 100 where
// the store holds more; a body carrying every required field). Randomness explores beyond it.
//
// Levels (principle 2: a false alarm is as bad as a miss):
// - MUST: the requirement's statement is false on an answer that forgives the value;
// - SHOULD: the interface's reading is clear, but a standard or sound practice leaves room: the
//   MUST rule it is sent under holds for every choice, and a SHOULD rule asks for the 400;
// - allowed: a reading the interface or its standards leave open (a sign or a leading zero on an
//   integer, `1.0` for an integer, a byte order mark, a repeated key): sent, and judged only by
//   what holds for every choice (an Error body on a 4xx, never a 5xx).
import type { CatalogueInput } from '../../src/checks/requirement.js';

/** A value sent on one channel, with what the request around it needs. */
export interface Entry<V> extends CatalogueInput {
  value: V;
}

export type Fields = { name: string; categoryId: bigint; status: string };

export const entry = <V>(
  operation: CatalogueInput['operation'],
  channel: string,
  slug: string,
  rest: Omit<Entry<V>, 'id' | 'operation' | 'channel'>,
): Entry<V> => ({ id: `${operation}.${channel}.${slug}`, operation, channel, ...rest });

/**
 * The entries of one channel judged by one requirement at one level (each table's groups): an
 * entry then gives its slug, value, what and sources.
 */
export const judged =
  <V>(
    operation: CatalogueInput['operation'],
    channel: string,
    requirement: CatalogueInput['requirement'],
    level: CatalogueInput['level'],
  ) =>
  (slug: string, rest: Pick<Entry<V>, 'value' | 'what' | 'acceptedBy'>): Entry<V> =>
    entry(operation, channel, slug, { ...rest, requirement, level });

// Sources, named once.
export const NUMBER = 'JavaScript Number() (and so zod z.coerce.number(), class-transformer enableImplicitConversion)';
export const PARSE_INT = 'JavaScript parseInt(), PHP (int) cast and intval(), Ruby String#to_i';
export const AJV = "Ajv coerceTypes (Fastify's default for query and path parameters: a string s with s == +s)";
export const PY_INT = 'Python int() (and so pydantic lax mode, Django forms and DRF IntegerField)';
export const RUBY_INTEGER = 'Ruby Integer()';
export const LAST_WINS = 'PHP $_GET and Django QueryDict (the last value wins), Express qs (an array)';
export const QS_BRACKETS = 'Express qs and PHP (limit[]=… is the array limit)';
export const JACKSON = (feature: string) => `Jackson ${feature}`;
export const JSON5 = 'JSON5 parsers';
export const DOTNET = (option: string) => `.NET System.Text.Json ${option}`;
export const RUBY_JSON = 'Ruby JSON.parse';
export const PY_JSON = 'Python json module defaults';
export const GO_DECODER = 'Go encoding/json Decoder.Decode (reads the first value, leaves the rest)';
