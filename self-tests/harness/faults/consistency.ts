// Faults against the consistency requirements: what one operation stores, another must show.
import { errorResponse, type ServerResponse } from '../../../src/reference-server/handler.js';
import { exactInteger, parseJson, stringifyJson } from '../../../src/wire/json.js';
import { isObject, operationOf, type Fault } from '../faults-kit.js';

const idOf = (res: ServerResponse): string | undefined => {
  const body = parseJson(res.body);
  return isObject(body) ? exactInteger(body.id) : undefined;
};

/** Leaves out of a 200 list the pets whose ids are in `hidden`. */
const without = (res: ServerResponse, hidden: (id: string | undefined) => boolean): ServerResponse => {
  const pets = parseJson(res.body);
  return Array.isArray(pets)
    ? { ...res, body: stringifyJson(pets.filter((p) => !(isObject(p) && hidden(exactInteger(p.id))))) }
    : res;
};

export const consistencyFaults: Fault[] = [
  {
    name: 'lists-lag-two-seconds',
    breaks: 'consistency.create-then-list',
    does: 'lists are eventually consistent: a pet shows in them only two seconds after it was created',
    wrap: (inner) => {
      const createdAt = new Map<string, number>();
      return async (req) => {
        const res = await inner(req);
        const op = operationOf(req);
        if (op === 'createPet' && res.status === 201) createdAt.set(idOf(res) ?? '', Date.now());
        const fresh = (id: string | undefined) => Date.now() - (createdAt.get(id ?? '') ?? 0) < 2000;
        return op === 'listPets' && res.status === 200 ? without(res, fresh) : res;
      };
    },
  },
  {
    name: 'rejected-create-rolls-back-previous',
    breaks: 'consistency.model',
    does: 'a createPet refused with 400 also rolls back the pet created just before it (gone from getPet and lists)',
    wrap: (inner) => {
      const lost = new Set<string>();
      let last: string | undefined;
      return async (req) => {
        const res = await inner(req);
        const op = operationOf(req);
        if (op === 'createPet') {
          if (res.status === 201) last = idOf(res);
          else if (res.status === 400 && last !== undefined) {
            lost.add(last);
            last = undefined;
          }
          return res;
        }
        if (op === 'getPet' && res.status === 200 && lost.has(idOf(res) ?? ''))
          return errorResponse(404, 'not_found', 'No such pet');
        return op === 'listPets' && res.status === 200 ? without(res, (id) => id !== undefined && lost.has(id)) : res;
      };
    },
  },
];
