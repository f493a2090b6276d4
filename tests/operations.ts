// The three operations as valid requests, for checks that apply to every operation.
import { expectStatus } from '../src/checks/assert.js';
import type { ApiRequest, ApiResponse } from '../src/wire/requests.js';
import { because, Skip } from '../src/checks/requirement.js';
import { keyRefused, successRules } from './rules/blame.js';
import { msg, words, type Message, type OperationName } from '../src/checks/message.js';
import type { RunContext } from '../src/checks/context.js';
import { validate } from '../src/data/schemas.js';
import type { Pet } from '../src/data/generated/schema-types.js';
import type { Int64 } from '../src/wire/json.js';
import { createFixture } from './fixtures.js';

export interface Operation {
  name: OperationName;
  /** The status a valid, authenticated request gets. */
  success: number;
  /** Sends a valid request; `extra` changes auth or headers. Writes only when the check may. */
  send(ctx: RunContext, extra?: Partial<ApiRequest>): Promise<ApiResponse>;
}

/**
 * The id of a pet that exists: the first one listed (the shared store is rarely empty), else one
 * created for the check; undefined when neither is possible (an empty store in read-only mode).
 */
export async function anExistingPetId(ctx: RunContext): Promise<Int64 | undefined> {
  const res = await ctx.api.listPets([['limit', '1']]);
  const first: unknown = res.status === 200 && Array.isArray(res.json) ? res.json[0] : undefined;
  if (first !== undefined && validate('Pet', first).valid) return (first as Pet).id;
  if (ctx.createsLeft === 0) return undefined;
  return (await createFixture(ctx)).pet.id;
}

/** A pet to fetch with getPet: anyone's will do, as only the status of the answer is judged. */
async function petToFetch(ctx: RunContext): Promise<Int64> {
  const id = await anExistingPetId(ctx);
  if (id === undefined) throw new Skip(msg`read-only mode: getPet needs a pet to fetch, and the store lists none`);
  return id;
}

export const operations: readonly Operation[] = [
  { name: 'listPets', success: 200, send: (ctx, extra) => ctx.api.listPets([], extra) },
  {
    name: 'createPet',
    success: 201,
    send: (ctx, extra) => {
      // Reserved ahead with the right key, so a read-only or spent run says which operation skipped.
      if ((extra?.auth ?? 'key') === 'key') ctx.reserveCreates(1, msg`createPet`);
      return ctx.api.createPet(ctx.newPet(), extra);
    },
  },
  {
    name: 'getPet',
    success: 200,
    send: async (ctx, extra) => ctx.api.getPet(await petToFetch(ctx), extra),
  },
];

/**
 * getPet is deprecated and its removal is scheduled for 5 December 2030, a calendar day without a
 * time zone: it starts at 2030-12-04T10:00Z (UTC+14) and ends at 2030-12-06T12:00Z (UTC-12).
 * Before that day getPet must still work; after it, it must be gone; on the day itself a
 * conforming server may answer either way, so checks that depend on it skip.
 */
export const GETPET_REMOVAL = Object.freeze({
  day: msg`5 December 2030`,
  starts: new Date('2030-12-04T10:00:00Z'),
  ends: new Date('2030-12-06T12:00:00Z'),
});

export type GetPetStage = 'live' | 'removal-day' | 'removed';

/** Where getPet stands at the suite's clock (PETSTORE_NOW or the real time). */
export function getPetStage(ctx: Pick<RunContext, 'now'>): GetPetStage {
  const now = ctx.now().getTime();
  if (now < GETPET_REMOVAL.starts.getTime()) return 'live';
  return now < GETPET_REMOVAL.ends.getTime() ? 'removal-day' : 'removed';
}

const EITHER_WAY = msg`a conforming server may or may not have removed it yet`;

/** Why a check that needs a working getPet cannot run, or undefined while getPet is live. */
export function getPetGone(ctx: Pick<RunContext, 'now'>): Message | undefined {
  const stage = getPetStage(ctx);
  if (stage === 'live') return undefined;
  const when = clockSays(ctx);
  return stage === 'removed'
    ? msg`getPet was removed on ${GETPET_REMOVAL.day} and the suite's clock says ${when}; getPet.removal checks the removal instead`
    : msg`the suite's clock (${when}) is on getPet's removal day, ${GETPET_REMOVAL.day}, ${msg`in some time zone: ${EITHER_WAY}`}`;
}

/** The suite's clock, for a message: its own words (PETSTORE_NOW or the real time), never the wire's. */
export const clockSays = (ctx: Pick<RunContext, 'now'>): Message => words(ctx.now().toISOString());

/** The operations a conforming server offers at the suite's clock: getPet only while it is live. */
export function liveOperations(ctx: Pick<RunContext, 'now'>): readonly Operation[] {
  return getPetStage(ctx) === 'live' ? operations : operations.filter((op) => op.name !== 'getPet');
}

export const isSuccess = (res: ApiResponse) => res.status >= 200 && res.status < 300;

/** A valid request a check sends on the way to its own rule is answered with the operation's success. */
export function expectSuccess(op: Pick<Operation, 'name' | 'success'>, res: ApiResponse, what = msg`${op.name}`): void {
  because(successRules(op.name, res), () => expectStatus(res, op.success, what));
}

/**
 * The right key accepted: any answer but 401 or 403, which break the calling rule (grouped under
 * auth.valid-key when that failed too); whether the answer is right is the operation's own rule,
 * judged there. A 5xx tells nothing about the key: blocked by the operation's rule.
 */
export function expectKeyAccepted(op: Pick<Operation, 'name' | 'success'>, res: ApiResponse, what: Message): void {
  if (res.status === 401 || res.status === 403) because(keyRefused(res), () => expectStatus(res, op.success, what));
  else if (res.status >= 500) expectSuccess(op, res, what);
}
