// The small vocabulary of assertions checks are written in. Each failure says what was sent,
// what came back and what the interface expects; the exchange carries the reproduction.
import { answeredByFront, GATEWAY_FAILING, TransportError, type ApiResponse } from '../wire/wire.js';
import { exchangeOf } from '../wire/evidence.js';
import { detach, exactInteger, show } from '../wire/json.js';
import { wire, type WireText } from '../wire/redact.js';
import { because, Blocked, Violation, type CaseCause } from './outcomes.js';
import { joined, msg, petsCount, words, type Message } from './message.js';
import { createdRules, isObject, listCause } from './blame.js';
import { validate, type SchemaName } from '../data/schemas.js';
import type { Pet, Error as ErrorBody } from '../data/generated/schema-types.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';

export function describeRequest(res: ApiResponse): WireText {
  const url = new URL(res.request.url);
  return wire(`${res.request.method} ${url.pathname}${url.search}`);
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
  const body = res.text.length ? wire(excerpt(res.text, 160)) : msg`an empty body`;
  // Redirects are not followed: where the server points is part of the finding.
  const location =
    res.status >= 300 && res.status < 400
      ? msg`, redirecting to Location: ${wire(res.headers.location ?? '(none)')} (not followed)`
      : msg``;
  const retried = res.retries ? msg` (answered after ${res.retries} retries of 429/503 with Retry-After)` : msg``;
  return msg`${res.status}${location} with ${body}${retried}`;
}

/**
 * Throws a Violation about this exchange; but an answer the client attributed to infrastructure
 * (a gateway's 502/503/504 that is not JSON) is not the service's: the check could not decide.
 */
export function fail(res: ApiResponse, expected: Message, got = describeResponse(res)): never {
  if (res.infrastructure)
    throw new TransportError(
      answeredByFront(res)
        ? `the gateway in front answered itself (${res.infrastructure}): ${describeRequest(res)} never reached the service`
        : `${GATEWAY_FAILING} (${res.infrastructure}): ${describeRequest(res)} got no answer from the service`,
      res.request,
    );
  // What the network said of the first send: a quote, as in any TransportError's message.
  const resent = res.resent ? msg` (${wire(res.resent)})` : msg``;
  throw new Violation(msg`${describeRequest(res)}: expected ${expected}; got ${got}${resent}`, [exchangeOf(res)]);
}

export function expectStatus(res: ApiResponse, expected: number | readonly number[], what?: Message): void {
  const list = typeof expected === 'number' ? [expected] : expected;
  if (!list.includes(res.status)) fail(res, msg`${joined(list, msg` or `)}${what ? msg` (${what})` : msg``}`);
}

/** A 4xx: how a server may refuse input where the interface leaves the answer open. */
export const isClientError = (res: ApiResponse): boolean => res.status >= 400 && res.status < 500;

export function expectNotServerError(res: ApiResponse): void {
  if (res.status >= 500) fail(res, msg`no 5xx: the server must answer malformed input without failing`);
}

export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}

export function expectJsonContentType(res: ApiResponse): void {
  if (!isJsonMediaType(res.headers['content-type'])) {
    fail(res, msg`Content-Type application/json`, msg`Content-Type ${wire(res.headers['content-type'] ?? '(none)')}`);
  }
}

/**
 * A response header that must be present and satisfy `accept`; returns its value.
 * `expected` says in plain words what the value should be, for the failure message.
 */
export function expectHeader(
  res: ApiResponse,
  name: Message,
  expected: Message,
  accept: (value: string) => boolean = () => true,
): string {
  const value = res.headers[name.toLowerCase()];
  if (value === undefined) fail(res, msg`a ${name} header: ${expected}`, msg`${res.status} without ${name}`);
  if (!accept(value)) fail(res, msg`${name}: ${expected}`, msg`${res.status} with ${name}: ${wire(value)}`);
  return value;
}

/** A response header that must be absent. */
export function expectNoHeader(res: ApiResponse, name: Message, why: Message): void {
  const value = res.headers[name.toLowerCase()];
  if (value !== undefined) fail(res, msg`no ${name} header (${why})`, msg`${res.status} with ${name}: ${wire(value)}`);
}

/** Parses and schema-checks the JSON body. */
export function expectBody(res: ApiResponse, schema: SchemaName | 'PetList'): unknown {
  // A list that is no valid PetList breaks listPets.ok's rule, whichever check listed (see listCause).
  const list = (): CaseCause | undefined => (schema === 'PetList' ? { rules: ['listPets.ok'] } : undefined);
  const name = words(schema); // a schema's name: the suite's own (schemas/)
  if (res.truncated)
    failAs(list(), res, msg`a ${name} body`, msg`a body larger than the suite reads (${res.text.length} bytes read)`);
  if (res.jsonError !== undefined)
    failAs(
      list(),
      res,
      msg`a JSON ${name} body`,
      msg`a body that is not JSON (${wire(res.jsonError)}): ${wire(excerpt(res.text, 120))}`,
    );
  const result = validate(schema, res.json);
  if (!result.valid)
    failAs(
      schema === 'PetList' ? listCause(res.json) : undefined,
      res,
      msg`a valid ${name}`,
      // The validator's words point into the answer (its paths): a quote of it.
      msg`${show(res.json, 200)}, where ${wire(result.problems.join('; '))}`,
    );
  return res.json;
}

/** fail(), the case naming whose rule it breaks (undefined: the check's own). */
function failAs(cause: CaseCause | undefined, res: ApiResponse, expected: Message, got?: Message): never {
  return cause ? because(cause, () => fail(res, expected, got)) : fail(res, expected, got);
}

/** The answer to a valid createPet: 201 and a valid Pet; a failure names the rule it breaks (createdRules). */
export function expectCreated(res: ApiResponse, sent: { status?: unknown }, what = msg`a valid NewPet`): Pet {
  return because(createdRules(res, sent), () => {
    expectStatus(res, 201, what);
    return expectPet(res);
  });
}

/**
 * The id a create was answered with, for a rule about ids alone: a 201 with an integer id, whatever
 * its other fields (those are other rules', judged there); anything else is expectCreated's finding.
 */
export function expectCreatedId(res: ApiResponse, sent: { status?: unknown }, what?: Message): string {
  const id = res.status === 201 ? exactInteger((res.json as { id?: unknown } | null)?.id) : undefined;
  // Else expectCreated fails: a 201 that is a valid Pet has an integer id.
  return id ?? (exactInteger(expectCreated(res, sent, what).id) as string);
}

export function expectPet(res: ApiResponse): Pet {
  return expectBody(res, 'Pet') as Pet;
}

export function expectPetList(res: ApiResponse): Pet[] {
  return expectBody(res, 'PetList') as Pet[];
}

/**
 * The Pets of a 200 list, for a rule about the list's length, filter or contents: a list that is
 * no valid PetList is listPets.ok's finding (judged on every list answer), and leaves nothing to
 * judge here (Blocked).
 */
export function listToJudge(res: ApiResponse): Pet[] {
  try {
    return expectPetList(res);
  } catch (err) {
    if (err instanceof Violation) throw new Blocked('listPets.ok', msg`the list is no valid PetList (${err.message})`);
    throw err;
  }
}

/** A 200 with a valid list of at most `max` Pets; `countRules`: whose rule too many breaks, when not the check's own (see CaseCause). */
export function expectListOf(
  res: ApiResponse,
  max: number,
  what: Message,
  countRules: readonly RequirementId[] = [],
): Pet[] {
  expectStatus(res, 200, what);
  const pets = listToJudge(res);
  if (pets.length > max)
    because(countRules, () => fail(res, msg`at most ${petsCount(max)} (${what})`, msg`${petsCount(pets.length)}`));
  return pets;
}

/**
 * What an error answer is at its root, which decides the Error rule its faults are named under:
 * JSON at all (else errors.body's finding, whatever its Content-Type), and an Error but for its
 * status member (then errors.status-field's). Here and in src/checks/error-answers.ts.
 */
export function errorAnswerRoot(res: ApiResponse): { json: boolean; onlyStatus: boolean } {
  const json = res.jsonError === undefined && !res.truncated;
  return {
    json,
    onlyStatus: json && isObject(res.json) && validate('Error', { ...res.json, status: res.status }).valid,
  };
}

/**
 * Every error response: application/json Error body, non-empty code, status equal to the HTTP
 * status. Each part is the rule of one of errors.body, errors.content-type and
 * errors.status-field, which judge every error answer of the run: a failure names it (see
 * CaseCause). A body that is not JSON at all is errors.body's finding, whatever its Content-Type
 * says; a status member that is not the HTTP status, integer or not, errors.status-field's.
 */
export function expectErrorBody(res: ApiResponse): ErrorBody {
  const { json, onlyStatus } = errorAnswerRoot(res);
  // The caller's statement says "with an Error body" too: its own violation, grouped under the rule.
  const rule = (id: RequirementId): CaseCause => ({ rules: [id], mine: true });
  because(rule(json ? 'errors.content-type' : 'errors.body'), () => expectJsonContentType(res));
  const body = because(
    rule(onlyStatus ? 'errors.status-field' : 'errors.body'),
    () => expectBody(res, 'Error') as ErrorBody,
  );
  if (body.code.length === 0) because(rule('errors.body'), () => fail(res, msg`a non-empty Error code`, msg`code ""`));
  if (body.status !== res.status)
    because(rule('errors.status-field'), () =>
      fail(res, msg`Error.status equal to the HTTP status ${res.status}`, msg`status ${show(body.status)}`),
    );
  return body;
}

/** The status, then the Error body: the shape of every error the interface lists. */
export function expectError(res: ApiResponse, status: number | readonly number[], what?: Message): ErrorBody {
  expectStatus(res, status, what);
  return expectErrorBody(res);
}
