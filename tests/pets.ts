// Comparing pets exactly: int64 digit for digit, names code point for code point.
import fc from 'fast-check';
import { expectPet, fail, type Expectation } from '../src/checks/assert.js';
import { createdRules, echoRules, isTwin, readBackRules, type Sent } from './rules/blame.js';
import type { ApiResponse } from '../src/wire/requests.js';
import { exactInteger, show } from '../src/wire/json.js';
import { quoted } from '../src/wire/redact.js';
import { msg, type Message } from '../src/checks/message.js';
import { roundedIdHint } from './rules/list-answers.js';
import { codePoints } from '../src/data/generators.js';
import type { Pet } from '../src/data/generated/schema-types.js';
import { PET_STATUSES } from '../src/data/schemas.js';
import { because, Blocked } from '../src/checks/requirement.js';
import type { RunContext } from '../src/checks/context.js';
import { expectSuccess, getPetStage } from './operations.js';

/** Undefined when equal on every interface field; otherwise which field differs. */
export function samePet(
  expected: Pet,
  actual: Pet,
  fields: readonly ('name' | 'categoryId' | 'status')[] = ['name', 'categoryId', 'status'],
): Message | undefined {
  // Both values came in answers: quotes.
  const differ = (field: Message, a: string, e: string) => msg`${field} ${quoted(a)} ≠ ${quoted(e)}`;
  if (exactInteger(actual.id) !== exactInteger(expected.id))
    return differ(msg`id`, String(actual.id), String(expected.id));
  if (fields.includes('name') && actual.name !== expected.name)
    return differ(msg`name`, JSON.stringify(actual.name), JSON.stringify(expected.name));
  if (fields.includes('categoryId') && exactInteger(actual.categoryId) !== exactInteger(expected.categoryId))
    return differ(msg`categoryId`, String(actual.categoryId), String(expected.categoryId));
  if (fields.includes('status') && actual.status !== expected.status)
    return differ(msg`status`, String(actual.status), String(expected.status));
  return undefined;
}

/** The fullest lists the interface allows: limit=100, unfiltered and for each status. */
export const FULL_LISTS: [string, string][][] = [
  [['limit', '100']],
  ...PET_STATUSES.map((s): [string, string][] => [
    ['status', s],
    ['limit', '100'],
  ]),
];

/** Where ids vanishingly unlikely to exist are drawn from: int64 values from 2^62 up, far beyond sequential ids. */
export const UNKNOWN_ID_RANGE = Object.freeze({ min: 2n ** 62n, max: 2n ** 63n - 2n });

/** Two pet ids, fixed by the run seed, from UNKNOWN_ID_RANGE and never one this run created. */
export function unknownPetIds(ctx: Pick<RunContext, 'config' | 'ledger'>): bigint[] {
  const mine = new Set(ctx.ledger.map((id) => exactInteger(id)));
  const ids = fc.sample(fc.noBias(fc.bigInt(UNKNOWN_ID_RANGE)), { seed: ctx.config.seed, numRuns: 4 });
  return ids.filter((id) => !mine.has(id.toString())).slice(0, 2);
}

/** Undefined when equal code point for code point; otherwise where they first differ, as U+ code points. */
export function codePointDifference(expected: string, actual: string): Message | undefined {
  const a = [...expected];
  const b = [...actual];
  // The code points of a name sent or answered: quotes.
  const u = (c: string | undefined) => (c === undefined ? msg`(end)` : quoted(codePoints(c)));
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return msg`code point ${i} is ${u(b[i])} where ${u(a[i])} was expected (${b.length} code points, ${a.length} expected)`;
  }
  return undefined;
}

/**
 * The fields of an accepted body that `pet` does not carry exactly: the name code point for code
 * point, categoryId digit for digit, status as sent (any, when none was sent: the default is
 * open). Other fields sent are the server's to keep or drop.
 */
export function echoDifference(
  sent: { name?: unknown; categoryId?: unknown; status?: unknown },
  pet: Pet,
): Message | undefined {
  if (typeof sent.name === 'string') {
    const diff = codePointDifference(sent.name, pet.name);
    if (diff) return msg`name ${show(pet.name, 80)}: ${diff}`;
  }
  const categoryId = exactInteger(sent.categoryId);
  if (categoryId !== undefined && exactInteger(pet.categoryId) !== categoryId)
    return msg`categoryId ${show(pet.categoryId)} instead of ${quoted(categoryId)}`;
  if (sent.status !== undefined && pet.status !== sent.status)
    return msg`status ${show(pet.status)} instead of ${show(sent.status)}`;
  return undefined;
}

/**
 * Reading back `pet` gave another pet this run created under the same id: createPet.distinct-ids'
 * finding (its own check proves it on every run), which leaves nothing of this check's rule to judge.
 */
export function blockIfTwin(ctx: Pick<RunContext, 'createdIdOf'>, pet: Pet, got: Pet): void {
  if (isTwin(ctx, pet, got))
    throw new Blocked(
      'createPet.distinct-ids',
      msg`reading back ${show(pet)} gave ${show(got)}, another pet this run created under the same id${roundedIdHint(exactInteger(pet.id) ?? '')}`,
    );
}

/**
 * What an exported test compares of a Pet echoing `sent`: the members echoDifference compares, each
 * as the request `back` exchanges before wrote it (int64 digits beyond 2^53 too).
 */
function sentMembers(sent: Sent, back: number): NonNullable<Expectation['sameAs']> {
  const compared = (['name', 'categoryId', 'status'] as const).filter((f) =>
    f === 'name'
      ? typeof sent.name === 'string'
      : f === 'categoryId'
        ? exactInteger(sent.categoryId) !== undefined
        : sent[f] !== undefined,
  );
  return Object.fromEntries(compared.map((f) => [f, { back, of: 'request' }]));
}

/** A read-back compared with the created Pet (its id and `fields`), and with what was sent where the check compares that. */
function readBackMembers(sent: Sent, fields: readonly Field[]): Expectation {
  const created = Object.fromEntries(['id', ...fields].map((f) => [f, { back: 1, of: 'response' as const }]));
  return { sameAs: { ...created, ...sentMembers(sent, 1) } };
}

/** A field of a Pet that a check may be about. */
export type Field = 'name' | 'categoryId' | 'status';

/** Of `sent`, only `fields`. */
const only = (sent: Sent, fields: readonly Field[]): Sent =>
  Object.fromEntries(fields.flatMap((f) => (f in sent ? [[f, sent[f]]] : [])));

/**
 * An accepted body is stored as sent in the fields the caller's statement is about: the 201's Pet
 * echoes them exactly (echoDifference), and so does getPet reading it back, while getPet is live.
 * Returns the created Pet. A change to one of `fields` is the caller's own violation, grouped under
 * the field's rule when that is another requirement's (echoRules, readBackRules); a change to
 * another field is not judged here, but by that field's requirement in its own check (e.g.
 * createPet.minimal's name and categoryId, createPet.unicode's name, createPet.status-echo's
 * status, every field for createPet.gaps' "stored as sent"; none for a check about the id).
 */
export async function expectStoredAsSent(
  ctx: RunContext,
  sent: Sent,
  res: ApiResponse,
  fields: readonly Field[],
  what = msg`the body sent`,
): Promise<Pet> {
  const pet = because(createdRules(res, sent), () => expectPet(res));
  const mine = only(sent, fields);
  const wrong = echoDifference(mine, pet);
  if (wrong)
    because({ rules: echoRules(mine, pet), mine: true }, () =>
      fail(res, msg`${what}, accepted, echoed exactly`, wrong, { sameAs: sentMembers(mine, 0) }),
    );
  if (getPetStage(ctx) !== 'live') return pet;
  const back = await ctx.api.getPet(pet.id);
  expectSuccess(
    { name: 'getPet', success: 200 },
    back,
    msg`reading back pet ${quoted(exactInteger(pet.id) ?? show(pet.id))}, just created`,
  );
  const got = expectPet(back);
  if (fields.length === 0) return pet;
  blockIfTwin(ctx, pet, got);
  const diff = echoDifference(mine, got) ?? samePet(pet, got, fields);
  if (diff)
    because({ rules: readBackRules(ctx, pet, got), mine: true }, () =>
      fail(
        back,
        msg`${what}, accepted, read back exactly as created: ${show(pet)}`,
        msg`${show(got)} (${diff})`,
        readBackMembers(mine, fields),
        res,
      ),
    );
  return pet;
}
