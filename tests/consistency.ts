// Consistency across operations: what createPet stores, listPets and getPet show.
import { expectStatus, fail } from '../src/checks/assert.js';
import { listToJudge } from './rules/assert.js';
import type { ApiResponse } from '../src/wire/requests.js';
import type { Pet, PetStatus } from '../src/data/generated/schema-types.js';
import { LIMIT } from '../src/data/generators.js';
import { exactInteger, show } from '../src/wire/json.js';
import { quoted } from '../src/wire/redact.js';
import { msg, petsCount } from '../src/checks/message.js';
import { because, Skip, type Requirement } from '../src/checks/requirement.js';
import type { RunContext } from '../src/checks/context.js';
import { PET_STATUSES } from '../src/data/schemas.js';
import { blockIfTwin, samePet } from './pets.js';
import { repeatsAnId } from './rules/list-answers.js';
import { echoRules, shortListRules } from './rules/blame.js';
import { checkModel } from './properties/model.js';
import { concurrentCreatesProperty } from './properties/consistency.js';
import { createFixture } from './fixtures.js';

/** A list shorter than the limit it asked for is complete; the largest limit proves the most. */
const MAX_LIMIT = LIMIT.max;

async function listed(ctx: RunContext, query: [string, string][]): Promise<{ res: ApiResponse; pets: Pet[] }> {
  const res = await ctx.api.listPets(query);
  expectStatus(res, 200);
  return { res, pets: listToJudge(res) };
}

/**
 * When the list is complete (fewer items than `limit`), it holds `pet`, created with the answer
 * `created`, unchanged; returns whether it was complete.
 */
function expectListedIfComplete(
  ctx: RunContext,
  { res, pets, limit }: { res: ApiResponse; pets: Pet[]; limit: number },
  { pet, res: created }: { pet: Pet; res: ApiResponse },
): boolean {
  // A list that repeats a pet is listPets.distinct-ids' violation, and proves no list complete.
  if (pets.length >= limit || repeatsAnId(pets)) return false;
  const item = pets.find((p) => exactInteger(p.id) === exactInteger(pet.id));
  if (!item)
    return because(shortListRules(res), () =>
      fail(
        res,
        msg`the pet just created, ${show(pet)}: the list is complete (${pets.length} < limit ${limit})`,
        msg`${petsCount(pets.length)} without it`,
        { listsIdOf: { back: 1, of: 'response' } },
        created,
      ),
    );
  blockIfTwin(ctx, pet, item);
  const diff = samePet(pet, item);
  // "Unchanged" is this rule's own word: a violation of its own, grouped under the field's rule.
  if (diff)
    because({ rules: echoRules(pet, item), mine: true }, () =>
      fail(res, msg`the pet as created: ${show(pet)}`, msg`${show(item)} (${diff})`),
    );
  return true;
}

export const consistency: Requirement[] = [
  {
    id: 'consistency.create-then-list',
    level: 'MUST',
    section: 'Endpoints › List all animals',
    statement:
      'A created pet appears, unchanged, in every list that is provably complete (fewer items than the limit), with or without a status filter',
    check: async (ctx) => {
      // The status with the fewest pets has the best chance of a complete filtered list.
      const counts = await Promise.all(
        PET_STATUSES.map(
          async (s) =>
            [
              s as PetStatus,
              (
                await listed(ctx, [
                  ['status', s],
                  ['limit', String(MAX_LIMIT)],
                ])
              ).pets.length,
            ] as const,
        ),
      );
      const [status, count] = [...counts].sort((a, b) => a[1] - b[1])[0] ?? ['available', MAX_LIMIT];
      if (count >= MAX_LIMIT - 1) {
        throw new Skip(
          msg`store too large to prove a list complete: every status already fills a list of ${MAX_LIMIT}`,
        );
      }
      const fixture = await createFixture(ctx, ctx.newPet({ status }));
      const lists = await Promise.all([
        listed(ctx, [
          ['status', status],
          ['limit', String(MAX_LIMIT)],
        ]).then((l) => ({ ...l, limit: MAX_LIMIT })),
        listed(ctx, [['status', status]]).then((l) => ({ ...l, limit: LIMIT.default })),
        listed(ctx, [['limit', String(MAX_LIMIT)]]).then((l) => ({ ...l, limit: MAX_LIMIT })),
      ]);
      const complete = lists.filter((list) => expectListedIfComplete(ctx, list, fixture));
      if (complete.length === 0)
        throw new Skip(
          lists.some(({ pets }) => repeatsAnId(pets))
            ? msg`no list could be proven complete: they repeat a pet (listPets.distinct-ids) or filled up to their limit`
            : msg`the lists of status "${quoted(status)}" filled up to their limit meanwhile; none could be proven complete`,
        );
    },
  },
  {
    id: 'consistency.model',
    properties: [concurrentCreatesProperty],
    level: 'MUST',
    section: 'Resources and their fields',
    statement:
      'Random sequences of create, invalid create, get, unknown get and list agree with a model of the pets the run created',
    check: checkModel,
  },
];
