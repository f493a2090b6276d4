// Interface section "Limits": the limit query parameter of listPets, its range and its default.
import fc from 'fast-check';
import { expectError, expectListOf } from './rules/assert.js';
import type { PetStatus } from '../src/data/generated/schema-types.js';
import { expectRejectedOrBounded } from './rules/list-answers.js';
import { eachCase, type Property, type Requirement, type RequirementId } from '../src/checks/requirement.js';
import {
  limitExactProperty,
  limitMalformedProperty,
  limitOutOfRangeProperty,
  limitRespectedProperty,
} from './properties/list-pets.js';
import { type RunContext } from '../src/checks/context.js';
import { PET_STATUSES } from '../src/data/schemas.js';
import { msg, words, type Message } from '../src/checks/message.js';
import { LIMIT_CONSTANTS, LIMIT_LENIENCIES } from './leniencies/index.js';

import { everyList, expectExactly, onFullStore, sendInput } from './lists.js';
import { ensurePopulation } from './fixtures.js';

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
/** What the SHOULD asks 400 for: the catalogued limits but the readings left open. */
const REJECTED_LIMITS = LIMIT_LENIENCIES.filter(
  // One limit parameter: a server may ignore limit[] (another parameter) or take the first of two.
  (input) => input.level !== 'allowed' && input.value.length === 1 && input.value[0]?.[0] === 'limit',
);

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
  inputs: readonly (typeof LIMIT_LENIENCIES)[number][] = [],
): Requirement => ({
  id,
  properties: [property],
  level: 'MUST',
  section: LIMITS,
  statement,
  inputs,
  // On a store of more than 100 pets: a limit a forgiving parser reads as more shows.
  check: (ctx) =>
    onFullStore(ctx, async () => {
      await eachCase(ctx, cases, async ([limit, what]) => {
        expectRejectedOrBounded(await ctx.api.listPets([['limit', limit]]), 100, msg`limit ${what}`);
      });
      await eachCase(ctx, inputs, async (input) => {
        expectRejectedOrBounded(await sendInput(ctx, input), 100, words(input.what));
      });
    }),
});

/** A few limits from the run seed, besides the fixed ones. */
const seededLimits = (ctx: RunContext, n: number): number[] =>
  fc.sample(fc.integer({ min: 2, max: 99 }), { seed: ctx.config.seed, numRuns: n });

export const limits: Requirement[] = [
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
        await eachCase(ctx, limits, async (n) => {
          expectListOf(await ctx.api.listPets([['limit', String(n)]]), n, msg`limit=${n}`);
        });
      }),
    observer: everyList('listPets.limit.respected'),
  },
  {
    id: 'listPets.limit.default',
    level: 'MUST',
    section: LIMITS,
    statement: 'Without limit at most 20 Pets come back, with or without a status filter',
    check: (ctx) =>
      onFullStore(ctx, async () => {
        const queries: [string, string][][] = [[], ...STATUSES.map((s): [string, string][] => [['status', s]])];
        await eachCase(ctx, queries, async (query) => {
          expectListOf(await ctx.api.listPets(query), 20, msg`the default limit is 20`);
        });
      }),
    observer: everyList('listPets.limit.default'),
  },
  {
    id: 'listPets.limit.exact',
    properties: [limitExactProperty],
    level: 'SHOULD',
    section: LIMITS,
    statement: 'When the store holds at least N pets, limit=N yields exactly N',
    check: async (ctx) => {
      // After population the store provably holds more than 100 pets.
      await ensurePopulation(ctx);
      const limits = [...new Set([1, 20, 50, 100, ...seededLimits(ctx, 2)])];
      await eachCase(ctx, limits, async (n) => {
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
      await ensurePopulation(ctx);
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
    // MALFORMED's values are among the generator's constants, sent with the catalogue.
    [],
    limitMalformedProperty,
    [...LIMIT_LENIENCIES, ...LIMIT_CONSTANTS],
  ),
  {
    id: 'listPets.limit.rejected',
    level: 'SHOULD',
    section: LIMITS,
    statement: 'An out-of-range or malformed limit is answered 400 with an Error body',
    inputs: REJECTED_LIMITS,
    check: async (ctx) => {
      await eachCase(ctx, [...OUT_OF_RANGE, ...MALFORMED], async ([limit, what]) => {
        expectError(await ctx.api.listPets([['limit', limit]]), 400, msg`limit ${what}`);
      });
      await eachCase(ctx, REJECTED_LIMITS, async (input) => {
        expectError(await sendInput(ctx, input), 400, words(input.what));
      });
    },
  },
];
