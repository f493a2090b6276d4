// Faults that cut across the interface's sections: JSON that is not quite JSON or not quite the
// types, a missing content type, crashes on malformed input,
// servers that degrade with writes or load, writes that are acknowledged but lost.
import { setTimeout as sleep } from 'node:timers/promises';
import { createReferenceHandler, errorResponse } from '../../../src/reference-server/handler.js';
import { answer, eachPet, isJson, isOp, mapJson, mapResponse, type Fault, type Wrap } from '../faults-kit.js';

const crash = (what: string) => {
  // The HTTP layer turns a thrown error into a 500, as a careless server would.
  throw new Error(`unhandled: ${what}`);
};

/** Answers 500 to every write after the first `n` accepted ones. */
const failAfterWrites =
  (n: number): Wrap =>
  (inner) => {
    let accepted = 0;
    return async (req) => {
      if (isOp('createPet')(req) && accepted >= n) return errorResponse(500, 'internal_error', 'storage full');
      const res = await inner(req);
      if (isOp('createPet')(req) && res.status === 201) accepted++;
      return res;
    };
  };

/**
 * Each request takes 10 ms (a slow query); one that arrives while `k` others are in flight fails with
 * 500. (Every fault run waits on it, mostly shrinking one request at a time: a run's time grows with
 * the delay.)
 */
const failUnderLoad =
  (k: number): Wrap =>
  (inner) => {
    let inFlight = 0;
    return async (req) => {
      const busy = inFlight >= k;
      inFlight++;
      try {
        await sleep(10);
        return busy ? errorResponse(500, 'internal_error', 'connection pool exhausted') : await inner(req);
      } finally {
        inFlight--;
      }
    };
  };

/** Ids written through a double: above 2^53 they come back rounded. */
const idsThroughDouble: Wrap = mapJson((body, res) => {
  const round = (p: unknown) =>
    typeof p === 'object' && p !== null && 'id' in p ? { ...p, id: Number((p as { id: unknown }).id) } : p;
  if (res.status >= 300) return body;
  return Array.isArray(body) ? body.map(round) : round(body);
});

/** int64 fields written as JSON strings, as protobuf's JSON mapping does: not the integers the interface says. */
const int64AsStrings: Wrap = mapJson((body, res) =>
  res.status < 300
    ? eachPet(body, (pet) => ({ ...pet, id: String(pet.id), categoryId: String(pet.categoryId) }))
    : body,
);

export const generalFaults: Fault[] = [
  {
    name: 'json-with-bom',
    breaks: 'listPets.ok',
    does: 'starts every JSON body with a byte order mark (RFC 8259 §8.1 forbids it): the body is no longer JSON',
    wrap: mapResponse((res) => ({ ...res, body: `\uFEFF${res.body}` })),
  },
  {
    name: 'int64-as-strings',
    breaks: 'createPet.minimal',
    does: 'writes id and categoryId as JSON strings ("id": "7"), as protobuf JSON mapping does',
    wrap: int64AsStrings,
  },
  {
    name: 'get-no-content-type',
    breaks: 'service.json-content-type',
    does: 'answers a successful getPet without a Content-Type header',
    wrap: mapResponse((res) => {
      if (res.status !== 200) return res;
      const { 'content-type': _dropped, ...headers } = res.headers;
      return { ...res, headers };
    }, isOp('getPet')),
  },
  {
    name: 'crash-on-bad-json',
    breaks: 'errors.no-server-error',
    does: 'crashes (500) on a createPet body that is not JSON',
    wrap: answer(
      (req) => isOp('createPet')(req) && !isJson(req.body),
      () => crash('JSON.parse'),
    ),
  },
  {
    name: 'crash-on-odd-query',
    breaks: 'errors.no-server-error',
    does: 'crashes (500) on a limit that is not a number',
    wrap: answer(
      (req) => isOp('listPets')(req) && /[?&]limit=[^&]*[^\d&]/.test(req.url),
      () => crash('parseInt'),
    ),
  },
  {
    name: 'fail-after-writes',
    breaks: 'consistency.model',
    does: 'answers 500 to every createPet after the first 10 it accepted',
    wrap: failAfterWrites(10),
  },
  {
    name: 'fail-under-load',
    breaks: 'createPet.distinct-ids',
    does: 'answers 500 to a request that arrives while 3 others are in flight; one at a time, all is well',
    wrap: failUnderLoad(3),
    racy: 'which requests meet 3 others in flight depends on the scheduling',
  },
  {
    name: 'created-pet-not-stored',
    breaks: 'getPet.existing',
    does: 'acknowledges createPet with 201 and a Pet but never stores it',
    wrap: (inner, apiKey) => {
      // A throwaway store answers the writes (ids far from the real ones); the real one never sees them.
      const scratch = createReferenceHandler({ apiKey, firstId: 10n ** 12n });
      return (req) => (isOp('createPet')(req) ? scratch(req) : inner(req));
    },
  },
  {
    name: 'ids-through-double',
    breaks: 'consistency.model',
    does: 'hands out ids above 2^53 but writes them through a double, so they come back rounded',
    wrap: idsThroughDouble,
    options: { firstId: 2n ** 53n + 1n },
    groupingVaries:
      "a batch created at once gets one rounded id twice (createPet.distinct-ids's rule) or an id no pet has (getPet.existing's), as the store's " +
      'count of ids falls',
    // A listed pet read back 404 blocks the checks that fetch one; it breaks none of their rules.
    notUnder: ['service.json-content-type', 'auth.valid-key'],
  },
];
