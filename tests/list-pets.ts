// Interface section "Endpoints › List all animals" (listPets) and its limits.
import { expectStatus, fail, isClientError } from '../src/checks/assert.js';
import { expectError, expectErrorBody, expectListOf, expectPetList } from './rules/assert.js';
import type { PetStatus } from '../src/data/generated/schema-types.js';
import { expectAllOfStatus, expectDistinctIds, REJECTED_OR_LISTED } from './rules/list-answers.js';
import { eachCase, type Requirement } from '../src/checks/requirement.js';
import { statusExactProperty, statusUnknownProperty, statusWithLimitProperty } from './properties/list-pets.js';
import { POPULATION_PLAN } from '../src/checks/context.js';
import { PET_STATUSES } from '../src/data/schemas.js';
import { FULL_LISTS } from './pets.js';
import { quoted } from '../src/wire/redact.js';
import { msg, words } from '../src/checks/message.js';
import { STATUS_LENIENCIES } from './leniencies/index.js';

import { everyList, expectExactly, onFullStore, sendInput } from './lists.js';
import { limits } from './limits.js';
import { ensurePopulation } from './fixtures.js';

const SECTION = 'Endpoints › List all animals';
const STATUSES = PET_STATUSES as readonly PetStatus[];

/** Status values outside the enumeration (it is case-sensitive). */
const UNKNOWN_STATUSES = ['adopted', 'Available'] as const;

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
    observer: everyList('listPets.ok'),
  },
  ...limits,
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
        await eachCase(ctx, queries, async ([status, query]) => {
          const res = await ctx.api.listPets(query);
          expectAllOfStatus(res, expectListOf(res, 100, msg`filtered by status ${quoted(status)}`), status);
        });
      }),
    observer: everyList('listPets.status.filter'),
  },
  {
    id: 'listPets.distinct-ids',
    level: 'MUST',
    section: 'Resources and their fields',
    statement: 'No list answer holds the same id twice: an id identifies one pet',
    check: (ctx) =>
      onFullStore(ctx, async () => {
        // Full lists of every status too: a repeated pet shows wherever there are two to list.
        await eachCase(ctx, FULL_LISTS, async (query) => {
          const res = await ctx.api.listPets(query);
          expectDistinctIds(res, expectListOf(res, 100, msg`limit=100`));
        });
      }),
    observer: everyList('listPets.distinct-ids'),
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
        await eachCase(ctx, cases, async ([status, n]) => {
          const res = await ctx.api.listPets([
            ['status', status],
            ['limit', String(n)],
          ]);
          expectAllOfStatus(res, expectListOf(res, n, msg`status=${quoted(status)}&limit=${n}`), status);
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
      await ensurePopulation(ctx);
      const cases = STATUSES.flatMap((s) => [1, POPULATION_PLAN[s]].map((n) => [s, n] as const));
      await eachCase(ctx, cases, async ([status, n]) => {
        const res = await ctx.api.listPets([
          ['status', status],
          ['limit', String(n)],
        ]);
        const what = msg`the store holds at least ${POPULATION_PLAN[status]} pets with status ${quoted(status)}`;
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
    inputs: STATUS_LENIENCIES,
    check: async (ctx) => {
      const queries = [
        ...UNKNOWN_STATUSES.map((status) => [[['status', status]], msg`status "${quoted(status)}"`] as const),
        ...STATUS_LENIENCIES.map((input) => [input.value, words(input.what), input] as const),
      ];
      await eachCase(ctx, queries, async ([query, what, input]) => {
        const res = await ctx.coverage.sending(input, ctx.api.listPets(query));
        if (isClientError(res)) expectErrorBody(res);
        else if (res.status === 200) expectPetList(res);
        else
          fail(
            res,
            msg`a 4xx (400 preferred) with an Error body, or 200 with valid Pets (${what} is not in the enumeration)`,
            undefined,
            { status: REJECTED_OR_LISTED },
          );
      });
    },
  },
  {
    id: 'listPets.status.unknown-rejected',
    level: 'SHOULD',
    section: SECTION,
    statement: 'A status outside the enumeration is answered 400 with an Error body',
    inputs: STATUS_LENIENCIES,
    check: async (ctx) => {
      await eachCase(ctx, UNKNOWN_STATUSES, async (status) => {
        expectError(
          await ctx.api.listPets([['status', status]]),
          400,
          msg`status "${quoted(status)}" is not in the enumeration`,
        );
      });
      await eachCase(ctx, STATUS_LENIENCIES, async (input) => {
        expectError(await sendInput(ctx, input), 400, msg`${words(input.what)} is not in the enumeration`);
      });
    },
  },
];
