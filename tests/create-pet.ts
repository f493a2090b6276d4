// Interface section "Endpoints › Add an animal" (createPet).
import { expectPet, expectStatus, fail } from '../src/assert.js';
import { exactInteger } from '../src/json.js';
import type { Requirement } from '../src/requirement.js';

const SECTION = 'Endpoints › Add an animal';

export const createPet: Requirement[] = [
  {
    id: 'createPet.minimal',
    level: 'MUST',
    section: SECTION,
    statement: 'A body with only name and categoryId is answered 201 with a Pet echoing both and a service-assigned id',
    check: async (ctx) => {
      const body = ctx.newPet({ categoryId: 7 });
      ctx.reserveCreates(1, 'this check');
      const res = await ctx.api.createPet(body);
      expectStatus(res, 201);
      const pet = expectPet(res);
      if (pet.name !== body.name) fail(res, `name ${JSON.stringify(body.name)} echoed`, `name ${JSON.stringify(pet.name)}`);
      if (exactInteger(pet.categoryId) !== '7') fail(res, 'categoryId 7 echoed', `categoryId ${String(pet.categoryId)}`);
    },
  },
];
