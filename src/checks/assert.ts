// The small vocabulary of assertions checks are written in. Each failure says what was sent,
// what came back and what the interface expects; the exchange carries the reproduction.
import { answeredByFront, GATEWAY_FAILING, TransportError, urlOf, type ApiResponse } from '../wire/requests.js';
import { exchangeOf, type Expectation, type HeaderTest, type NotStated } from '../wire/evidence.js';

export type { Expectation, NotStated } from '../wire/evidence.js';
import { detach, show } from '../wire/json.js';
import { quoted, type QuotedText } from '../wire/redact.js';
import { Violation } from './outcomes.js';
import { joined, msg, words, type Message } from './message.js';
import { validate, type SchemaName } from '../data/schemas.js';
import { jsonShape } from '../data/json-shape.js';
import type { Pet } from '../data/generated/schema-types.js';

export function describeRequest(res: ApiResponse): QuotedText {
  const url = urlOf(res.request.url);
  return quoted(`${res.request.method} ${url.pathname}${url.search}`);
}

/** A body as received, on one line and cut short (not re-encoded: JSON reads as JSON). */
function excerpt(text: string, max: number): string {
  // Cut before normalising: a body can be megabytes long.
  const line = detach(text.slice(0, max + 1))
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${line.slice(0, max)}… (${text.length} chars)` : line;
}

function describeResponse(res: ApiResponse): Message {
  const body = res.text.length ? quoted(excerpt(res.text, 160)) : msg`an empty body`;
  // Redirects are not followed: where the server points is part of the finding.
  const location =
    res.status >= 300 && res.status < 400
      ? msg`, redirecting to Location: ${quoted(res.headers.location ?? '(none)')} (not followed)`
      : msg``;
  const retried = res.retries ? msg` (answered after ${res.retries} retries of 429/503 with Retry-After)` : msg``;
  return msg`${res.status}${location} with ${body}${retried}`;
}

/**
 * Throws a Violation about this exchange; but an answer the client attributed to infrastructure
 * (a gateway's 502/503/504 that is not JSON) is not the service's: the check could not decide.
 * `expectation`: what was expected as data, for a test exported from the report (or why none can
 * be); `earlier`: the answer whose exchange it compares this one with (a create before its
 * read-back), recorded first.
 */
export function fail(
  res: ApiResponse,
  expected: Message,
  got = describeResponse(res),
  expectation?: Expectation | NotStated,
  earlier?: ApiResponse,
): never {
  if (res.infrastructure)
    throw new TransportError(
      answeredByFront(res)
        ? `the gateway in front answered itself (${res.infrastructure}): ${describeRequest(res)} never reached the service`
        : `${GATEWAY_FAILING} (${res.infrastructure}): ${describeRequest(res)} got no answer from the service`,
      res.request,
    );
  // What the network said of the first send: a quote, as in any TransportError's message.
  const resent = res.resent ? msg` (${quoted(res.resent)})` : msg``;
  throw new Violation(msg`${describeRequest(res)}: expected ${expected}; got ${got}${resent}`, [
    ...(earlier ? [exchangeOf(earlier)] : []),
    exchangeOf(res, expectation),
  ]);
}

export function expectStatus(res: ApiResponse, expected: number | readonly number[], what?: Message): void {
  const list = typeof expected === 'number' ? [expected] : expected;
  if (!list.includes(res.status))
    fail(res, msg`${joined(list, msg` or `)}${what ? msg` (${what})` : msg``}`, undefined, { status: [...list] });
}

/** A 4xx: how a server may refuse input where the interface leaves the answer open. */
export const isClientError = (res: ApiResponse): boolean => res.status >= 400 && res.status < 500;

export function expectNotServerError(res: ApiResponse): void {
  if (res.status >= 500)
    fail(res, msg`no 5xx: the server must answer malformed input without failing`, undefined, { statusBelow: 500 });
}

export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}

export function expectJsonContentType(res: ApiResponse): void {
  if (!isJsonMediaType(res.headers['content-type'])) {
    fail(
      res,
      msg`Content-Type application/json`,
      msg`Content-Type ${quoted(res.headers['content-type'] ?? '(none)')}`,
      {
        contentType: 'application/json',
      },
    );
  }
}

/**
 * A response header that must be present and satisfy `accept`; returns its value.
 * `expected` says in plain words what the value should be, for the failure message; `form`, a
 * pattern every accepted value matches, is what an exported test asserts of a value that fails it;
 * `parsed`, what a value of the form must be once parsed as `accept` parses it (a test embeds the
 * parser), or why a test asserts nothing of one of the form.
 */
export function expectHeader(
  res: ApiResponse,
  name: Message,
  expected: Message,
  accept: (value: string) => boolean = () => true,
  form?: RegExp,
  parsed?: HeaderTest | string,
): string {
  const value = res.headers[name.toLowerCase()];
  if (value === undefined)
    fail(res, msg`a ${name} header: ${expected}`, msg`${res.status} without ${name}`, {
      headers: { [name.toLowerCase()]: true },
    });
  if (!accept(value)) {
    const unlike =
      form && !form.test(value.trim()) ? { headerMatches: { [name.toLowerCase()]: form.source } } : undefined;
    const why =
      typeof parsed === 'string' ? { notStated: parsed } : parsed && { headerParsed: { [name.toLowerCase()]: parsed } };
    fail(res, msg`${name}: ${expected}`, msg`${res.status} with ${name}: ${quoted(value)}`, unlike ?? why);
  }
  return value;
}

/** A response header that must be absent. */
export function expectNoHeader(res: ApiResponse, name: Message, why: Message): void {
  const value = res.headers[name.toLowerCase()];
  if (value !== undefined)
    fail(res, msg`no ${name} header (${why})`, msg`${res.status} with ${name}: ${quoted(value)}`, {
      headers: { [name.toLowerCase()]: false },
    });
}

/** Parses and schema-checks the JSON body; a failure is the check's own rule's (tests/rules/ name others'). */
export function expectBody(res: ApiResponse, schema: SchemaName | 'PetList'): unknown {
  const name = words(schema); // a schema's name: the suite's own (schemas/)
  // A body cut at the suite's limit is not judged by its shape: an exported test would read it whole.
  if (res.truncated)
    fail(res, msg`a ${name} body`, msg`a body larger than the suite reads (${res.text.length} bytes read)`);
  const shaped = { body: jsonShape(schema) };
  if (res.jsonError !== undefined)
    fail(
      res,
      msg`a JSON ${name} body`,
      msg`a body that is not JSON (${quoted(res.jsonError)}): ${quoted(excerpt(res.text, 120))}`,
      shaped,
    );
  const result = validate(schema, res.json);
  // The validator's words point into the answer (its paths): a quote of it. An exported test checks the shape
  // only, which says nothing of a format (int64 digits beyond 2^53 need more than JSON.parse): none then.
  const formatOnly = result.problems.every((p) => p.includes(' must match format '));
  if (!result.valid)
    fail(
      res,
      msg`a valid ${name}`,
      msg`${show(res.json, 200)}, where ${quoted(result.problems.join('; '))}`,
      formatOnly ? undefined : shaped,
    );
  return res.json;
}

export function expectPet(res: ApiResponse): Pet {
  return expectBody(res, 'Pet') as Pet;
}
