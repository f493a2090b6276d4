// The assertions that name whose rule a failure breaks (see CaseCause): the catalogue's side of
// src/checks/assert.ts, whose assertions name no rule.
import { fail, expectBody, expectJsonContentType, expectStatus, expectPet } from '../../src/checks/assert.js';
import { because, Blocked, Violation, type CaseCause } from '../../src/checks/outcomes.js';
import { msg, petsCount, type Message } from '../../src/checks/message.js';
import { exactInteger, show } from '../../src/wire/json.js';
import type { ApiResponse } from '../../src/wire/requests.js';
import type { Pet, Error as ErrorBody } from '../../src/data/generated/schema-types.js';
import type { RequirementId } from '../../src/data/generated/requirement-ids.js';
import { createdRules, listCause } from './blame.js';
import { errorAnswerRoot } from './error-answers.js';

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

/** A valid PetList; one that is not breaks listPets.ok's rule, whichever check listed (see listCause). */
export function expectPetList(res: ApiResponse): Pet[] {
  return because(
    () => listCause(res.json),
    () => expectBody(res, 'PetList') as Pet[],
  );
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
    because(countRules, () =>
      fail(res, msg`at most ${petsCount(max)} (${what})`, msg`${petsCount(pets.length)}`, { maxItems: max }),
    );
  return pets;
}

/**
 * Every error response: application/json Error body, non-empty code, status equal to the HTTP
 * status. Each part is the rule of one of errors.body, errors.content-type and
 * errors.status-field, which judge every error answer of the run: a failure names it (see
 * CaseCause). A body that is not JSON at all is errors.body's finding, whatever its Content-Type
 * says; a status member that is not the HTTP status, integer or not, errors.status-field's.
 */
export function expectErrorBody(res: ApiResponse): ErrorBody {
  try {
    return judgeErrorBody(res);
  } catch (err) {
    // Asked of an error answer only: a replay the server answers otherwise is not judged by it.
    if (err instanceof Violation) for (const e of err.evidence) if (e.expected) e.expected.ifError = true;
    throw err;
  }
}

function judgeErrorBody(res: ApiResponse): ErrorBody {
  const { json, onlyStatus } = errorAnswerRoot(res);
  // The caller's statement says "with an Error body" too: its own violation, grouped under the rule.
  const rule = (id: RequirementId): CaseCause => ({ rules: [id], mine: true });
  because(rule(json ? 'errors.content-type' : 'errors.body'), () => expectJsonContentType(res));
  const body = because(
    rule(onlyStatus ? 'errors.status-field' : 'errors.body'),
    () => expectBody(res, 'Error') as ErrorBody,
  );
  if (body.code.length === 0)
    because(rule('errors.body'), () => fail(res, msg`a non-empty Error code`, msg`code ""`, { errorCode: true }));
  if (body.status !== res.status)
    because(rule('errors.status-field'), () =>
      fail(res, msg`Error.status equal to the HTTP status ${res.status}`, msg`status ${show(body.status)}`, {
        errorStatus: true,
      }),
    );
  return body;
}

/** The status, then the Error body: the shape of every error the interface lists. */
export function expectError(res: ApiResponse, status: number | readonly number[], what?: Message): ErrorBody {
  expectStatus(res, status, what);
  return expectErrorBody(res);
}

/**
 * `count` requests sent at once, each by `send`: a failure among their answers records
 * that count (`atOnce`), so an exported test sends as many copies of the failed request at once (a
 * server failing under load answers each alone well).
 */
export async function sentAtOnce<T>(count: number, send: () => Promise<T>): Promise<T[]> {
  try {
    return await Promise.all(Array.from({ length: count }, send));
  } catch (err) {
    if (err instanceof Violation)
      for (const e of err.evidence) {
        const { expected } = e;
        const { sameAs, notKept, differsFrom, listsIdOf, lacksNameOf } = expected ?? {};
        // Copies of one request: an expectation naming another exchange's body is no longer the same case.
        if (expected && !(sameAs ?? notKept ?? differsFrom ?? listsIdOf ?? lacksNameOf))
          e.expected = { ...expected, atOnce: count };
        else {
          delete e.expected;
          e.notStated = 'answers compared within requests sent at once: copies of one request make no such case';
        }
      }
    throw err;
  }
}
