// Properties of listPets over generated query values: allowed limits and filters are obeyed, and
// any other value gets a 4xx Error or a bounded list, never a server error.
import fc from 'fast-check';
import { expectStatus, fail } from '../../src/checks/assert.js';
import { expectListOf, expectPetList } from '../rules/assert.js';
import type { PetStatus } from '../../src/data/generated/schema-types.js';
import {
  LIMIT,
  malformedLimit,
  outOfRangeLimit,
  statusFilter,
  unknownStatusFilter,
  validLimit,
} from '../../src/data/generators.js';
import { show } from '../../src/wire/json.js';
import { checkProperty } from '../../src/checks/property.js';
import { because, Skip, type Property, type RequirementId } from '../../src/checks/requirement.js';
import type { RunContext } from '../../src/checks/context.js';
import { expectRejectedOrBounded } from '../rules/list-answers.js';
import { quoted } from '../../src/wire/redact.js';
import { msg, petsCount, type Message } from '../../src/checks/message.js';
import { ensurePopulation } from '../fixtures.js';

const query = (limit: number | string | undefined, status: string | undefined): [string, string][] => [
  ...(status === undefined ? [] : [['status', status] as [string, string]]),
  ...(limit === undefined ? [] : [['limit', String(limit)] as [string, string]]),
];

/** Lists with an allowed limit and filter: 200, valid Pets, at most `limit`, all of the status; returns how many. */
async function listWithin(ctx: RunContext, limit: number, status: PetStatus | undefined): Promise<number> {
  const res = await ctx.api.listPets(query(limit, status));
  // An end of the range refused is the rule of that end's requirement.
  const end: RequirementId[] =
    limit === LIMIT.max ? ['listPets.limit.max'] : limit === LIMIT.min ? ['listPets.limit.min'] : [];
  because(end, () => expectStatus(res, 200, msg`an allowed limit and filter`));
  const pets = expectListOf(res, limit, msg`an allowed limit and filter`);
  const other = status === undefined ? undefined : pets.find((p) => p.status !== status);
  if (other)
    fail(
      res,
      msg`only pets with status "${quoted(String(status))}"`,
      msg`${show(other)} among ${petsCount(pets.length)}`,
    );
  return pets.length;
}

/** listPets.limit.respected's property. */
export const limitRespectedProperty: Property = {
  title: 'Any limit from 1 to 100 yields a valid list of at most that many Pets',
  check: (ctx) =>
    checkProperty(ctx, {
      label: msg`lim`,
      arbitrary: validLimit(),
      examples: [LIMIT.min, LIMIT.max],
      predicate: async (limit, _trial, ctx) => void (await listWithin(ctx, limit, undefined)),
    }),
};

/** listPets.status.with-limit's property. */
export const statusWithLimitProperty: Property = {
  title: 'Any status filter with any limit from 1 to 100 yields at most that many Pets, all of that status',
  check: (ctx) =>
    checkProperty(ctx, {
      label: msg`slim`,
      arbitrary: fc.record({ status: statusFilter(), limit: validLimit() }),
      examples: [{ status: 'available' as PetStatus, limit: LIMIT.max }],
      predicate: async ({ status, limit }, _trial, ctx) => void (await listWithin(ctx, limit, status)),
    }),
};

/** A `limit` the interface does not allow, with or without a filter: a 4xx Error or at most 100 Pets. */
const badLimit = (label: Message, title: string, limits: fc.Arbitrary<string>, says: Message): Property => ({
  title,
  check: (ctx) =>
    checkProperty(ctx, {
      label,
      arbitrary: fc.record({ limit: limits, status: fc.option(statusFilter(), { nil: undefined }) }),
      predicate: async ({ limit, status }, _trial, ctx) =>
        expectRejectedOrBounded(
          await ctx.api.listPets(query(limit, status)),
          LIMIT.max,
          msg`limit=${show(limit)} ${says}`,
        ),
    }),
});

/** listPets.limit.out-of-range's property. */
export const limitOutOfRangeProperty = badLimit(
  msg`oor`,
  'Any integer limit outside 1..100 gets a 4xx Error or a list of at most 100 Pets, never a 5xx',
  outOfRangeLimit(),
  msg`is outside ${LIMIT.min}..${LIMIT.max}`,
);

/** listPets.limit.malformed's property. */
export const limitMalformedProperty = badLimit(
  msg`mal`,
  'Any limit that is not an integer gets a 4xx Error or a list of at most 100 Pets, never a 5xx',
  malformedLimit(),
  msg`is not an integer`,
);

/** listPets.status.unknown's property. */
export const statusUnknownProperty: Property = {
  title: 'Any status filter outside the enumeration gets a 4xx Error or a valid list, never a 5xx',
  check: (ctx) =>
    checkProperty(ctx, {
      label: msg`ust`,
      arbitrary: fc.record({ status: unknownStatusFilter(), limit: fc.option(validLimit(), { nil: undefined }) }),
      predicate: async ({ status, limit }, _trial, ctx) =>
        expectRejectedOrBounded(
          await ctx.api.listPets(query(limit, status)),
          limit ?? LIMIT.default,
          msg`status=${show(status)} is not a PetStatus`,
        ),
    }),
};

/**
 * listPets.limit.exact's property. Exactness needs a store known to hold enough pets: after ensurePopulation it provably holds
 * more than 100 pets and at least the counts seen of each status, and pets are never deleted.
 */
export const limitExactProperty: Property = {
  title: 'Any limit up to what the store provably holds yields exactly that many Pets',
  check: async (ctx) => {
    const { total } = await ensurePopulation(ctx);
    await checkProperty(ctx, {
      label: msg`xlim`,
      arbitrary: fc.integer({ min: LIMIT.min, max: Math.min(LIMIT.max, total) }),
      predicate: async (limit, _trial, ctx) => {
        const res = await ctx.api.listPets(query(limit, undefined));
        expectStatus(res, 200);
        const n = expectPetList(res).length;
        if (n !== limit)
          fail(res, msg`exactly ${petsCount(limit)} (the store holds at least ${total})`, msg`${petsCount(n)}`, {
            exactItems: limit,
          });
      },
    });
  },
};

/** listPets.status.exact's property (exactness as above). */
export const statusExactProperty: Property = {
  title:
    'Any status filter with a limit up to the pets of that status the store provably holds yields exactly that many',
  check: async (ctx) => {
    const { byStatus } = await ensurePopulation(ctx);
    const held = (Object.entries(byStatus) as [PetStatus, number][]).filter(([, n]) => n >= LIMIT.min);
    if (held.length === 0) throw new Skip(msg`the store holds no pet of any status`);
    await checkProperty(ctx, {
      label: msg`xst`,
      arbitrary: fc.constantFrom(...held).chain(([status, n]) =>
        fc.record({
          status: fc.constant(status),
          limit: fc.integer({ min: LIMIT.min, max: Math.min(LIMIT.max, n) }),
        }),
      ),
      predicate: async ({ status, limit }, _trial, ctx) => {
        const res = await ctx.api.listPets(query(limit, status));
        expectStatus(res, 200);
        const n = expectPetList(res).filter((p) => p.status === status).length;
        if (n !== limit)
          fail(
            res,
            msg`exactly ${petsCount(limit)} with status "${quoted(status)}" (the store holds at least ${byStatus[status]})`,
            msg`${n}`,
            { exactItems: limit },
          );
      },
    });
  },
};
