// Comparing pets exactly: int64 digit for digit, names code point for code point.
import fc from 'fast-check';
import { expectPet, expectStatus, fail } from '../src/assert.js';
import type { ApiResponse } from '../src/wire.js';
import { exactInteger, show } from '../src/json.js';
import { codePoints } from '../src/generators.js';
import type { Pet } from '../src/generated/schema-types.js';
import type { RunContext } from '../src/run.js';
import { getPetStage } from './operations.js';

/** Undefined when equal on every interface field; otherwise which field differs. */
export function samePet(expected: Pet, actual: Pet): string | undefined {
  if (exactInteger(actual.id) !== exactInteger(expected.id)) return `id ${String(actual.id)} ≠ ${String(expected.id)}`;
  if (actual.name !== expected.name) return `name ${JSON.stringify(actual.name)} ≠ ${JSON.stringify(expected.name)}`;
  if (exactInteger(actual.categoryId) !== exactInteger(expected.categoryId)) {
    return `categoryId ${String(actual.categoryId)} ≠ ${String(expected.categoryId)}`;
  }
  if (actual.status !== expected.status) return `status ${String(actual.status)} ≠ ${String(expected.status)}`;
  return undefined;
}

/** Where ids vanishingly unlikely to exist are drawn from: int64 values from 2^62 up, far beyond sequential ids. */
export const UNKNOWN_ID_RANGE = Object.freeze({ min: 2n ** 62n, max: 2n ** 63n - 2n });

/** Two pet ids, fixed by the run seed, from UNKNOWN_ID_RANGE and never one this run created. */
export function unknownPetIds(ctx: Pick<RunContext, 'config' | 'ledger'>): bigint[] {
  const mine = new Set(ctx.ledger.map((id) => exactInteger(id)));
  const ids = fc.sample(fc.noBias(fc.bigInt(UNKNOWN_ID_RANGE)), { seed: ctx.config.seed, numRuns: 4 });
  return ids.filter((id) => !mine.has(id.toString())).slice(0, 2);
}

/** Undefined when equal code point for code point; otherwise where they first differ, as U+ code points. */
export function codePointDifference(expected: string, actual: string): string | undefined {
  const a = [...expected];
  const b = [...actual];
  const u = (c: string | undefined) => (c === undefined ? '(end)' : codePoints(c));
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `code point ${i} is ${u(b[i])} where ${u(a[i])} was expected (${b.length} code points, ${a.length} expected)`;
  }
  return undefined;
}

/**
 * The fields of an accepted body that `pet` does not carry exactly: the name code point for code
 * point, categoryId digit for digit, status as sent (any, when none was sent: the default is
 * open). Other fields sent are the server's to keep or drop.
 */
export function echoDifference(sent: { name?: unknown; categoryId?: unknown; status?: unknown }, pet: Pet): string | undefined {
  if (typeof sent.name === 'string') {
    const diff = codePointDifference(sent.name, pet.name);
    if (diff) return `name ${show(pet.name, 80)}: ${diff}`;
  }
  const categoryId = exactInteger(sent.categoryId);
  if (categoryId !== undefined && exactInteger(pet.categoryId) !== categoryId) return `categoryId ${show(pet.categoryId)} instead of ${categoryId}`;
  if (sent.status !== undefined && pet.status !== sent.status) return `status ${show(pet.status)} instead of ${show(sent.status)}`;
  return undefined;
}

/**
 * An accepted body is stored as sent: the 201's Pet echoes it exactly (echoDifference), and so
 * does getPet reading it back, while getPet is live. Returns the created Pet.
 */
export async function expectStoredAsSent(ctx: RunContext, sent: { name?: unknown; categoryId?: unknown; status?: unknown }, res: ApiResponse, what = 'the body sent'): Promise<Pet> {
  const pet = expectPet(res);
  const wrong = echoDifference(sent, pet);
  if (wrong) fail(res, `${what}, accepted, echoed exactly`, wrong);
  if (getPetStage(ctx) !== 'live') return pet;
  const back = await ctx.api.getPet(pet.id);
  expectStatus(back, 200, `reading back pet ${exactInteger(pet.id) ?? show(pet.id)}, just created`);
  const got = expectPet(back);
  const diff = echoDifference(sent, got) ?? samePet(pet, got);
  if (diff) fail(back, `${what}, accepted, read back exactly as created: ${show(pet)}`, `${show(got)} (${diff})`);
  return pet;
}
