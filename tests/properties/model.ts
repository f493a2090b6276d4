// Model-based test of the store (fast-check commands): random sequences of create, create-invalid,
// get, get-unknown and list run against the target while a model tracks the pets the sequence
// created. The model knows only our pets, so a shared store full of others' pets is no problem:
// after every command the target must agree with it.
import fc from 'fast-check';
import { expectCreated, expectError, expectPet, expectPetList, expectStatus, fail } from '../../src/assert.js';
import type { NewPet, Pet, PetStatus } from '../../src/generated/schema-types.js';
import { invalidBodies, LIMIT, newPet, plainText, statusFilter, validLimit, type InvalidBody } from '../../src/generators.js';
import { exactInteger, show } from '../../src/json.js';
import { checkProperty, type Trial } from '../../src/property.js';
import { because } from '../../src/requirement.js';
import type { RunContext } from '../../src/run.js';
import { echoDifference, echoRules, readBackRules, samePet, shortListRules, UNKNOWN_ID_RANGE } from '../pets.js';
import { expectSuccess, getPetStage } from '../operations.js';
import { invalidBodyRequirement } from './create-pet.js';
import { CREATE_WEIGHTS, taggedBody } from './shared.js';

// Each command's answer is first the rule of the requirement of that one operation (a fixture's
// create, getPet, the list's limit); the model's own finding is what only a sequence shows.
const DISTINCT_IDS = ['createPet.distinct-ids'];

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
    await trial.take();
    const res = await ctx.api.createPet(body);
    if (res.status !== 201) trial.giveBack();
    const pet = expectCreated(res, body);
    const wrong = echoDifference(body, pet);
    if (wrong) because(echoRules(body, pet), () => fail(res, 'the sent fields echoed exactly', wrong));
    const twin = m.pets.find((p) => idOf(p) === idOf(pet));
    if (twin) because(DISTINCT_IDS, () => fail(res, 'a new id', `id ${idOf(pet)}, already given to ${show(twin)} earlier in this sequence`));
    if (ctx.ledger.filter((id) => exactInteger(id) === idOf(pet)).length > 1) because(DISTINCT_IDS, () => fail(res, 'a new id', `id ${idOf(pet)}, already given to another pet this run created`));
    m.pets.push(pet);
  }
  toString = () => `createPet(${show(this.pet)})`;
}

class CreateInvalidPet implements PetCommand {
  constructor(readonly invalid: InvalidBody) {}
  check = (m: Readonly<Model>) => m.left() > 0;
  async run(_m: Model, { ctx, trial }: Real): Promise<void> {
    const { body } = taggedBody(this.invalid.body, trial);
    await trial.take();
    const res = await ctx.api.createPet(null, { body });
    if (res.status !== 201) trial.giveBack();
    const requirement = invalidBodyRequirement(this.invalid);
    because(requirement ? [requirement] : [], () => expectError(res, 400, this.invalid.rule.says));
  }
  toString = () => `createPet(${'raw' in this.invalid.body ? show(this.invalid.body.raw) : show(this.invalid.body.json)}) where ${this.invalid.rule.says}`;
}

class GetPet implements PetCommand {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.getPetLive && this.index < m.pets.length;
  async run(m: Model, { ctx }: Real): Promise<void> {
    const pet = m.pets[this.index] as Pet;
    const res = await ctx.api.getPet(pet.id);
    expectSuccess({ name: 'getPet', success: 200 }, res, 'a pet this sequence created');
    const got = expectPet(res);
    const diff = samePet(pet, got);
    if (diff) because(readBackRules(ctx, pet, got), () => fail(res, `the pet as created: ${show(pet)}`, `${show(got)} (${diff})`));
  }
  toString = () => `getPet(created[${this.index}])`;
}

class GetUnknownPet implements PetCommand {
  constructor(readonly id: bigint) {}
  check = (m: Readonly<Model>) => m.getPetLive;
  async run(_m: Model, { ctx }: Real): Promise<void> {
    if (ctx.ledger.some((id) => exactInteger(id) === this.id.toString())) return;
    const res = await ctx.api.getPet(this.id);
    because(['getPet.unknown'], () => expectError(res, 404, 'an id no pet has'));
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
    expectStatus(res, 200, 'an allowed limit and filter');
    const items = expectPetList(res);
    const limit = this.limit ?? LIMIT.default;
    if (items.length > limit) because(['listPets.limit.respected'], () => fail(res, `at most ${limit} Pets`, `${items.length} Pets`));
    const other = this.status === undefined ? undefined : items.find((p) => p.status !== this.status);
    if (other) because(['listPets.status.filter'], () => fail(res, `only pets with status "${this.status}"`, `${show(other)}`));
    const listed = new Map(items.map((p) => [idOf(p), p]));
    for (const pet of m.pets) {
      const item = listed.get(idOf(pet));
      const diff = item && samePet(pet, item);
      if (diff) because(echoRules(pet, item as Pet), () => fail(res, `our pet as created: ${show(pet)}`, `${show(item)} (${diff})`));
    }
    // Fewer items than the limit: the list is complete, so it holds every matching pet of ours.
    if (items.length < limit) {
      const missing = m.pets.find((p) => (this.status === undefined || p.status === this.status) && !listed.has(idOf(p)));
      const rules = ['consistency.create-then-list', ...shortListRules(res)];
      if (missing) because(rules, () => fail(res, `every matching pet, as the list is complete (${items.length} < limit ${limit}), including ${show(missing)}`, `${items.length} Pets without it`));
    }
  }
  toString = () => `listPets(${[this.limit === undefined ? '' : `limit=${this.limit}`, this.status === undefined ? '' : `status=${this.status}`].filter(Boolean).join(', ')})`;
}

/** Pets created per sequence, on average: what the allowance is divided by to size the runs. */
const CREATES_PER_SEQUENCE = 2;

function commands(): fc.Arbitrary<Iterable<PetCommand>> {
  const valid = newPet({ name: plainText() });
  const create = valid.map((p): PetCommand => new CreatePet(p));
  const get = fc.nat({ max: 2 }).map((i): PetCommand => new GetPet(i));
  const list = fc.tuple(fc.option(validLimit(), { nil: undefined }), fc.option(statusFilter(), { nil: undefined })).map(([l, s]): PetCommand => new ListPets(l, s));
  return fc.commands(
    [
      create,
      create,
      fc.oneof(...invalidBodies(valid).map((r) => r.arbitrary)).map((i): PetCommand => new CreateInvalidPet(i)),
      get,
      get,
      fc.bigInt(UNKNOWN_ID_RANGE).map((id): PetCommand => new GetUnknownPet(id)),
      list,
      list,
    ],
    { maxCommands: 12, size: 'max' },
  );
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
    label: 'mdl',
    arbitrary: commands(),
    creates: { perRun: CREATES_PER_SEQUENCE, weight: CREATE_WEIGHTS.model },
    show: script,
    predicate: (cmds, trial) => fc.asyncModelRun(() => ({ model: { pets: [], left: trial.left, getPetLive }, real: { ctx, trial } }), cmds),
  });
}
