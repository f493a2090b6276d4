// What checks need before they judge: a pet created as a fixture, a store holding enough pets.
import { expectStatus } from '../src/checks/assert.js';
import { msg } from '../src/checks/message.js';
import { Skip, Violation } from '../src/checks/requirement.js';
import { POPULATION_PLAN, POPULATION_TOTAL, type Population, type RunContext } from '../src/checks/context.js';
import type { ApiResponse } from '../src/wire/requests.js';
import type { NewPet, Pet, PetStatus } from '../src/data/generated/schema-types.js';
import { exactInteger } from '../src/wire/json.js';
import { LIMIT } from '../src/data/generators.js';
import { PET_STATUSES } from '../src/data/schemas.js';
import { expectCreated, expectPetList } from './rules/assert.js';

/** Creates a pet the check needs as a fixture: 201 and a valid Pet, or a violation. */
export async function createFixture(
  ctx: RunContext,
  body: NewPet = ctx.newPet(),
): Promise<{ pet: Pet; res: ApiResponse }> {
  ctx.reserveCreates(1, msg`this check`);
  const res = await ctx.api.createPet(body);
  // The fixture's answer is createPet.minimal's rule (or another the answer names), not the check's.
  return { pet: expectCreated(res, body, msg`the pet must be created`), res };
}

const POPULATING = 'populating the store, which the checks needing more than 100 pets share';

/**
 * Makes sure the store holds more than 100 pets and at least POPULATION_PLAN of each status,
 * creating what is missing within the budget. Done once per run; pets of others count too.
 */
export function ensurePopulation(ctx: RunContext): Promise<Population> {
  // A server that cannot be populated fails the createPet checks; here the check is undecidable.
  return ctx.sharedOnce('population', POPULATING, populate).catch((err: unknown) => {
    if (err instanceof Violation) throw new Skip(msg`the store could not be populated: ${err.message}`);
    throw err;
  });
}

async function countStatus(ctx: RunContext, status: PetStatus): Promise<number> {
  const res = await ctx.api.listPets([
    ['status', status],
    ['limit', String(LIMIT.max)],
  ]);
  expectStatus(res, 200);
  // Distinct ids only: a list repeating a pet proves no more pets.
  return new Set(
    expectPetList(res)
      .filter((p) => p.status === status)
      .map((p) => exactInteger(p.id)),
  ).size;
}

async function populate(ctx: RunContext): Promise<Population> {
  const counts = await Promise.all(PET_STATUSES.map((s) => countStatus(ctx, s as PetStatus)));
  const missing = PET_STATUSES.flatMap((s, i) =>
    Array.from({ length: Math.max(0, POPULATION_PLAN[s as PetStatus] - (counts[i] ?? 0)) }, () => s as PetStatus),
  );
  const all = await ctx.api.listPets([['limit', String(LIMIT.max)]]);
  expectStatus(all, 200);
  // Lists stop at 100; pets of different statuses are different pets, so the filtered counts
  // can prove more than 100 in all without creating any (read-only runs on a full store).
  const total = Math.max(
    expectPetList(all).length,
    counts.reduce((a, b) => a + b, 0),
  );
  const topUp = Math.max(0, POPULATION_TOTAL - total - missing.length);
  missing.push(...Array.from({ length: topUp }, () => 'available' as const));
  if (missing.length > 0) {
    ctx.reserveCreates(missing.length, msg`populating the store (checks that need more than 100 pets)`);
    await Promise.all(
      missing.map(async (status) => {
        const res = await ctx.api.createPet(ctx.newPet({ status }));
        expectStatus(res, 201, msg`populating the store`);
      }),
    );
  }
  const byStatus = Object.fromEntries(
    await Promise.all(PET_STATUSES.map(async (s) => [s, await countStatus(ctx, s as PetStatus)] as const)),
  ) as Record<PetStatus, number>;
  const after = await ctx.api.listPets([['limit', String(LIMIT.max)]]);
  return { byStatus, total: expectPetList(after).length };
}
