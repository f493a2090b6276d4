// Model-based test of the store (fast-check commands): random sequences of create, create-invalid,
// get, get-unknown and list run against the target while a model tracks the pets the sequence
// created. The model knows only our pets, so a shared store full of others' pets is no problem:
// after every command the target must agree with it.
import fc from 'fast-check';
import { expectPet, fail } from '../../src/checks/assert.js';
import { expectCreated, expectError } from '../rules/assert.js';
import { PET_STATUSES, validate } from '../../src/data/schemas.js';
import type { NewPet, Pet, PetStatus } from '../../src/data/generated/schema-types.js';
import { invalidBodies, LIMIT, statusFilter, validLimit, type InvalidBody } from '../../src/data/generators.js';
import { exactInteger, show } from '../../src/wire/json.js';
import { checkProperty, WIDE_RUNS_IN_FLIGHT, type Trial } from '../../src/checks/property.js';
import { because, type RequirementId } from '../../src/checks/requirement.js';
import type { RunContext } from '../../src/checks/context.js';
import { blockIfTwin, samePet, UNKNOWN_ID_RANGE } from '../pets.js';
import { echoRules, readBackRules, shortListRules } from '../rules/blame.js';
import { expectSuccess, getPetStage } from '../operations.js';
import { AFTER_OTHER_WRITES, afterOtherWrites, CREATE_WEIGHTS, plainNewPet, taggedBody } from './shared.js';
import { quoted } from '../../src/wire/redact.js';
import { msg, petsCount } from '../../src/checks/message.js';

// Each command's answer is first the rule of the requirement of that one operation (a fixture's
// create, getPet); the model's own finding is what only a sequence shows. What rules judge on every
// answer of the run (the Error body of a refusal, a list's validity, limit and filter: see
// src/checks/error-answers.ts and src/checks/list-answers.ts) the model leaves to them, so whether it fails never
// depends on which commands a seed happened to draw.
const DISTINCT_IDS: RequirementId[] = ['createPet.distinct-ids'];

interface Model {
  /** The pets this sequence created, as the service returned them, in creation order. */
  readonly pets: Pet[];
  /** Creations the sequence may still make. */
  readonly left: () => number;
  /** getPet still works at the suite's clock. */
  readonly getPetLive: boolean;
}

interface Real {
  readonly ctx: RunContext;
  readonly trial: Trial;
}

type PetCommand = fc.AsyncCommand<Model, Real>;

const idOf = (pet: Pet) => exactInteger(pet.id);

class CreatePet implements PetCommand {
  constructor(readonly pet: NewPet) {}
  check = (m: Readonly<Model>) => m.left() > 0;
  async run(m: Model, { ctx, trial }: Real): Promise<void> {
    const body = { ...this.pet, name: trial.tagged(this.pet.name) };
    const res = await ctx.api.createPet(body);
    // The fields echoed as sent are createPet's rules (met on every seed by their examples); the
    // model goes on with the pet as the service returned it.
    const pet = expectCreated(res, body);
    const twin = m.pets.find((p) => idOf(p) === idOf(pet));
    if (twin)
      because(DISTINCT_IDS, () =>
        fail(
          res,
          msg`a new id`,
          msg`id ${quoted(String(idOf(pet)))}, already given to ${show(twin)} earlier in this sequence`,
        ),
      );
    if (ctx.ledger.filter((id) => exactInteger(id) === idOf(pet)).length > 1)
      because(DISTINCT_IDS, () =>
        fail(res, msg`a new id`, msg`id ${quoted(String(idOf(pet)))}, already given to another pet this run created`),
      );
    m.pets.push(pet);
  }
  toString = () => `createPet(${show(this.pet)})`;
}

class CreateInvalidPet implements PetCommand {
  constructor(readonly invalid: InvalidBody) {}
  check = (m: Readonly<Model>) => m.left() > 0;
  async run(_m: Model, { ctx, trial }: Real): Promise<void> {
    const { body } = taggedBody(this.invalid.body, trial);
    await ctx.api.createPet(null, { body });
    // Whether and how it was refused is the invalid body's own requirement's rule (its examples
    // send every kind on every seed) and the Error rules'; the model goes on, and later commands
    // show whether the store changed under its own pets.
  }
  toString = () =>
    `createPet(${'raw' in this.invalid.body ? show(this.invalid.body.raw) : show(this.invalid.body.json)}) where ${this.invalid.rule.says}`;
}

class GetPet implements PetCommand {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.getPetLive && this.index < m.pets.length;
  async run(m: Model, { ctx }: Real): Promise<void> {
    const pet = m.pets[this.index] as Pet;
    const res = await ctx.api.getPet(pet.id);
    afterOtherWrites(() => expectSuccess({ name: 'getPet', success: 200 }, res, msg`a pet this sequence created`));
    const got = expectPet(res);
    blockIfTwin(ctx, pet, got);
    const diff = samePet(pet, got);
    if (diff)
      because(readBackRules(ctx, pet, got), () =>
        fail(res, msg`the pet as created: ${show(pet)}`, msg`${show(got)} (${diff})`),
      );
  }
  toString = () => `getPet(created[${this.index}])`;
}

class GetUnknownPet implements PetCommand {
  constructor(readonly id: bigint) {}
  check = (m: Readonly<Model>) => m.getPetLive;
  async run(_m: Model, { ctx }: Real): Promise<void> {
    if (ctx.ledger.some((id) => exactInteger(id) === this.id.toString())) return;
    const res = await ctx.api.getPet(this.id);
    // Found, it disagrees with the model; the status and Error body of the refusal are getPet.unknown's and the Error rules'.
    if (res.status < 300) because(['getPet.unknown'], () => expectError(res, 404, msg`an id no pet has`));
  }
  toString = () => `getPet(${this.id}) /* unknown */`;
}

class ListPets implements PetCommand {
  constructor(
    readonly limit: number | undefined,
    readonly status: PetStatus | undefined,
  ) {}
  check = () => true;
  async run(m: Model, { ctx }: Real): Promise<void> {
    const query: [string, string][] = [];
    if (this.status !== undefined) query.push(['status', this.status]);
    if (this.limit !== undefined) query.push(['limit', String(this.limit)]);
    const res = await ctx.api.listPets(query);
    // A list refused, no valid PetList, too long or badly filtered is the list rules' finding
    // (their example cases, and src/checks/list-answers.ts on every list answer): nothing to compare here.
    if (res.status !== 200 || !validate('PetList', res.json).valid) return;
    const items = res.json as Pet[];
    const limit = this.limit ?? LIMIT.default;
    if (items.length > limit || (this.status !== undefined && items.some((p) => p.status !== this.status))) return;
    const listed = new Map(items.map((p) => [idOf(p), p]));
    for (const pet of m.pets) {
      const item = listed.get(idOf(pet));
      const diff = item && samePet(pet, item);
      // A list showing our pet otherwise than created disagrees with the model: its own violation too.
      if (diff)
        because({ rules: echoRules(pet, item as Pet), mine: true }, () =>
          fail(res, msg`our pet as created: ${show(pet)}`, msg`${show(item)} (${diff})`),
        );
    }
    // Fewer items than the limit: the list is complete, so it holds every matching pet of ours.
    if (items.length < limit) {
      const missing = m.pets.find(
        (p) => (this.status === undefined || p.status === this.status) && !listed.has(idOf(p)),
      );
      const rules: RequirementId[] = ['consistency.create-then-list', ...shortListRules(res)];
      if (missing)
        because(rules, () =>
          fail(
            res,
            msg`every matching pet, as the list is complete (${items.length} < limit ${limit}), including ${show(missing)}`,
            msg`${petsCount(items.length)} without it`,
            { notStated: AFTER_OTHER_WRITES },
          ),
        );
    }
  }
  toString = () =>
    `listPets(${[this.limit === undefined ? '' : `limit=${this.limit}`, this.status === undefined ? '' : `status=${this.status}`].filter(Boolean).join(', ')})`;
}

/** Pets created per sequence, on average: what the allowance is divided by to size the runs. */
const CREATES_PER_SEQUENCE = 2;

/** The random sequences; made once (see plainNewPet). */
const commands = (): fc.Arbitrary<Iterable<PetCommand>> => (sequences ??= makeCommands());
let sequences: fc.Arbitrary<Iterable<PetCommand>> | undefined;

function makeCommands(): fc.Arbitrary<Iterable<PetCommand>> {
  // Plain pets: the model is about what a sequence shows.
  const create = plainNewPet().map((p): PetCommand => new CreatePet(p));
  const get = fc.nat({ max: 2 }).map((i): PetCommand => new GetPet(i));
  const list = fc
    .tuple(fc.option(validLimit(), { nil: undefined }), fc.option(statusFilter(), { nil: undefined }))
    .map(([l, s]): PetCommand => new ListPets(l, s));
  return fc.commands(
    [
      create,
      create,
      fc.oneof(...invalidBodies(plainNewPet()).map((r) => r.arbitrary)).map((i): PetCommand => new CreateInvalidPet(i)),
      get,
      get,
      fc.bigInt(UNKNOWN_ID_RANGE).map((id): PetCommand => new GetUnknownPet(id)),
      list,
      list,
    ],
    { maxCommands: 12, size: 'max' },
  );
}

/** An id from UNKNOWN_ID_RANGE, the same on every seed. */
const FIXED_UNKNOWN_ID = UNKNOWN_ID_RANGE.min + 20_260_101n;

/**
 * A sequence every seed runs before the random ones: each command at least once, a pet read back
 * after an invalid create, a complete filtered list, the smallest limit, so the faults a sequence
 * shows are caught on every seed, not only when a seed happens to draw the commands that show them.
 */
function scripted(): PetCommand[] {
  const refused: InvalidBody = {
    rule: { kind: 'missing', field: 'name', says: 'name is missing (required)' },
    body: { json: { categoryId: 1 } },
  };
  return [
    // Each create followed by a refused one, then every pet read back: a refusal that undoes the
    // create before it shows here unless other checks' creates came in between all four times.
    new CreatePet({ name: 'scripted', categoryId: 1, status: 'sold' }),
    new CreateInvalidPet(refused),
    new CreatePet({ name: 'scripted', categoryId: 2 }),
    new CreateInvalidPet(refused),
    new CreatePet({ name: 'scripted', categoryId: 3, status: 'available' }),
    new CreateInvalidPet(refused),
    new CreatePet({ name: 'scripted', categoryId: 4, status: 'pending' }),
    new CreateInvalidPet(refused),
    ...[0, 1, 2, 3].map((i) => new GetPet(i)),
    new ListPets(LIMIT.max, 'sold'),
    // One pet of each status is ours: at least two of these lists are short and miss ours on a
    // server that limits before it filters, whatever the store's first pet.
    ...PET_STATUSES.map((status) => new ListPets(LIMIT.min, status as PetStatus)),
    new ListPets(undefined, undefined),
    new ListPets(LIMIT.min, undefined),
    new GetUnknownPet(FIXED_UNKNOWN_ID),
    new CreateInvalidPet(refused),
    new GetPet(1),
    new ListPets(LIMIT.max, 'sold'),
  ];
}

/** The commands that ran, as a script, and fast-check's replay path for the sequence. */
function script(cmds: Iterable<PetCommand>): string {
  const ran = [...cmds].filter((c) => (c as { hasRan?: boolean }).hasRan !== false).map(String);
  const replay = (cmds as { metadataForReplay?: () => string }).metadataForReplay?.() ?? '';
  return `${ran.join(' → ')}${replay ? ` (${replay})` : ''}`;
}

/** Runs the model-based test; throws the Violation of the shrunk command sequence. */
export function checkModel(ctx: RunContext): Promise<void> {
  const getPetLive = getPetStage(ctx) === 'live';
  return checkProperty(ctx, {
    label: msg`mdl`,
    arbitrary: commands(),
    creates: { perRun: CREATES_PER_SEQUENCE, weight: CREATE_WEIGHTS.model },
    show: script,
    examples: [scripted()],
    // The sequences are the run's longest chains: all at once (as the allowance sizes them, a dozen
    // or so), they end with the rest of the run, not in a second wave after it.
    inFlight: WIDE_RUNS_IN_FLIGHT,
    predicate: (cmds, trial, ctx) =>
      fc.asyncModelRun(() => ({ model: { pets: [], left: trial.left, getPetLive }, real: { ctx, trial } }), cmds),
  });
}
