// The small vocabulary of assertions checks are written in. Each failure says what was sent,
// what came back and what the interface expects; the exchange carries the reproduction.
import { GATEWAY_FAILING, TransportError, type ApiResponse } from './wire.js';
import { exchangeOf } from './evidence.js';
import { detach, show } from './json.js';
import { wire } from './redact.js';
import { Violation } from './outcomes.js';
import { validate, type SchemaName } from './schemas.js';
import type { Pet, Error as ErrorBody } from './generated/schema-types.js';

export function describeRequest(res: ApiResponse): string {
  const url = new URL(res.request.url);
  return wire(`${res.request.method} ${url.pathname}${url.search}`);
}

/** A body as received, on one line and cut short (not re-encoded: JSON reads as JSON). */
function excerpt(text: string, max: number): string {
  // Cut before normalising: a body can be megabytes long.
  const line = detach(text.slice(0, max + 1)).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${line.slice(0, max)}… (${text.length} chars)` : line;
}

function describeResponse(res: ApiResponse): string {
  const body = res.text.length ? wire(excerpt(res.text, 160)) : 'an empty body';
  // Redirects are not followed: where the server points is part of the finding.
  const location = res.status >= 300 && res.status < 400 ? `, redirecting to Location: ${wire(res.headers.location ?? '(none)')} (not followed)` : '';
  const retried = res.retries ? ` (answered after ${res.retries} retries of 429/503 with Retry-After)` : '';
  return `${res.status}${location} with ${body}${retried}`;
}

/**
 * Throws a Violation about this exchange; but an answer the client attributed to infrastructure
 * (a gateway's 502/503/504 that is not JSON) is not the service's: the check could not decide.
 */
export function fail(res: ApiResponse, expected: string, got = describeResponse(res)): never {
  if (res.infrastructure) throw new TransportError(`${GATEWAY_FAILING} (${res.infrastructure}): ${describeRequest(res)} got no answer from the service`, res.request);
  const resent = res.resent ? ` (${res.resent})` : '';
  throw new Violation(`${describeRequest(res)}: expected ${expected}; got ${got}${resent}`, [exchangeOf(res)]);
}

export function expectStatus(res: ApiResponse, expected: number | readonly number[], what = ''): void {
  const list = typeof expected === 'number' ? [expected] : expected;
  if (!list.includes(res.status)) fail(res, `${list.join(' or ')}${what ? ` (${what})` : ''}`);
}

/** A 4xx: how a server may refuse input where the interface leaves the answer open. */
export const isClientError = (res: ApiResponse): boolean => res.status >= 400 && res.status < 500;

export function expectNotServerError(res: ApiResponse): void {
  if (res.status >= 500) fail(res, 'no 5xx: the server must answer malformed input without failing');
}

export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}

export function expectJsonContentType(res: ApiResponse): void {
  if (!isJsonMediaType(res.headers['content-type'])) {
    fail(res, 'Content-Type application/json', `Content-Type ${wire(res.headers['content-type'] ?? '(none)')}`);
  }
}

/**
 * A response header that must be present and satisfy `accept`; returns its value.
 * `expected` says in plain words what the value should be, for the failure message.
 */
export function expectHeader(res: ApiResponse, name: string, expected: string, accept: (value: string) => boolean = () => true): string {
  const value = res.headers[name.toLowerCase()];
  if (value === undefined) fail(res, `a ${name} header: ${expected}`, `${res.status} without ${name}`);
  if (!accept(value)) fail(res, `${name}: ${expected}`, `${res.status} with ${name}: ${wire(value)}`);
  return value;
}

/** A response header that must be absent. */
export function expectNoHeader(res: ApiResponse, name: string, why: string): void {
  const value = res.headers[name.toLowerCase()];
  if (value !== undefined) fail(res, `no ${name} header (${why})`, `${res.status} with ${name}: ${wire(value)}`);
}

/** Parses and schema-checks the JSON body. */
export function expectBody(res: ApiResponse, schema: SchemaName | 'PetList'): unknown {
  if (res.truncated) fail(res, `a ${schema} body`, `a body larger than the suite reads (${res.text.length} bytes read)`);
  if (res.jsonError !== undefined) fail(res, `a JSON ${schema} body`, `a body that is not JSON (${wire(res.jsonError)}): ${wire(excerpt(res.text, 120))}`);
  const result = validate(schema, res.json);
  if (!result.valid) fail(res, `a valid ${schema}`, `${show(res.json, 200)}, where ${result.problems.join('; ')}`);
  return res.json;
}

export function expectPet(res: ApiResponse): Pet {
  return expectBody(res, 'Pet') as Pet;
}

export function expectPetList(res: ApiResponse): Pet[] {
  return expectBody(res, 'PetList') as Pet[];
}

/** A 200 with a valid list of at most `max` Pets. */
export function expectListOf(res: ApiResponse, max: number, what: string): Pet[] {
  expectStatus(res, 200, what);
  const pets = expectPetList(res);
  if (pets.length > max) fail(res, `at most ${max} Pets (${what})`, `${pets.length} Pets`);
  return pets;
}

/** Every error response: application/json Error body, non-empty code, status equal to the HTTP status. */
export function expectErrorBody(res: ApiResponse): ErrorBody {
  expectJsonContentType(res);
  const body = expectBody(res, 'Error') as ErrorBody;
  if (body.code.length === 0) fail(res, 'a non-empty Error code', `code ""`);
  if (body.status !== res.status) fail(res, `Error.status equal to the HTTP status ${res.status}`, `status ${show(body.status)}`);
  return body;
}

/** The status, then the Error body: the shape of every error the interface lists. */
export function expectError(res: ApiResponse, status: number | readonly number[], what = ''): ErrorBody {
  expectStatus(res, status, what);
  return expectErrorBody(res);
}
