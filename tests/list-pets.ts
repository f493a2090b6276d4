// Interface section "Endpoints › List all animals" (listPets) and its limits.
import { expectPetList, expectStatus } from '../src/assert.js';
import type { Requirement } from '../src/requirement.js';

const SECTION = 'Endpoints › List all animals';

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
  },
];
