// Interface section "Endpoints › List all animals" (listPets) and its limits.
import fc from 'fast-check';
import {
  expectError,
  expectErrorBody,
  expectListOf,
  expectPetList,
  expectStatus,
  fail,
  isClientError,
  listToJudge,
} from '../src/checks/assert.js';
import type { ApiResponse } from '../src/wire/wire.js';
import type { Pet, PetStatus } from '../src/data/generated/schema-types.js';
import {
  expectAllOfStatus,
  expectDistinctIds,
  expectRejectedOrBounded,
  type ListRule,
} from '../src/checks/list-answers.js';
import { eachCase, Skip, type Property, type Requirement, type RequirementId } from '../src/checks/requirement.js';
import {
  limitExactProperty,
  limitMalformedProperty,
  limitOutOfRangeProperty,
  limitRespectedProperty,
  statusExactProperty,
  statusUnknownProperty,
  statusWithLimitProperty,
} from './properties/list-pets.js';
import { POPULATION_PLAN, type RunContext } from '../src/checks/run.js';
import { PET_STATUSES } from '../src/data/schemas.js';
import { FULL_LISTS } from './pets.js';
import { wire } from '../src/wire/redact.js';
import { msg, petsCount, type Message } from '../src/checks/message.js';

const SECTION = 'Endpoints › List all animals';
const LIMITS = 'Limits';
const STATUSES = PET_STATUSES as readonly PetStatus[];

/** Out-of-range `limit` values, each described by what it breaks. */
const OUT_OF_RANGE: readonly (readonly [string, Message])[] = [
  ['0', msg`below the minimum`],
  ['-1', msg`negative`],
  ['101', msg`one above the maximum`],
  ['1000', msg`far above the maximum`],
  ['18446744073709551616', msg`beyond 64 bits`],
];
/** Malformed `limit` values. */
const MALFORMED: readonly (readonly [string, Message])[] = [
  ['1.5', msg`not an integer`],
  ['abc', msg`not a number`],
  ['', msg`empty`],
];
/** Status values outside the enumeration (it is case-sensitive). */
const UNKNOWN_STATUSES = ['adopted', 'Available'] as const;

/**
 * Runs `assert` on a store filled when it can be, so faults such as a default of 50 or an
 * unenforced maximum show. The rule holds on any store, so it is asserted either way; when the
 * store could not be filled, a pass proves little and the check is skipped saying why.
 */
async function onFullStore(ctx: RunContext, assert: () => Promise<void>): Promise<void> {
  let unproven: Skip | undefined;
  try {
    await ctx.ensurePopulation();
  } catch (err) {
    if (!(err instanceof Skip)) throw err;
    unproven = new Skip(msg`held on this store, but it may be too small to show the fault: ${err.message}`);
  }
  await assert();
  if (unproven) throw unproven;
}

/** limit=n at an end of the range is accepted. */
const acceptsEnd = (id: RequirementId, n: number, end: Message): Requirement => ({
  id,
  level: 'MUST',
  section: LIMITS,
  statement: `limit=${n} is accepted and yields at most ${n} Pet${n === 1 ? '' : 's'}`,
  check: (ctx) =>
    onFullStore(ctx, async () => {
      // More than n back breaks listPets.limit.respected's rule and this statement too: also failed, grouped under it.
      expectListOf(await ctx.api.listPets([['limit', String(n)]]), n, msg`limit=${n} is the ${end}`, [
        'listPets.limit.respected',
        id,
      ]);
    }),
});

/** A 200 with exactly `n` Pets. */
function expectExactly(res: ApiResponse, n: number, what: Message): Pet[] {
  expectStatus(res, 200, what);
  const pets = listToJudge(res);
  if (pets.length !== n) fail(res, msg`exactly ${petsCount(n)} (${what})`, msg`${petsCount(pets.length)}`);
  return pets;
}

/**
 * A list rule over the whole run: after its own cases, every list answer any check received (each
 * judged as it arrived, src/checks/list-answers.ts); the runner calls it once every check has ended.
 */
const everyList =
  (rule: ListRule) =>
  (ctx: RunContext): void =>
    ctx.listAnswers.verdict(rule);

/**
 * Where the interface leaves the answer open (listPets documents no 4xx but 401): a 4xx Error, 400
 * preferred (the SHOULD below), or a 200 list within the maximum. The
 * store holds more than 100 pets, so a server that lets limit=101 through, or ignores a malformed
 * limit and lists everything, shows.
 */
const rejectedOrBounded = (
  id: RequirementId,
  statement: string,
  cases: typeof OUT_OF_RANGE,
  property: Property,
): Requirement => ({
  id,
  properties: [property],
  level: 'MUST',
  section: LIMITS,
  statement,
  check: (ctx) =>
    onFullStore(ctx, () =>
      eachCase(cases, async ([limit, what]) => {
        expectRejectedOrBounded(await ctx.api.listPets([['limit', limit]]), 100, msg`limit ${what}`);
      }),
    ),
});

/** A few limits from the run seed, besides the fixed ones. */
const seededLimits = (ctx: RunContext, n: number): number[] =>
  fc.sample(fc.integer({ min: 2, max: 99 }), { seed: ctx.config.seed, numRuns: n });

export const listPets: Requirement[] = [
  {
    id: 'listPets.ok',
    level: 'MUST',
    section: SECTION,
    statement: 'GET /pets answers 200 with a JSON array of valid Pets',
    check: async (ctx) => {
      const res = await ctx.api.listPets();
      expectStatus(res, 200);
      expectPetList(res);
    },
    judgeRun: everyList('listPets.ok'),
  },
  acceptsEnd('listPets.limit.min', 1, msg`minimum`),
  acceptsEnd('listPets.limit.max', 100, msg`maximum`),
  {
    id: 'listPets.limit.respected',
    properties: [limitRespectedProperty],
    level: 'MUST',
    section: LIMITS,
    statement: 'limit=N never yields more than N Pets',
    check: (ctx) =>
      onFullStore(ctx, async () => {
        const limits = [...new Set([1, 2, 19, 20, 21, 50, 99, 100, ...seededLimits(ctx, 3)])];
        await eachCase(limits, async (n) => {
          expectListOf(await ctx.api.listPets([['limit', String(n)]]), n, msg`limit=${n}`);
        });
      }),
    judgeRun: everyList('listPets.limit.respected'),
  },
  {
    id: 'listPets.limit.default',
    level: 'MUST',
    section: LIMITS,
    statement: 'Without limit at most 20 Pets come back, with or without a status filter',
    check: (ctx) =>
      onFullStore(ctx, async () => {
        const queries: [string, string][][] = [[], ...STATUSES.map((s): [string, string][] => [['status', s]])];
        await eachCase(queries, async (query) => {
          expectListOf(await ctx.api.listPets(query), 20, msg`the default limit is 20`);
        });
      }),
    judgeRun: everyList('listPets.limit.default'),
  },
  {
    id: 'listPets.limit.exact',
    properties: [limitExactProperty],
    level: 'SHOULD',
    section: LIMITS,
    statement: 'When the store holds at least N pets, limit=N yields exactly N',
    check: async (ctx) => {
      // After population the store provably holds more than 100 pets.
      await ctx.ensurePopulation();
      const limits = [...new Set([1, 20, 50, 100, ...seededLimits(ctx, 2)])];
      await eachCase(limits, async (n) => {
        expectExactly(
          await ctx.api.listPets([['limit', String(n)]]),
          n,
          msg`the store holds more than 100 pets; limit=${n}`,
        );
      });
    },
  },
  {
    id: 'listPets.limit.default-exact',
    level: 'SHOULD',
    section: LIMITS,
    statement: 'When the store holds at least 20 pets, no limit yields exactly 20',
    check: async (ctx) => {
      await ctx.ensurePopulation();
      expectExactly(await ctx.api.listPets(), 20, msg`the store holds more than 100 pets; the default limit is 20`);
    },
  },
  rejectedOrBounded(
    'listPets.limit.out-of-range',
    'An out-of-range limit gets a 4xx Error or a 200 with at most 100 Pets, never a 5xx',
    OUT_OF_RANGE,
    limitOutOfRangeProperty,
  ),
  rejectedOrBounded(
    'listPets.limit.malformed',
    'A malformed limit gets a 4xx Error or a 200 with at most 100 Pets, never a 5xx',
    MALFORMED,
    limitMalformedProperty,
  ),
  {
    id: 'listPets.limit.rejected',
    level: 'SHOULD',
    section: LIMITS,
    statement: 'An out-of-range or malformed limit is answered 400 with an Error body',
    check: async (ctx) => {
      await eachCase([...OUT_OF_RANGE, ...MALFORMED], async ([limit, what]) => {
        expectError(await ctx.api.listPets([['limit', limit]]), 400, msg`limit ${what}`);
      });
    },
  },
  {
    id: 'listPets.status.filter',
    level: 'MUST',
    section: SECTION,
    statement: 'status=S yields only pets whose status is S, for each of the three values',
    // Pets of every status, so a filter that lets others through shows.
    check: (ctx) =>
      onFullStore(ctx, async () => {
        const queries = STATUSES.flatMap((s): [PetStatus, [string, string][]][] => [
          [s, [['status', s]]],
          [
            s,
            [
              ['status', s],
              ['limit', '100'],
            ],
          ],
        ]);
        await eachCase(queries, async ([status, query]) => {
          const res = await ctx.api.listPets(query);
          expectAllOfStatus(res, expectListOf(res, 100, msg`filtered by status ${wire(status)}`), status);
        });
      }),
    judgeRun: everyList('listPets.status.filter'),
  },
  {
    id: 'listPets.distinct-ids',
    level: 'MUST',
    section: 'Resources and their fields',
    statement: 'No list answer holds the same id twice: an id identifies one pet',
    check: (ctx) =>
      onFullStore(ctx, async () => {
        // Full lists of every status too: a repeated pet shows wherever there are two to list.
        await eachCase(FULL_LISTS, async (query) => {
          const res = await ctx.api.listPets(query);
          expectDistinctIds(res, expectListOf(res, 100, msg`limit=100`));
        });
      }),
    judgeRun: everyList('listPets.distinct-ids'),
  },
  {
    id: 'listPets.status.with-limit',
    properties: [statusWithLimitProperty],
    level: 'MUST',
    section: SECTION,
    statement: 'status=S&limit=N yields at most N pets, all with status S',
    check: (ctx) =>
      onFullStore(ctx, async () => {
        const cases = STATUSES.flatMap((s) => [1, 5].map((n) => [s, n] as const));
        await eachCase(cases, async ([status, n]) => {
          const res = await ctx.api.listPets([
            ['status', status],
            ['limit', String(n)],
          ]);
          expectAllOfStatus(res, expectListOf(res, n, msg`status=${wire(status)}&limit=${n}`), status);
        });
      }),
  },
  {
    id: 'listPets.status.exact',
    properties: [statusExactProperty],
    level: 'SHOULD',
    section: SECTION,
    statement:
      'When at least N pets have status S, status=S&limit=N yields exactly N (the filter comes before the limit)',
    check: async (ctx) => {
      // Population leaves at least POPULATION_PLAN[S] pets of each status S in the store.
      await ctx.ensurePopulation();
      const cases = STATUSES.flatMap((s) => [1, POPULATION_PLAN[s]].map((n) => [s, n] as const));
      await eachCase(cases, async ([status, n]) => {
        const res = await ctx.api.listPets([
          ['status', status],
          ['limit', String(n)],
        ]);
        const what = msg`the store holds at least ${POPULATION_PLAN[status]} pets with status ${wire(status)}`;
        expectAllOfStatus(res, expectExactly(res, n, what), status);
      });
    },
  },
  {
    id: 'listPets.status.unknown',
    properties: [statusUnknownProperty],
    level: 'MUST',
    section: SECTION,
    statement: 'A status outside the enumeration gets a 4xx Error or a 200 with valid Pets, never a 5xx',
    check: async (ctx) => {
      await eachCase(UNKNOWN_STATUSES, async (status) => {
        const res = await ctx.api.listPets([['status', status]]);
        if (isClientError(res)) expectErrorBody(res);
        else if (res.status === 200) expectPetList(res);
        else
          fail(
            res,
            msg`a 4xx (400 preferred) with an Error body, or 200 with valid Pets (status "${wire(status)}" is not in the enumeration)`,
          );
      });
    },
  },
  {
    id: 'listPets.status.unknown-rejected',
    level: 'SHOULD',
    section: SECTION,
    statement: 'A status outside the enumeration is answered 400 with an Error body',
    check: async (ctx) => {
      await eachCase(UNKNOWN_STATUSES, async (status) => {
        expectError(
          await ctx.api.listPets([['status', status]]),
          400,
          msg`status "${wire(status)}" is not in the enumeration`,
        );
      });
    },
  },
];
