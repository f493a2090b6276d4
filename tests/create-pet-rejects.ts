// The bodies "Endpoints › Add an animal" says are answered 400, one table per requirement, and the
// check each of those requirements runs: 400 with an Error body, and nothing created.
import { createHash } from 'node:crypto';
import { describeRequest, type Expectation, type NotStated } from '../src/checks/assert.js';
import { expectError } from './rules/assert.js';
import type { ApiRequest, ApiResponse } from '../src/wire/requests.js';
import { exchangeOf } from '../src/wire/evidence.js';
import type { Pet, PetStatus } from '../src/data/generated/schema-types.js';
import { exactInteger, show } from '../src/wire/json.js';
import { because, eachCase, Violation, type Requirement, type RequirementId } from '../src/checks/requirement.js';
import { keyRefused } from './rules/blame.js';
import { POPULATION_PLAN, type RunContext } from '../src/checks/context.js';
import { PET_STATUSES, validate } from '../src/data/schemas.js';
import { FULL_LISTS } from './pets.js';
import { msg, petsCount, words, type Message } from '../src/checks/message.js';
import type { CatalogueInput } from '../src/checks/requirement.js';
import { BEYOND_INT64_CATEGORIES, BODY_LENIENCIES, FIELD_LENIENCIES, NOT_JSON_BODIES } from './leniencies/index.js';

export const SECTION = 'Endpoints › Add an animal';
const STATUSES = PET_STATUSES as readonly PetStatus[];

type Body = NonNullable<ApiRequest['body']>;

/** What a rejected body would have created, so a listing can show it was not. */
interface Marker {
  /** Unique within the run, carrying the run tag. */
  name: string;
  /** Derived from the name: no one else's pet has it. */
  categoryId: bigint;
  /** A status whose list is likely complete, so the pet's absence can be proven. */
  status: PetStatus;
}

/** A body the interface says is answered 400, described by what is wrong with it. */
interface InvalidBody {
  what: Message;
  body: (m: Marker) => Body;
  /** The catalogued input it is (tests/leniencies/), for the run's coverage. */
  input?: CatalogueInput;
}

const json = (value: unknown): Body => ({ json: value });
const validFields = (m: Marker) => ({ name: m.name, categoryId: m.categoryId, status: m.status });

/** The catalogue's entries judged by `id`, as bodies carrying a valid NewPet around the value (its words are the catalogue's). */
const catalogued = (id: RequirementId): InvalidBody[] => [
  ...[...BODY_LENIENCIES, ...NOT_JSON_BODIES]
    .filter((e) => e.requirement === id)
    .map((e) => ({ what: words(e.what), body: (m: Marker): Body => ({ raw: e.value(m) }), input: e })),
  ...FIELD_LENIENCIES.filter((e) => e.requirement === id).map((e) => ({
    what: words(e.what),
    body: (m: Marker) => json(e.value(m)),
    input: e,
  })),
  ...BEYOND_INT64_CATEGORIES.filter((e) => e.requirement === id).map((e) => ({
    what: words(e.what),
    body: (m: Marker) => json({ ...validFields(m), categoryId: e.value }),
    input: e,
  })),
];

export const MISSING_NAME: readonly InvalidBody[] = [
  { what: msg`name is missing`, body: (m) => json({ categoryId: m.categoryId, status: m.status }) },
  ...catalogued('createPet.missing-name'),
];
export const MISSING_CATEGORY: readonly InvalidBody[] = [
  { what: msg`categoryId is missing`, body: (m) => json({ name: m.name, status: m.status }) },
];
export const NAME_TYPES: readonly InvalidBody[] = [
  { what: msg`name is a number`, body: (m) => json({ ...validFields(m), name: 42 }) },
  { what: msg`name is null`, body: (m) => json({ ...validFields(m), name: null }) },
  { what: msg`name is an array`, body: (m) => json({ ...validFields(m), name: [m.name] }) },
  { what: msg`name is an object`, body: (m) => json({ ...validFields(m), name: { value: m.name } }) },
  ...catalogued('createPet.name-type'),
];
export const CATEGORY_TYPES: readonly InvalidBody[] = [
  { what: msg`categoryId is a string of digits`, body: (m) => json({ ...validFields(m), categoryId: '5' }) },
  { what: msg`categoryId has a fraction`, body: (m) => json({ ...validFields(m), categoryId: 1.5 }) },
  { what: msg`categoryId is null`, body: (m) => json({ ...validFields(m), categoryId: null }) },
  { what: msg`categoryId is a boolean`, body: (m) => json({ ...validFields(m), categoryId: true }) },
  ...catalogued('createPet.category-type'),
];
/** 2^63 and -2^63-1, one past either end, and far beyond: the constants of beyondInt64(). */
export const CATEGORY_RANGE: readonly InvalidBody[] = catalogued('createPet.category-range');
export const STATUS_ENUM: readonly InvalidBody[] = [
  {
    what: msg`status "adopted" is not in the enumeration`,
    body: (m) => json({ ...validFields(m), status: 'adopted' }),
  },
  {
    what: msg`status "Available" is not in the enumeration (it is case-sensitive)`,
    body: (m) => json({ ...validFields(m), status: 'Available' }),
  },
  { what: msg`status is a number`, body: (m) => json({ ...validFields(m), status: 1 }) },
  ...catalogued('createPet.status-enum'),
];
export const NOT_OBJECTS: readonly InvalidBody[] = [
  {
    what: msg`the body is not JSON (cut short)`,
    body: (m) => ({
      raw: `{"name": ${JSON.stringify(m.name)}, "categoryId": ${m.categoryId}, "status": "${m.status}"`,
    }),
  },
  { what: msg`the body is a JSON array holding a valid NewPet`, body: (m) => json([validFields(m)]) },
  { what: msg`the body is JSON null`, body: () => json(null) },
  ...catalogued('createPet.body-not-object'),
];

/** A category id derived from a unique name: another pet having it is a 1 in 2^60 chance. */
const categoryOf = (name: string): bigint =>
  2n ** 61n + BigInt(`0x${createHash('sha256').update(name).digest('hex').slice(0, 15)}`);

/**
 * The status likeliest to stay below 100 pets: the fewest now, counting what population
 * (ensurePopulation, run by other checks at the same time) may still add.
 */
async function quietStatus(ctx: RunContext): Promise<PetStatus> {
  const sizes = await Promise.all(
    STATUSES.map(async (s) => {
      const res = await ctx.api.listPets([
        ['status', s],
        ['limit', '100'],
      ]);
      return (res.status === 200 && Array.isArray(res.json) ? res.json.length : 100) + POPULATION_PLAN[s];
    }),
  );
  return STATUSES[sizes.indexOf(Math.min(...sizes))] ?? 'sold';
}

/**
 * What a complete list must lack, as data: a pet named as the rejected body (`back` 1: the list
 * follows it in the evidence), its run tag written afresh by the test; or why that is not stated.
 */
function lacksRejectedName(ctx: RunContext, { res, marker }: Rejected): Expectation | NotStated {
  let sent: unknown;
  try {
    sent = (JSON.parse(res.request.body ?? '') as { name?: unknown } | null)?.name;
  } catch {
    sent = undefined;
  }
  return sent === marker.name && marker.name.includes(ctx.runTag)
    ? { lacksNameOf: { back: 1, of: 'request' }, renamed: ctx.runTag }
    : {
        notStated:
          "a rejected body without the run's name for its pet, known by its categoryId, which a store keeps from run to run",
      };
}

/** A body the service refused, and what it would have created. */
export interface Rejected {
  res: ApiResponse;
  marker: { name: string; categoryId?: bigint };
}

/**
 * Rejected bodies created nothing: each of `lists` that is provably complete (fewer Pets than the
 * limit asked for) lacks every pet they describe, known by its tagged name or its unique
 * categoryId. Where no list is complete, nothing is claimed. One look after all of a check's
 * bodies were sent serves them all: no operation removes a pet. Used by the examples and the properties.
 */
export async function expectNothingCreated(
  ctx: RunContext,
  rejected: readonly Rejected[],
  lists: readonly [string, string][][] = FULL_LISTS,
): Promise<void> {
  if (rejected.length === 0) return;
  await eachCase(ctx, lists, async (query) => {
    const list = await ctx.api.listPets(query);
    // Lists are judged by the listPets checks; an unusable one proves nothing here.
    if (list.status !== 200 || !validate('PetList', list.json).valid) return;
    const pets = list.json as Pet[];
    if (pets.length >= 100) return;
    const createdBy = ({ marker }: Rejected) => {
      const category = marker.categoryId?.toString();
      return pets.find((p) => p.name === marker.name || exactInteger(p.categoryId) === category);
    };
    const guilty = rejected.filter((r) => createdBy(r));
    const first = guilty[0];
    if (!first) return;
    const others = guilty.length > 1 ? msg` (and the pets of ${guilty.length - 1} more rejected bodies)` : msg``;
    const complete = msg`complete with ${petsCount(pets.length)} (fewer than the limit)`;
    const yet = msg`yet ${describeRequest(list)}, ${complete}, holds the pet it describes: ${show(createdBy(first))}${others}`;
    throw new Violation(
      msg`${describeRequest(first.res)}: expected a rejected body to create nothing; got ${first.res.status}, ${yet}`,
      [exchangeOf(first.res), exchangeOf(list, lacksRejectedName(ctx, first))],
    );
  });
}

/** A requirement that each body in the table is answered 400 with an Error body and creates nothing. */
export function rejects(id: RequirementId, statement: string, cases: readonly InvalidBody[]): Requirement {
  return {
    id,
    level: 'MUST',
    section: SECTION,
    statement,
    inputs: cases.flatMap((c) => (c.input ? [c.input] : [])),
    check: async (ctx) => {
      const status = await quietStatus(ctx);
      const rejected: Rejected[] = [];
      await eachCase(
        ctx,
        cases,
        async (c) => {
          const name = ctx.petName('rejected');
          const marker: Marker = { name, categoryId: categoryOf(name), status };
          // Urgent: the check's next body waits for this answer (see below), not for the queue.
          const body = c.body(marker);
          const res = await ctx.coverage.sending(c.input, ctx.api.createPet(undefined, { body, urgent: true }));
          because(keyRefused(res), () => expectError(res, 400, c.what));
          rejected.push({ res, marker });
          // One at a time: each body may create, so each holds a creation of the write budget until
          // answered, and the store's population must not find it spent.
        },
        { oneAtATime: true },
      );
      await expectNothingCreated(ctx, rejected);
    },
  };
}
