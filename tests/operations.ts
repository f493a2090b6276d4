// The three operations as valid requests, for checks that apply to every operation.
import type { ApiRequest, ApiResponse } from '../src/client.js';
import type { RunContext } from '../src/run.js';

export interface Operation {
  name: 'listPets' | 'createPet' | 'getPet';
  /** The status a valid, authenticated request gets. */
  success: number;
  /** Sends a valid request; `extra` changes auth or headers. Writes only when the check may. */
  send(ctx: RunContext, extra?: Partial<ApiRequest>): Promise<ApiResponse>;
}

export const operations: readonly Operation[] = [
  { name: 'listPets', success: 200, send: (ctx, extra) => ctx.api.listPets([], extra) },
  {
    name: 'createPet',
    success: 201,
    send: (ctx, extra) => {
      // Only an accepted request creates; reserve budget when the key is the right one.
      if ((extra?.auth ?? 'key') === 'key') ctx.reserveCreates(1, 'createPet');
      return ctx.api.createPet(ctx.newPet(), extra);
    },
  },
  {
    name: 'getPet',
    success: 200,
    send: async (ctx, extra) => {
      const { pet } = await ctx.createPet();
      return ctx.api.getPet(pet.id, extra);
    },
  },
];
