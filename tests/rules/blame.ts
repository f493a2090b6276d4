// Blame in one place: whose rule a failing case's evidence breaks when it is not the running
// check's own (see CaseCause in outcomes.ts), for every kind of evidence the checks meet: a create
// answered wrong, a list of invalid pets, a pet stored or read back changed, a list taken as
// complete, a valid request refused. The reports group each failure under the rule named here.
import type { Pet } from '../../src/data/generated/schema-types.js';
import type { RequirementId } from '../../src/data/generated/requirement-ids.js';
import { NAME_SURELY_ACCEPTED } from '../../src/data/generators.js';
import { validate } from '../../src/data/schemas.js';
import { exactInteger } from '../../src/wire/json.js';
import { urlOf, type ApiResponse } from '../../src/wire/requests.js';
import type { CaseCause } from '../../src/checks/outcomes.js';

/** What tells a pet this run created by its name (the run context does). */
export interface CreatedIds {
  createdIdOf(name: string): string | undefined;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value for each Pet field that the schema accepts, to tell which field alone spoils a Pet. */
const VALID_PET_FIELDS: Readonly<Record<string, unknown>> = { id: 1, name: 'x', categoryId: 0, status: 'available' };

/** The one field whose value alone makes `pet` no valid Pet, if there is one. */
function faultyField(pet: unknown): string | undefined {
  if (!isObject(pet)) return undefined;
  return Object.keys(VALID_PET_FIELDS).find((f) => validate('Pet', { ...pet, [f]: VALID_PET_FIELDS[f] }).valid);
}

/**
 * Whose rule the answer to a valid createPet breaks when it is not 201 with a valid Pet (the
 * requirement ids the reports group failures under, see CaseCause): the key refused is
 * auth.valid-key's; a status missing or out of the enumeration, createPet.status-omitted's or
 * createPet.status-echo's (as the body had one); an integer categoryId beyond int64,
 * createPet.int64-extremes'; anything else createPet.minimal's.
 */
export function createdRules(res: ApiResponse, sent: { status?: unknown }): RequirementId[] {
  if (res.status === 401 || res.status === 403) return ['auth.valid-key'];
  if (res.status !== 201 || res.jsonError !== undefined) return ['createPet.minimal'];
  const field = faultyField(res.json);
  if (field === 'status')
    return [sent.status === undefined ? 'createPet.status-omitted' : 'createPet.status-echo', 'createPet.minimal'];
  if (field === 'categoryId' && isObject(res.json) && exactInteger(res.json.categoryId) !== undefined)
    return ['createPet.int64-extremes', 'createPet.minimal'];
  return ['createPet.minimal'];
}

/**
 * Whose rule a list of invalid Pets breaks: listPets.ok's, after createPet.int64-extremes' when
 * an item's only fault is an integer categoryId beyond int64 (stored inexactly), and after the
 * rules of the checks that created the items (CaseCause.pets: the run context knows them).
 */
export function listCause(list: unknown): CaseCause {
  const items = Array.isArray(list) ? list.filter((item: unknown) => !validate('Pet', item).valid) : [];
  const inexact = items.some(
    (item: unknown) =>
      faultyField(item) === 'categoryId' && isObject(item) && exactInteger(item.categoryId) !== undefined,
  );
  const pets = items.flatMap((item: unknown) =>
    isObject(item) && exactInteger(item.id) !== undefined ? [exactInteger(item.id) as string] : [],
  );
  return { rules: [...(inexact ? (['createPet.int64-extremes'] as const) : []), 'listPets.ok'], pets };
}

export type Sent = { name?: unknown; categoryId?: unknown; status?: unknown };

/** The first field of `sent` that `pet` does not carry exactly, in echoDifference's order. */
function differingField(sent: Sent, pet: Pet): 'name' | 'categoryId' | 'status' | undefined {
  if (typeof sent.name === 'string' && sent.name !== pet.name) return 'name';
  const categoryId = exactInteger(sent.categoryId);
  if (categoryId !== undefined && exactInteger(pet.categoryId) !== categoryId) return 'categoryId';
  if (sent.status !== undefined && pet.status !== sent.status) return 'status';
  return undefined;
}

/** A name createPet.gaps speaks for: empty, with white space at an end, or longer than any limit surely allowed. */
export const isGapName = (name: string): boolean =>
  name.trim() !== name || [...name].length === 0 || [...name].length > NAME_SURELY_ACCEPTED;

/**
 * Whose rule a pet that does not carry `sent` exactly breaks (see CaseCause): a name is
 * createPet.minimal's when plain ASCII, createPet.unicode's otherwise (createPet.gaps' when empty,
 * padded or very long), categoryId
 * createPet.int64-extremes', status createPet.status-echo's; none when nothing differs.
 */
export function echoRules(sent: Sent, pet: Pet): RequirementId[] {
  const field = differingField(sent, pet);
  if (field === 'name') {
    const name = sent.name as string;
    // A plain name is createPet.minimal's to echo; createPet.unicode speaks for the other code points.
    return [
      isGapName(name) ? 'createPet.gaps' : /^[\x20-\x7e]*$/.test(name) ? 'createPet.minimal' : 'createPet.unicode',
    ];
  }
  return field ? [field === 'categoryId' ? 'createPet.int64-extremes' : 'createPet.status-echo'] : [];
}

/**
 * Whose rule getPet breaks when it reads back `pet`, just created, as `got`: another pet this run
 * created under the same id is createPet.distinct-ids'; otherwise getPet.existing's first, then the
 * rule of the field that changed (a getPet that alters names in every answer is getPet's fault).
 */
export function readBackRules(ctx: CreatedIds, pet: Pet, got: Pet): RequirementId[] {
  return [
    ...(isTwin(ctx, pet, got) ? (['createPet.distinct-ids'] as const) : []),
    'getPet.existing',
    ...echoRules(pet, got),
  ];
}

/** `got`, read back for `pet`, is another pet this run created under the same id. */
export const isTwin = (ctx: CreatedIds, pet: Pet, got: Pet): boolean =>
  got.name !== pet.name && ctx.createdIdOf(got.name) === exactInteger(pet.id);

/**
 * Whose rule a list relies on when it is taken as complete because it is shorter than its limit
 * (see CaseCause): listPets.limit.exact first, then listPets.limit.default-exact without a limit,
 * and listPets.status.exact under a filter. A pet missing from it may be a short page.
 */
export function shortListRules(res: ApiResponse): RequirementId[] {
  const query = urlOf(res.request.url).searchParams;
  return [
    'listPets.limit.exact',
    ...(query.has('limit') ? [] : (['listPets.limit.default-exact'] as const)),
    ...(query.has('status') ? (['listPets.status.exact'] as const) : []),
  ];
}

/**
 * A 401 or 403 to a request with the right key: auth.valid-key's rule, and the calling rule's too
 * when it expects another answer (mine: its statement is false on this evidence as well).
 */
export const keyRefused = (res: ApiResponse): CaseCause =>
  res.status === 401 || res.status === 403 ? { rules: ['auth.valid-key'], mine: true } : {};

/** The requirement whose rule a valid request of each operation meets first: it is answered with the operation's success. */
const SUCCESS_RULE: Readonly<Record<'listPets' | 'createPet' | 'getPet', RequirementId>> = {
  listPets: 'listPets.ok',
  createPet: 'createPet.minimal',
  getPet: 'getPet.existing',
};

/**
 * Whose rule it breaks when a valid request, with the right key, is not answered with its
 * operation's success (see CaseCause): the key refused is auth.valid-key's; getPet gone (410)
 * before its removal day, getPet.removal's; anything else the operation's own requirement's.
 */
export function successRules(op: 'listPets' | 'createPet' | 'getPet', res: ApiResponse): RequirementId[] {
  if (res.status === 401 || res.status === 403) return ['auth.valid-key'];
  if (op === 'getPet' && res.status === 410) return ['getPet.removal'];
  return [SUCCESS_RULE[op]];
}
