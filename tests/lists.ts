// What the list checks (tests/list-pets.ts, tests/limits.ts) share: a full store, exact counts,
// the run-wide list rules, a catalogued query sent.
import { expectStatus, fail } from '../src/checks/assert.js';
import { listToJudge } from './rules/assert.js';
import type { ApiResponse } from '../src/wire/requests.js';
import type { Pet } from '../src/data/generated/schema-types.js';
import { ListAnswers, type ListRule } from './rules/list-answers.js';
import { Skip } from '../src/checks/requirement.js';
import type { RunContext } from '../src/checks/context.js';
import { msg, petsCount, type Message } from '../src/checks/message.js';
import { ensurePopulation } from './fixtures.js';

/**
 * Runs `assert` on a store filled when it can be, so faults such as a default of 50 or an
 * unenforced maximum show. The rule holds on any store, so it is asserted either way; when the
 * store could not be filled, a pass proves little and the check is skipped saying why.
 */
export async function onFullStore(ctx: RunContext, assert: () => Promise<void>): Promise<void> {
  let unproven: Skip | undefined;
  try {
    await ensurePopulation(ctx);
  } catch (err) {
    if (!(err instanceof Skip)) throw err;
    unproven = new Skip(msg`held on this store, but it may be too small to show the fault: ${err.message}`);
  }
  await assert();
  if (unproven) throw unproven;
}

/** A 200 with exactly `n` Pets, from a store known to hold at least `n` pets the query selects. */
export function expectExactly(res: ApiResponse, n: number, what: Message): Pet[] {
  expectStatus(res, 200, what);
  const pets = listToJudge(res);
  if (pets.length !== n)
    fail(res, msg`exactly ${petsCount(n)} (${what})`, msg`${petsCount(pets.length)}`, { exactItems: n });
  return pets;
}

/**
 * A list rule over the whole run: after its own cases, every list answer any check received (each
 * judged as it arrived, tests/rules/list-answers.ts).
 */
export const everyList = (rule: ListRule) => (ctx: RunContext) => new ListAnswers(rule, ctx.listPath);

/** Sends a query with a catalogued input in it (tests/leniencies/), counting it as covered. */
export const sendInput = (
  ctx: RunContext,
  input: { id: string; value: readonly (readonly [string, string])[] },
): Promise<ApiResponse> => ctx.coverage.sending(input, ctx.api.listPets(input.value));
