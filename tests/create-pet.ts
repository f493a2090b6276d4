// Interface section "Endpoints › Add an animal" (createPet).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  createdRules,
  describeRequest,
  expectError,
  expectErrorBody,
  expectNotServerError,
  fail,
} from '../src/checks/assert.js';
import type { ApiRequest, ApiResponse } from '../src/wire/wire.js';
import { exchangeOf } from '../src/wire/evidence.js';
import type { NewPet, Pet, PetStatus } from '../src/data/generated/schema-types.js';
import { exactInteger, INT64_MAX, INT64_MIN, show, type Int64 } from '../src/wire/json.js';
import { because, eachCase, Violation, type Requirement, type RequirementId } from '../src/checks/requirement.js';
import { POPULATION_PLAN, type RunContext } from '../src/checks/run.js';
import { PET_STATUSES, validate } from '../src/data/schemas.js';
import { expectStoredAsSent } from './pets.js';

const SECTION = 'Endpoints › Add an animal';
const STATUSES = PET_STATUSES as readonly PetStatus[];

type Body = NonNullable<ApiRequest['body']>;

/** What a rejected body would have created, so a listing can show it was not. */
interface Marker {
  /** Unique within the run, carrying the run tag. */
  name: string;
  /** Derived from the name: no one else's pet has it. */
  categoryId: bigint;
  /** A status whose list is likely complete, so the pet's absence can be proven. */
  status: PetStatus;
}

/** A body the interface says is answered 400, described by what is wrong with it. */
interface InvalidBody {
  what: string;
  body: (m: Marker) => Body;
}

const json = (value: unknown): Body => ({ json: value });
const isSuccess = (res: ApiResponse) => res.status >= 200 && res.status < 300;
const validFields = (m: Marker) => ({ name: m.name, categoryId: m.categoryId, status: m.status });

const MISSING_NAME: readonly InvalidBody[] = [
  { what: 'name is missing', body: (m) => json({ categoryId: m.categoryId, status: m.status }) },
];
const MISSING_CATEGORY: readonly InvalidBody[] = [
  { what: 'categoryId is missing', body: (m) => json({ name: m.name, status: m.status }) },
];
const NAME_TYPES: readonly InvalidBody[] = [
  { what: 'name is a number', body: (m) => json({ ...validFields(m), name: 42 }) },
  { what: 'name is null', body: (m) => json({ ...validFields(m), name: null }) },
  { what: 'name is an array', body: (m) => json({ ...validFields(m), name: [m.name] }) },
  { what: 'name is an object', body: (m) => json({ ...validFields(m), name: { value: m.name } }) },
];
const CATEGORY_TYPES: readonly InvalidBody[] = [
  { what: 'categoryId is a string of digits', body: (m) => json({ ...validFields(m), categoryId: '5' }) },
  { what: 'categoryId has a fraction', body: (m) => json({ ...validFields(m), categoryId: 1.5 }) },
  { what: 'categoryId is null', body: (m) => json({ ...validFields(m), categoryId: null }) },
  { what: 'categoryId is a boolean', body: (m) => json({ ...validFields(m), categoryId: true }) },
];
const CATEGORY_RANGE: readonly InvalidBody[] = [
  {
    what: 'categoryId is 2^63, one above the int64 maximum',
    body: (m) => json({ ...validFields(m), categoryId: INT64_MAX + 1n }),
  },
  {
    what: 'categoryId is -2^63-1, one below the int64 minimum',
    body: (m) => json({ ...validFields(m), categoryId: INT64_MIN - 1n }),
  },
];
const STATUS_ENUM: readonly InvalidBody[] = [
  { what: 'status "adopted" is not in the enumeration', body: (m) => json({ ...validFields(m), status: 'adopted' }) },
  {
    what: 'status "Available" is not in the enumeration (it is case-sensitive)',
    body: (m) => json({ ...validFields(m), status: 'Available' }),
  },
  { what: 'status is a number', body: (m) => json({ ...validFields(m), status: 1 }) },
];
const NOT_OBJECTS: readonly InvalidBody[] = [
  {
    what: 'the body is not JSON (cut short)',
    body: (m) => ({
      raw: `{"name": ${JSON.stringify(m.name)}, "categoryId": ${m.categoryId}, "status": "${m.status}"`,
    }),
  },
  { what: 'the body is empty', body: () => ({ raw: '' }) },
  { what: 'the body is a JSON array holding a valid NewPet', body: (m) => json([validFields(m)]) },
  { what: 'the body is JSON null', body: () => json(null) },
];

/** A category id derived from a unique name: another pet having it is a 1 in 2^60 chance. */
const categoryOf = (name: string): bigint =>
  2n ** 61n + BigInt(`0x${createHash('sha256').update(name).digest('hex').slice(0, 15)}`);

/**
 * The status likeliest to stay below 100 pets: the fewest now, counting what population
 * (ensurePopulation, run by other checks at the same time) may still add.
 */
async function quietStatus(ctx: RunContext): Promise<PetStatus> {
  const sizes = await Promise.all(
    STATUSES.map(async (s) => {
      const res = await ctx.api.listPets([
        ['status', s],
        ['limit', '100'],
      ]);
      return (res.status === 200 && Array.isArray(res.json) ? res.json.length : 100) + POPULATION_PLAN[s];
    }),
  );
  return STATUSES[sizes.indexOf(Math.min(...sizes))] ?? 'sold';
}

/**
 * A rejected body created nothing: every list that is provably complete (fewer Pets than the
 * limit asked for) lacks the pet it describes. Where no list is complete, nothing is claimed.
 */
async function expectNothingCreated(ctx: RunContext, rejected: ApiResponse, m: Marker): Promise<void> {
  const queries: [string, string][][] = [
    [['limit', '100']],
    ...STATUSES.map((s): [string, string][] => [
      ['status', s],
      ['limit', '100'],
    ]),
  ];
  await eachCase(queries, async (query) => {
    const list = await ctx.api.listPets(query);
    // Lists are judged by the listPets checks; an unusable one proves nothing here.
    if (list.status !== 200 || !validate('PetList', list.json).valid) return;
    const pets = list.json as Pet[];
    if (pets.length >= 100) return;
    const found = pets.find((p) => p.name === m.name || exactInteger(p.categoryId) === m.categoryId.toString());
    if (found) {
      throw new Violation(
        `${describeRequest(rejected)}: expected a rejected body to create nothing; got ${rejected.status}, yet ` +
          `${describeRequest(list)}, complete with ${pets.length} Pets (fewer than the limit), holds the pet it describes: ${show(found)}`,
        [exchangeOf(rejected), exchangeOf(list)],
      );
    }
  });
}

/** A requirement that each body in the table is answered 400 with an Error body and creates nothing. */
function rejects(id: RequirementId, statement: string, cases: readonly InvalidBody[]): Requirement {
  return {
    id,
    level: 'MUST',
    section: SECTION,
    statement,
    check: async (ctx) => {
      const status = await quietStatus(ctx);
      await eachCase(cases, async (c) => {
        const name = ctx.petName('rejected');
        const marker: Marker = { name, categoryId: categoryOf(name), status };
        const res = await ctx.api.createPet(undefined, { body: c.body(marker) });
        expectError(res, 400, c.what);
        await expectNothingCreated(ctx, res, marker);
      });
    },
  };
}

/** categoryId values at the edges of int64 and of what a double holds exactly. */
const EXTREMES: readonly (readonly [Int64, string])[] = [
  [0, 'zero'],
  [2n ** 53n + 1n, '2^53+1, the first integer a double cannot hold'],
  [-(2n ** 53n) - 3n, '-(2^53+3), a negative integer a double cannot hold'],
  [INT64_MAX, 'the int64 maximum'],
  [INT64_MIN, 'the int64 minimum'],
];

/** Names that break naive text handling; each follows the run's tagged name. */
const UNICODE_NAMES: readonly (readonly [string, string])[] = [
  ['emoji with joiners and skin tones (astral code points)', '🐈\u200D⬛ 🐕\u200D🦺 👩🏽\u200D🔬'],
  ['mathematical letters outside the BMP', '𝔓𝔢𝔱 𝟘𝟙'],
  ['CJK ideographs outside the BMP (supplementary planes)', '𠀋𡈽𪚲 𫝆'],
  ['CJK and Hangul', '小猫 ねこ 고양이'],
  ['right-to-left text with a mark', 'חתול \u200Fقطة'],
  ['combining marks, not normalised (NFD)', 'Zoe\u0308 Rene\u0301e A\u030Angstro\u0308m'],
];

/**
 * Names that read as JSON numbers, booleans or null, sent as the whole name (no run tag: a tag
 * would make them plain text; their ids are in the report's created pets): a server that parses
 * them, or stores names in a typed column, turns "007" into 7 on every seed, not by luck.
 */
export const LITERAL_NAMES: readonly string[] = ['007', '1e3', '-0', '0.10', 'true', 'false', 'null'];

/**
 * Extra fields, empty, padded and very long names: the interface does not say, so a 4xx Error is
 * allowed; an accepted body must be stored as sent.
 */
const GAPS: readonly (readonly [string, (ctx: RunContext) => NewPet & Record<string, unknown>])[] = [
  [
    'unknown extra fields',
    (ctx) => ({
      ...ctx.newPet({ categoryId: 2n ** 53n + 1n, status: 'sold' }),
      color: 'grey',
      tags: ['x'],
      owner: { name: 'someone' },
    }),
  ],
  ['an empty name', (ctx) => ({ ...ctx.newPet({ status: 'pending' }), name: '' })],
  ['white space at both ends of the name', (ctx) => ctx.newPet({ name: ` \t${ctx.petName('padded')}  ` })],
  [
    'a name of 10,000 characters',
    (ctx) => ({ ...ctx.newPet(), name: `${ctx.petName('long')} ${'x'.repeat(10_000)}`.slice(0, 10_000) }),
  ],
];

export const createPet: Requirement[] = [
  {
    id: 'createPet.minimal',
    level: 'MUST',
    section: SECTION,
    statement: 'A body with only name and categoryId is answered 201 with a Pet echoing both and a service-assigned id',
    check: async (ctx) => {
      const body = ctx.newPet({ categoryId: 7 });
      const { res } = await ctx.createPet(body);
      await expectStoredAsSent(ctx, body, res);
    },
  },
  {
    id: 'createPet.status-echo',
    level: 'MUST',
    section: SECTION,
    statement: 'A pet created with each status is answered with that status',
    check: (ctx) =>
      eachCase(STATUSES, async (status) => {
        const body = ctx.newPet({ status });
        const { res } = await ctx.createPet(body);
        await expectStoredAsSent(ctx, body, res, `a body with status "${status}"`);
      }),
  },
  {
    id: 'createPet.status-omitted',
    level: 'MUST',
    section: SECTION,
    statement: 'A pet created without status comes back with no status or one from the enumeration',
    // The default status is not shown: any value of the enumeration is fine, so the Pet schema says it all.
    check: async (ctx) => {
      const body = ctx.newPet();
      await expectStoredAsSent(ctx, body, (await ctx.createPet(body)).res);
    },
  },
  rejects(
    'createPet.missing-name',
    'A body without name is answered 400 with an Error body and creates nothing',
    MISSING_NAME,
  ),
  rejects(
    'createPet.missing-category',
    'A body without categoryId is answered 400 with an Error body and creates nothing',
    MISSING_CATEGORY,
  ),
  rejects(
    'createPet.name-type',
    'A name that is not a string (number, null, array, object) is answered 400 with an Error body and creates nothing',
    NAME_TYPES,
  ),
  rejects(
    'createPet.category-type',
    'A categoryId that is not an integer ("5", 1.5, null, true) is answered 400 with an Error body and creates nothing',
    CATEGORY_TYPES,
  ),
  rejects(
    'createPet.category-range',
    'A categoryId beyond int64 (2^63, -2^63-1) is answered 400 with an Error body and creates nothing',
    CATEGORY_RANGE,
  ),
  rejects(
    'createPet.status-enum',
    'A status outside the enumeration (adopted, Available, 1) is answered 400 with an Error body and creates nothing',
    STATUS_ENUM,
  ),
  rejects(
    'createPet.body-not-object',
    'A body that is not a JSON object (not JSON, empty, an array, null) is answered 400 with an Error body and creates nothing',
    NOT_OBJECTS,
  ),
  {
    id: 'createPet.client-id',
    level: 'MUST',
    section: SECTION,
    statement: 'An id sent by the client is never honoured: it is ignored, or the body is rejected with a 4xx',
    check: async (ctx) => {
      // From the seed, far above sequential ids: a server assigning its own id will not hit it.
      const [sent] = fc.sample(fc.noBias(fc.bigInt({ min: 2n ** 61n, max: 2n ** 62n - 1n })), {
        seed: ctx.config.seed,
        numRuns: 1,
      });
      ctx.reserveCreates(1, 'this check');
      const body = ctx.newPet();
      const res = await ctx.api.createPet({ id: sent, ...body });
      if (res.status === 201) {
        const pet = await expectStoredAsSent(ctx, body, res, 'the body besides its id');
        if (exactInteger(pet.id) === String(sent))
          fail(res, `a service-assigned id, not the id ${String(sent)} the client sent`, `id ${String(pet.id)}`);
      } else if (res.status >= 400 && res.status < 500) {
        expectErrorBody(res);
      } else {
        // Another 2xx than 201 is createPet.minimal's rule.
        because(isSuccess(res) ? createdRules(res, body) : [], () =>
          fail(res, '201 with an id the service assigned, or a 4xx with an Error body'),
        );
      }
    },
  },
  {
    id: 'createPet.int64-extremes',
    level: 'MUST',
    section: SECTION,
    statement: 'categoryId 0, 2^53+1, 2^63-1 and -2^63 are echoed and read back digit for digit',
    check: (ctx) =>
      eachCase(EXTREMES, async ([categoryId, what]) => {
        const body = ctx.newPet({ categoryId });
        await expectStoredAsSent(
          ctx,
          body,
          (await ctx.createPet(body)).res,
          `categoryId ${categoryId.toString()}, ${what}`,
        );
      }),
  },
  {
    id: 'createPet.unicode',
    level: 'MUST',
    section: SECTION,
    statement:
      'Names with emoji, CJK, right-to-left text and combining marks, or that read as numbers, booleans or null, are echoed and read back code point for code point',
    check: (ctx) =>
      eachCase(
        [
          ...UNICODE_NAMES.map(([what, text]) => [`a name with ${what}`, `${ctx.petName('unicode')} ${text}`] as const),
          ...LITERAL_NAMES.map((name) => [`the name ${JSON.stringify(name)}, which reads as JSON`, name] as const),
        ],
        async ([what, name]) => {
          const body = ctx.newPet({ name });
          await expectStoredAsSent(ctx, body, (await ctx.createPet(body)).res, what);
        },
      ),
  },
  {
    id: 'createPet.distinct-ids',
    level: 'MUST',
    section: SECTION,
    statement: 'Every created pet gets its own id, whether created one after another or at once',
    check: async (ctx) => {
      const created: { pet: Pet; res: ApiResponse }[] = [];
      for (let i = 0; i < 3; i++) created.push(await ctx.createPet(ctx.newPet({ name: ctx.petName('in turn') })));
      created.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, () => ctx.createPet(ctx.newPet({ name: ctx.petName('at once') }))),
        )),
      );
      const seen = new Map<string, Pet>();
      for (const { pet, res } of created) {
        const id = exactInteger(pet.id) ?? String(pet.id);
        const earlier = seen.get(id);
        if (earlier)
          fail(
            res,
            `an id no other pet has (${created.length} created: 3 in turn, then 5 at once)`,
            `id ${id}, already given to ${show(earlier)}`,
          );
        seen.set(id, pet);
      }
    },
  },
  {
    id: 'createPet.gaps',
    level: 'MUST',
    section: SECTION,
    statement:
      'Unknown extra fields, an empty, padded or very long name get a 4xx Error, or 201 with the body stored as sent; never a 5xx',
    check: async (ctx) => {
      // Each may be accepted, so each may create.
      ctx.reserveCreates(GAPS.length, 'this check');
      await eachCase(GAPS, async ([what, body]) => {
        const sent = body(ctx);
        const res = await ctx.api.createPet(sent);
        expectNotServerError(res);
        if (res.status === 201) await expectStoredAsSent(ctx, sent, res, `a body with ${what}`);
        else if (res.status >= 400 && res.status < 500) expectErrorBody(res);
        else
          because(isSuccess(res) ? createdRules(res, sent) : [], () =>
            fail(res, `201 with a Pet or a 4xx with an Error body (${what}: the interface leaves it open)`),
          );
      });
    },
  },
];
