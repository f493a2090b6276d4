// What a failure shows: the exchange that revealed it and a one-line reproduction.
import { brotliCompressSync, constants } from 'node:zlib';
import type { ApiResponse, SentRequest } from './requests.js';
import { detach } from './json.js';
import { PLACEHOLDER, PREFIX_PLACEHOLDER, redact } from './redact.js';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** Double quotes so the shell expands $PETSTORE_API_KEY and ${PETSTORE_API_KEY%?}; everything else stays literal. */
const shellQuoteKey = (s: string) =>
  `"${s.replace(/(["\\`])/g, '\\$1').replace(/\$(?!PETSTORE_API_KEY\b|\{PETSTORE_API_KEY%\?\})/g, '\\$')}"`;
const holdsPlaceholder = (s: string) => s.includes(PLACEHOLDER) || s.includes(PREFIX_PLACEHOLDER);

/** A copy-pastable curl command; the key appears only as $PETSTORE_API_KEY. */
export function curlCommand(req: SentRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, shellQuote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    // Accept is curl's own; a replay is no span of the run's trace.
    if (name === 'accept' || name === 'traceparent') continue;
    const header = `${name}: ${value}`;
    parts.push('-H', holdsPlaceholder(header) ? shellQuoteKey(header) : shellQuote(header));
  }
  if (req.body !== undefined) {
    // curl would add a form Content-Type of its own; "Content-Type:" tells it to send none.
    if (!('content-type' in req.headers)) parts.push('-H', shellQuote('Content-Type:'));
    parts.push('--data-binary', shellQuote(req.body));
  }
  return parts.join(' ');
}

/** What a test with no validator checks of a schema: as the report's #/$defs/jsonShape (src/data/json-shape.ts derives it). */
export interface JsonShape {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';
  required?: string[];
  properties?: Record<string, JsonShape>;
  items?: JsonShape;
  enum?: string[];
}

/** What the assertion that failed expected of the answer, as data: what an exported test asserts (`export`). */
export interface Expectation {
  /** The statuses it allowed. */
  status?: number[];
  /** A status below this one (500: no server error). */
  statusBelow?: number;
  /** Fields of the JSON body, each equal to this value (the fields the rule is about, as sent). */
  fields?: Record<string, string | number | boolean | null>;
  /** Content-Type application/json (parameters allowed). */
  contentType?: 'application/json';
  /** A JSON body of this shape: the schema's types, required members and enums (src/data/json-shape.ts). */
  body?: JsonShape;
  /** An Error body whose code is a non-empty string. */
  errorCode?: true;
  /** An Error body whose status member is the HTTP status. */
  errorStatus?: true;
  /** Of a 2xx answer: a JSON array of at most this many items. */
  maxItems?: number;
  /** Of a 2xx answer: a JSON array whose every item has these fields equal to these values (a filter sent). */
  itemsWith?: Record<string, string>;
  /** Of a 2xx answer: no id written twice in the body (compared as digits: ids beyond 2^53 too). */
  distinctIds?: true;
  /** Response headers by lower-case name: present (true) or absent (false). */
  headers?: Record<string, boolean>;
  /** Response headers by lower-case name, each present with a value (trimmed) matching this regular expression. */
  headerMatches?: Record<string, string>;
  /** Judged only when the answer is an error (4xx or 5xx): the rule is about every error answer. */
  ifError?: true;
  /**
   * Of a 2xx answer: members of the JSON body equal to the same member of an earlier JSON body of the
   * finding, compared as written: an integer digit for digit (whatever its spelling), a string code point for code point.
   */
  sameAs?: Record<string, BodyMember>;
  /**
   * Of a 2xx answer: members of the JSON body in none of the forms a number type keeps the integer
   * there (as it is, rounded to a double, cut to 53 or 32 bits, as a signed 32-bit integer, in a string).
   */
  notKept?: Record<string, BodyMember>;
  /** Of a 2xx answer: members of the JSON body unequal to the same member of that body, compared as sameAs compares. */
  differsFrom?: Record<string, BodyMember>;
  /** Of a 2xx answer that is provably complete (fewer items than the query's limit, no id twice): an item with the id of that body. */
  listsIdOf?: BodyMember;
  /** Of a 2xx answer that is a complete list: no item named as that body is (a rejected body's pet). */
  lacksNameOf?: BodyMember;
  /** The run's tag in the names it sent, which an exported test writes afresh in its bodies (a store keeps earlier runs' pets). */
  renamed?: string;
  /**
   * Of a 2xx answer: a JSON array of exactly this many items (of the status filtered by, if any); the
   * check knew the store held as many pets the query selects (an exported test creates those a list does not show).
   */
  exactItems?: number;
  /** Response headers by lower-case name, each judged by one of the suite's parsers, whose code an exported test embeds (see the schema's headerTest). */
  headerParsed?: Record<string, HeaderTest>;
  /** Sent with others at once, this many in all: a test sends as many copies of it at once and asserts each answer. */
  atOnce?: number;
}

/** What a header's value must be once parsed as the check parses it: the report's #/$defs/headerTest. */
export type HeaderTest =
  /** The first challenge of this scheme (lower-case): its parameter equal to this value, or absent (null). */
  | { challenge: string; param: string; equals: string | null }
  /** A date of this form in [from, before) (ISO 8601), not before another header's date when that one parses. */
  | { date: DateForm; from?: string; before?: string; notBefore?: { header: string; date: DateForm } }
  /** A link whose target, resolved against the request's URL, is this path under the base URL's path. */
  | { linksTo: string };

type DateForm = 'imf-fixdate' | 'sf-date';

/** A JSON body of the finding: of the exchange `back` exchanges before this one (0: this one), what was sent or answered. */
export interface BodyMember {
  back: number;
  of: 'request' | 'response';
}

/** A request as evidence holds it: a body cut there may be held whole, compressed (see requestOnly). */
export interface RecordedRequest extends SentRequest {
  /** The whole body, redacted, as UTF-8 compressed with Brotli, in base64. */
  bodyBrotli?: string;
}

/** Why an assertion records no Expectation: what a test sending the requests again one after another could not state soundly. */
export interface NotStated {
  notStated: string;
}

export interface Exchange {
  request: RecordedRequest;
  response?: { status: number; headers: Record<string, string>; body: string };
  reproduce: string;
  /** With --har: the index in the HAR's log.entries of the send this exchange shows. */
  harEntry?: number;
  expected?: Expectation;
  notStated?: string;
}

const MAX_BODY_IN_EVIDENCE = 2000;

const redactHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redact(v)]));

const redactExpectation = ({ fields, ...rest }: Expectation): Expectation => ({
  ...rest,
  ...(fields
    ? { fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v])) }
    : {}),
});

export function exchangeOf(res: ApiResponse, expected?: Expectation | NotStated): Exchange {
  const text =
    res.text.length > MAX_BODY_IN_EVIDENCE
      ? `${detach(res.text.slice(0, MAX_BODY_IN_EVIDENCE))}… (${res.text.length} chars)`
      : res.text;
  const exchange = requestOnly(res.request, {
    status: res.status,
    headers: redactHeaders(res.headers),
    body: redact(text),
  });
  if (expected && 'notStated' in expected) return { ...exchange, ...expected };
  return expected ? { ...exchange, expected: redactExpectation(expected) } : exchange;
}

/** The bearer header as the client writes it for the key: final, never redacted again (a key "a" would garble "Bearer"). */
const KEY_HEADER = `Bearer ${PLACEHOLDER}`;

/** Everything of a request that reaches the wire is redacted (again: the client did), URL, header values, body. */
function redactRequest(req: SentRequest): SentRequest {
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, v === KEY_HEADER ? v : redact(v)]),
  );
  return { ...req, url: redact(req.url), headers, ...(req.body === undefined ? {} : { body: redact(req.body) }) };
}

export function requestOnly(sent: SentRequest, response?: Exchange['response']): Exchange {
  const { harEntry, ...wire } = sent;
  const body = wire.body;
  const large = body !== undefined && body.length > MAX_REQUEST_BODY;
  const request = redactRequest(large ? { ...wire, body: `${body.slice(0, 200)}… (${body.length} chars)` } : wire);
  const whole = large ? packed(body) : undefined;
  return {
    request: whole === undefined ? request : { ...request, bodyBrotli: whole },
    ...(response ? { response } : {}),
    reproduce: large ? largeBodyCurl(request, body) : curlCommand(request),
    ...(harEntry === undefined ? {} : { harEntry }),
  };
}

/** Request bodies longer than this are cut in the evidence: a several-MiB body must never reach the reports. */
const MAX_REQUEST_BODY = 4096;

/** Compressed in base64, a body cut in the evidence is kept whole up to this length (a large body of repeated characters). */
const MAX_PACKED_BODY = 4096;
/** Bodies from which compressing is not tried: too slow to be worth it for the few KiB kept. */
const MAX_PACKED_FROM = 64 * 1024 * 1024;

/** A cut body whole, redacted first (the key never reaches a report, in no encoding), when it compresses to a few KiB. */
function packed(body: string): string | undefined {
  if (body.length > MAX_PACKED_FROM) return undefined;
  // A middling quality: as small as the best for runs of one character, in milliseconds for 5 MiB.
  const brotli = brotliCompressSync(Buffer.from(redact(body), 'utf8'), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
  });
  const text = brotli.toString('base64');
  return text.length <= MAX_PACKED_BODY ? text : undefined;
}

/** Characters of padding compared at once (see largeBodyCurl). */
const PAD_RUN = 4096;

/**
 * The curl line for a cut body: a body ending in one repeated character (how the suite builds its
 * large bodies) is regenerated by the shell; any other is named, not reproduced.
 */
function largeBodyCurl(request: SentRequest, body: string): string {
  let start = body.length - 1;
  const pad = body[start] ?? ' ';
  // Back a run at a time, then a character at a time: a 5 MiB body is not walked in JavaScript.
  const run = pad.repeat(PAD_RUN);
  while (start >= PAD_RUN && body.startsWith(run, start - PAD_RUN)) start -= PAD_RUN;
  while (start > 0 && body[start - 1] === pad) start--;
  const head = redact(body.slice(0, start));
  const { body: _cut, ...bodiless } = request;
  return head.length <= MAX_REQUEST_BODY && pad.charCodeAt(0) < 0x80
    ? `${curlCommand(bodiless)} --data-binary @<(printf '%s' ${shellQuote(head)}; head -c ${body.length - start} /dev/zero | tr '\\0' ${shellQuote(pad)})`
    : `${curlCommand(bodiless)} --data-binary @body  # the ${body.length}-character body is not reproduced here`;
}
