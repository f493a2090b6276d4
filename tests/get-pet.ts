// Interface section "Endpoints › Get an animal (deprecated)" (getPet).
import { expectPet, expectStatus, fail } from '../src/assert.js';
import { show } from '../src/json.js';
import type { Requirement } from '../src/requirement.js';
import { samePet } from './pets.js';

const SECTION = 'Endpoints › Get an animal (deprecated)';

export const getPet: Requirement[] = [
  {
    id: 'getPet.existing',
    level: 'MUST',
    section: SECTION,
    statement: 'A pet the suite created is answered 200 with the same Pet',
    check: async (ctx) => {
      const { pet } = await ctx.createPet(ctx.newPet({ status: 'pending' }));
      const res = await ctx.api.getPet(pet.id);
      expectStatus(res, 200);
      const got = expectPet(res);
      const diff = samePet(pet, got);
      if (diff) fail(res, `the created pet ${show(pet)}`, `${show(got)} (${diff})`);
    },
  },
];
