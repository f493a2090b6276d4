// Every answer a list operation returns is judged on its own, whoever asked for it and whatever pets
// it holds: valid Pets, at most `limit` (20 without one), the status filter obeyed, no id twice. A
// fault that only some lists show (a repeated pet, one item too many for one limit) is then caught
// by the rule it breaks on every seed, not only when a random sequence happens to ask that list.
import { expectErrorBody, expectListOf, expectPetList, listToJudge } from './assert.js';
import { fail, isClientError } from '../../src/checks/assert.js';
import type { Pet } from '../../src/data/generated/schema-types.js';
import type { RequirementId } from '../../src/data/generated/requirement-ids.js';
import { LIMIT } from '../../src/data/generators.js';
import { exactInteger, show } from '../../src/wire/json.js';
import { quoted } from '../../src/wire/redact.js';
import { Violation } from '../../src/checks/outcomes.js';
import { joined, msg, petsCount, words, type Message } from '../../src/checks/message.js';
import { senderOf, type AnswerFrom, type RunObserver } from '../../src/checks/requirement.js';
import { PET_STATUSES } from '../../src/data/schemas.js';
import { urlOf, type ApiResponse } from '../../src/wire/requests.js';

export const LIST_RULES = [
  'listPets.ok',
  'listPets.limit.respected',
  'listPets.limit.default',
  'listPets.status.filter',
  'listPets.distinct-ids',
] as const satisfies readonly RequirementId[];
export type ListRule = (typeof LIST_RULES)[number];

/** A `limit` the interface allows, as a client writes it; others (out of range, malformed) have rules of their own. */
const ALLOWED_LIMIT = /^[1-9]\d{0,2}$/;

/** True when two items of the list share an id: listPets.distinct-ids' to judge, and no proof of anything else. */
export const repeatsAnId = (pets: readonly Pet[]): boolean =>
  new Set(pets.map((p) => exactInteger(p.id) ?? String(p.id))).size !== pets.length;

/**
 * An id at or above 2^53 that a double holds exactly: what ids written through a floating-point
 * number come back as (rounded to the few integers a double holds there), so two pets collide or
 * the one listed is not found.
 */
export function looksRounded(digits: string): boolean {
  if (!/^-?\d+$/.test(digits)) return false;
  const id = BigInt(digits);
  return (id < 0n ? -id : id) >= 2n ** 53n && BigInt(Number(id)) === id;
}

/** Said right after such an id: why it may have collided or gone missing. */
export function roundedIdHint(digits: string): Message {
  return looksRounded(digits) ? msg` (≥ 2^53 and exact in a double: rounded?)` : msg``;
}

/** Throws a Violation when two items of the list share an id: an id identifies one pet. */
export function expectDistinctIds(res: ApiResponse, pets: readonly Pet[]): void {
  const at = new Map<string, number>();
  pets.forEach((pet, i) => {
    const id = exactInteger(pet.id) ?? String(pet.id);
    const first = at.get(id);
    if (first !== undefined)
      fail(
        res,
        msg`no id twice in one list (an id identifies one pet)`,
        msg`id ${quoted(id)}${roundedIdHint(id)} at items ${first + 1} and ${i + 1} of ${pets.length}: ${show(pets[first])} and ${show(pet)}`,
        { distinctIds: true },
      );
    at.set(id, i);
  });
}

/** The statuses where the interface leaves the answer open: any 4xx, or a 200 list. */
export const REJECTED_OR_LISTED = [200, ...Array.from({ length: 100 }, (_, i) => 400 + i)];

/** Where the interface leaves the answer open: a 4xx Error (400 preferred), or a 200 list of at most `max` valid Pets. */
export function expectRejectedOrBounded(res: ApiResponse, max: number, what: Message): void {
  if (isClientError(res)) {
    expectErrorBody(res);
    return;
  }
  if (res.status !== 200)
    fail(
      res,
      msg`a 4xx (400 preferred) with an Error body, or 200 with at most ${petsCount(max)} (${what})`,
      undefined,
      {
        status: REJECTED_OR_LISTED,
      },
    );
  const pets = listToJudge(res);
  // A 4xx is as good an answer to the same request (status and maxItems together say so).
  if (pets.length > max)
    fail(res, msg`at most ${petsCount(max)} (${what})`, msg`${petsCount(pets.length)}`, {
      status: REJECTED_OR_LISTED,
      maxItems: max,
    });
}

/** Throws a Violation when an item's status is not the one the list was filtered by (a value sent: quoted). */
export function expectAllOfStatus(res: ApiResponse, pets: readonly Pet[], status: string): void {
  const other = pets.find((p) => p.status !== status);
  if (other)
    fail(res, msg`only pets with status "${quoted(status)}"`, msg`${show(other)} among ${petsCount(pets.length)}`, {
      itemsWith: { status },
    });
}

/** Each list answer's broken rules, judged once however many list rules observe it. */
const judged = new WeakMap<ApiResponse, Map<ListRule, Violation>>();

/** The rules a 200 answer to GET /pets breaks, each with its violation. */
function judge(res: ApiResponse): Map<ListRule, Violation> {
  const seen = judged.get(res);
  if (seen) return seen;
  const broken = new Map<ListRule, Violation>();
  judged.set(res, broken);
  const at = (rule: ListRule, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      if (!(err instanceof Violation)) throw err;
      broken.set(rule, err);
    }
  };
  let pets: Pet[] | undefined;
  at('listPets.ok', () => (pets = expectPetList(res)));
  if (pets === undefined) return broken;
  const valid = pets;
  const query = urlOf(res.request.url).searchParams;
  const limits = query.getAll('limit');
  const statuses = query.getAll('status');
  const [limit] = limits;
  if (limits.length === 0)
    at('listPets.limit.default', () =>
      expectListOf(res, LIMIT.default, msg`no limit: the default is ${LIMIT.default}`),
    );
  else if (limits.length === 1 && limit !== undefined && ALLOWED_LIMIT.test(limit) && Number(limit) <= LIMIT.max) {
    at('listPets.limit.respected', () => expectListOf(res, Number(limit), msg`limit=${quoted(limit)}`));
  }
  const [status] = statuses;
  if (statuses.length === 1 && status !== undefined && PET_STATUSES.includes(status))
    at('listPets.status.filter', () => expectAllOfStatus(res, valid, status));
  at('listPets.distinct-ids', () => expectDistinctIds(res, valid));
  return broken;
}

interface Finding {
  /** The check that sent the request (see senderOf), and what it asked, for a stable order and the message. */
  sentBy: string;
  /** Its requirement: its own answers are its own cases. */
  sentFor: RequirementId | undefined;
  request: string;
  violation: Violation;
}

const EXAMPLES = 3;
/** Findings kept per rule: enough to order them stably and count them, bounded against a server that spoils every list. */
const KEPT = 50;

/** One list rule over every 200 answer to GET /pets of a run, judged as it arrives; only the failures are kept. */
export class ListAnswers implements RunObserver {
  /** List answers judged. */
  judged = 0;
  private readonly failures: Finding[] = [];

  /** `listPath`: the pathname of GET /pets under the base URL. */
  constructor(
    private readonly rule: ListRule,
    private readonly listPath: string,
  ) {}

  observe(res: ApiResponse, from: AnswerFrom): void {
    // A body cut at the read bound is judged by the check that received it: judging it here too
    // would keep megabytes in flight longer against a server that sends them.
    if (res.request.method !== 'GET' || res.status !== 200 || res.infrastructure !== undefined || res.truncated) return;
    if (from.unscored) return;
    const url = urlOf(res.request.url);
    if (url.pathname !== this.listPath) return;
    this.judged++;
    const violation = judge(res).get(this.rule);
    if (violation && this.failures.length < KEPT)
      this.failures.push({
        sentBy: from.population ? 'the population' : senderOf(from),
        sentFor: from.population ? undefined : from.check?.id,
        request: `${res.request.method} ${url.pathname}${url.search}`,
        violation,
      });
  }

  /**
   * Throws a Violation when a list answer sent by another requirement's check broke the rule (its
   * own checks' answers are their own cases); returns when none did. Examples in a stable order.
   */
  judge(): void {
    const found = this.failures
      .filter((f) => f.sentFor !== this.rule)
      .sort(
        (a, b) =>
          a.sentBy.localeCompare(b.sentBy) ||
          a.request.localeCompare(b.request) ||
          a.violation.message.localeCompare(b.violation.message),
      );
    if (found.length === 0) return;
    const shown = found.slice(0, EXAMPLES);
    const more = found.length > EXAMPLES ? msg`\n- and ${found.length - EXAMPLES} more` : msg``;
    // A sender is a check's name (or the run, the population): the suite's own words.
    const lines = shown.map((f) => msg`- ${f.violation.message} (sent by ${words(f.sentBy)})`);
    throw new Violation(
      msg`${found.length} of the run's ${this.judged} list answers, sent by other checks, break it:\n${joined(lines, msg`\n`)}${more}`,
      shown.flatMap((f) => f.violation.evidence),
      shown.flatMap((f) => f.violation.causes),
    );
  }
}
