// Properties of authentication: no bearer token but the key opens any operation.
import fc from 'fast-check';
import { expectError, expectPetList } from '../rules/assert.js';
import type { ApiResponse, Auth } from '../../src/wire/requests.js';
import { plainText, wrongToken } from '../../src/data/generators.js';
import type { Int64 } from '../../src/wire/json.js';
import { checkProperty, type Trial } from '../../src/checks/property.js';
import type { Property } from '../../src/checks/requirement.js';
import type { RunContext } from '../../src/checks/context.js';
import { getPetStage } from '../operations.js';
import { CREATE_WEIGHTS } from './shared.js';
import { msg, type OperationName } from '../../src/checks/message.js';
import { KEY_LESS_LAST_CHARACTER } from '../leniencies/index.js';
import { createFixture } from '../fixtures.js';

/** An existing pet for getPet, so only the token can explain a refusal (an unknown id is auth.before-validation's case). */
async function existingPetId(ctx: RunContext): Promise<Int64 | undefined> {
  const res = await ctx.api.listPets([['limit', '1']]);
  const listed = res.status === 200 ? expectPetList(res)[0]?.id : undefined;
  if (listed !== undefined || ctx.config.readOnly) return listed;
  return (await createFixture(ctx)).pet.id;
}

async function send(
  ctx: RunContext,
  trial: Trial,
  op: OperationName,
  auth: Auth,
  petId: Int64 | undefined,
  name: string,
): Promise<ApiResponse> {
  if (op === 'listPets') return ctx.api.listPets([], { auth });
  if (op === 'getPet') return ctx.api.getPet(petId, { auth });
  // Only a server that accepts the wrong token creates the pet.
  // Urgent: the property's other cases wait for the one creation it may make by mistake.
  const res = await ctx.api.createPet({ name: trial.tagged(name), categoryId: 1 }, { auth, urgent: true });
  return res;
}

/** auth.wrong-key's property. */
export const wrongKeyProperty: Property = {
  title: 'Any bearer token but the key is answered 401 with an Error body, on every operation',
  check: async (ctx) => {
    const ops: OperationName[] = ['listPets'];
    const petId = getPetStage(ctx) === 'live' ? await existingPetId(ctx) : undefined;
    if (petId !== undefined) ops.push('getPet');
    if (!ctx.config.readOnly) ops.push('createPet');
    // On every seed, every operation once, with the key less its last character (a prefix compare;
    // reports write it ${PETSTORE_API_KEY%?}): the catalogue's entry.
    const key = ctx.config.apiKey;
    const prefix = KEY_LESS_LAST_CHARACTER.value(key).slice('Bearer '.length);
    await checkProperty(ctx, {
      label: msg`tok`,
      arbitrary: fc.record({ op: fc.constantFrom(...ops), token: wrongToken(key), name: plainText() }),
      examples: ops.map((op) => ({ op, token: prefix, name: 'example' })),
      ...(ctx.config.readOnly ? {} : { creates: { perRun: 0, weight: CREATE_WEIGHTS.byMistake } }),
      show: ({ op, token }) => `${op} with Authorization: Bearer ${token}`,
      predicate: async ({ op, token, name }, trial, ctx) => {
        const sent = send(ctx, trial, op, { authorization: `Bearer ${token}` }, petId, name);
        const res = await (token === prefix ? ctx.coverage.sending(KEY_LESS_LAST_CHARACTER, sent) : sent);
        expectError(res, 401, msg`${op} with a token that is not the key`);
      },
    });
  },
};
