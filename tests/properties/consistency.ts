// Properties across operations: pets created at the same moment are still distinct pets.
import fc from 'fast-check';
import { expectPet, fail } from '../../src/checks/assert.js';
import { expectCreated } from '../rules/assert.js';
import { exactInteger, show } from '../../src/wire/json.js';
import { checkProperty } from '../../src/checks/property.js';
import { because, type Property } from '../../src/checks/requirement.js';
import { echoDifference, samePet } from '../pets.js';
import { echoRules, readBackRules } from '../rules/blame.js';
import { expectSuccess, getPetStage } from '../operations.js';
import { afterOtherWrites, CREATE_WEIGHTS, plainNewPet } from './shared.js';
import { quoted } from '../../src/wire/redact.js';
import { msg } from '../../src/checks/message.js';

/** Most pets created at once by one run of the property. */
const MOST_AT_ONCE = 6;

/** consistency.model's property. */
export const concurrentCreatesProperty: Property = {
  title: 'K pets created at once get K distinct ids, and each reads back as created',
  check: (ctx) =>
    checkProperty(ctx, {
      label: msg`par`,
      // Plain pets: this property is about creating at once.
      arbitrary: fc.array(plainNewPet(), { minLength: 2, maxLength: MOST_AT_ONCE }),
      // Runs are sized for the usual few pets at once; a larger batch the allowance cannot pay for is skipped.
      creates: { perRun: 4, weight: CREATE_WEIGHTS.concurrent },
      show: (pets) => `${pets.length} at once: ${pets.map((p) => show(p)).join(', ')}`,
      predicate: async (generated, trial, ctx) => {
        const bodies = generated.map((p) => ({ ...p, name: trial.tagged(p.name) }));
        await trial.take(bodies.length);
        const answers = await Promise.all(bodies.map((b) => ctx.api.createPet(b)));
        const pets = answers.map((res, i) => {
          // Each answer is first the rule of one create (createdRules, echoRules); what only creating at once shows is this property's.
          const pet = expectCreated(res, bodies[i]!, msg`one of ${bodies.length} creates sent at once`);
          const wrong = echoDifference(bodies[i]!, pet);
          if (wrong) because(echoRules(bodies[i]!, pet), () => fail(res, msg`the sent fields echoed exactly`, wrong));
          return pet;
        });
        const seen = new Map<string | undefined, number>();
        pets.forEach((pet, i) => {
          const first = seen.get(exactInteger(pet.id));
          // One id for two pets is createPet.distinct-ids' rule, which names creating at once.
          if (first !== undefined)
            because(['createPet.distinct-ids'], () =>
              fail(
                answers[i]!,
                msg`an id of its own among ${pets.length} pets created at once`,
                msg`id ${quoted(String(exactInteger(pet.id)))}, also given to ${show(pets[first])}`,
                {
                  notStated:
                    'ids of pets created at once: created again, they get other ids, which collide or not as the store and its timing have it',
                },
              ),
            );
          seen.set(exactInteger(pet.id), i);
        });
        if (getPetStage(ctx) !== 'live') return;
        await Promise.all(
          pets.map(async (pet) => {
            const res = await ctx.api.getPet(pet.id);
            afterOtherWrites(() => expectSuccess({ name: 'getPet', success: 200 }, res, msg`a pet just created`));
            const got = expectPet(res);
            const diff = samePet(pet, got);
            if (diff)
              because(readBackRules(ctx, pet, got), () =>
                fail(res, msg`the pet as created: ${show(pet)}`, msg`${show(got)} (${diff})`),
              );
          }),
        );
      },
    }),
};
