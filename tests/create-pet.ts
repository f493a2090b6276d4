// Interface section "Endpoints › Add an animal" (createPet).
import { expectNotServerError, fail, type Expectation } from '../src/checks/assert.js';
import { expectCreatedId, expectErrorBody, sentAtOnce } from './rules/assert.js';
import { createdRules } from './rules/blame.js';
import type { ApiResponse } from '../src/wire/requests.js';
import type { NewPet, PetStatus } from '../src/data/generated/schema-types.js';
import { INT64_MAX, INT64_MIN, show, type Int64 } from '../src/wire/json.js';
import { quoted } from '../src/wire/redact.js';
import { msg, words, type Message } from '../src/checks/message.js';
import { BODY_LENIENCIES, INT64_EDGE_CATEGORIES } from './leniencies/index.js';
import { roundedIdHint } from './rules/list-answers.js';
import { because, eachCase, type Requirement, type RequirementId } from '../src/checks/requirement.js';
import type { RunContext } from '../src/checks/context.js';
import { PET_STATUSES } from '../src/data/schemas.js';
import { expectStoredAsSent } from './pets.js';
import { clientIds, keptAs } from './client-ids.js';
import {
  CATEGORY_RANGE,
  CATEGORY_TYPES,
  MISSING_CATEGORY,
  MISSING_NAME,
  NAME_TYPES,
  NOT_OBJECTS,
  rejects,
  SECTION,
  STATUS_ENUM,
} from './create-pet-rejects.js';
import { isSuccess } from './operations.js';
import { int64Property, invalidBodyProperty, unicodeProperty } from './properties/create-pet.js';
import { createFixture } from './fixtures.js';

const STATUSES = PET_STATUSES as readonly PetStatus[];

/** What createPet.client-id asks of a 2xx answer, as data: no form of the id the request `back` exchanges before sent. */
const notKept = (back: number): Expectation => ({ notKept: { id: { back, of: 'request' } } });
/** What it asks of the create's own answer: no 5xx either (201, or a 4xx with an Error body). */
const CREATE_ANSWER: Expectation = { statusBelow: 500, ...notKept(0) };

/** Bodies of the catalogue in readings left open (a byte order mark, a repeated key, N.0 for an integer). */
const OPEN_BODIES = BODY_LENIENCIES.filter((e) => e.requirement === 'createPet.gaps');

/** A table of bodies refused with 400 (rejects), with its property over generated bodies breaking the same rules. */
const refuses = (id: RequirementId, statement: string, cases: Parameters<typeof rejects>[2]): Requirement => ({
  ...rejects(id, statement, cases),
  properties: [invalidBodyProperty(id)],
});

/** categoryId values at the edges of int64 and of what a double holds exactly. */
const EXTREMES: readonly (readonly [Int64, Message])[] = [
  [0, msg`zero`],
  [2n ** 53n + 1n, msg`2^53+1, the first integer a double cannot hold`],
  [-(2n ** 53n) - 3n, msg`-(2^53+3), a negative integer a double cannot hold`],
  [INT64_MAX, msg`the int64 maximum`],
  [INT64_MIN, msg`the int64 minimum`],
  // The edges int64() draws from, each on every run (tests/leniencies/constants.ts).
  ...INT64_EDGE_CATEGORIES.filter((e) => ![0n, 2n ** 53n + 1n, INT64_MAX, INT64_MIN].includes(e.value)).map(
    (e) => [e.value, words(e.what)] as const,
  ),
];

/** Names that break naive text handling; each follows the run's tagged name. */
const UNICODE_NAMES: readonly (readonly [Message, string])[] = [
  [msg`emoji with joiners and skin tones (astral code points)`, '🐈\u200D⬛ 🐕\u200D🦺 👩🏽\u200D🔬'],
  [msg`mathematical letters outside the BMP`, '𝔓𝔢𝔱 𝟘𝟙'],
  [msg`CJK ideographs outside the BMP (supplementary planes)`, '𠀋𡈽𪚲 𫝆'],
  [msg`CJK and Hangul`, '小猫 ねこ 고양이'],
  [msg`right-to-left text with a mark`, 'חתול \u200Fقطة'],
  [msg`combining marks, not normalised (NFD)`, 'Zoe\u0308 Rene\u0301e A\u030Angstro\u0308m'],
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
const GAPS: readonly (readonly [Message, (ctx: RunContext) => NewPet & Record<string, unknown>])[] = [
  [
    msg`unknown extra fields`,
    (ctx) => ({
      ...ctx.newPet({ categoryId: 2n ** 53n + 1n, status: 'sold' }),
      color: 'grey',
      tags: ['x'],
      owner: { name: 'someone' },
    }),
  ],
  [msg`an empty name`, (ctx) => ({ ...ctx.newPet({ status: 'pending' }), name: '' })],
  [msg`white space at both ends of the name`, (ctx) => ctx.newPet({ name: ` \t${ctx.petName('padded')}  ` })],
  [
    msg`a name of 10,000 characters`,
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
      const { res } = await createFixture(ctx, body);
      await expectStoredAsSent(ctx, body, res, ['name', 'categoryId']);
    },
  },
  {
    id: 'createPet.status-echo',
    level: 'MUST',
    section: SECTION,
    statement: 'A pet created with each status is answered with that status',
    check: (ctx) =>
      eachCase(ctx, STATUSES, async (status) => {
        const body = ctx.newPet({ status });
        const { res } = await createFixture(ctx, body);
        await expectStoredAsSent(ctx, body, res, ['status'], msg`a body with status "${quoted(status)}"`);
      }),
  },
  {
    id: 'createPet.status-omitted',
    level: 'MUST',
    section: SECTION,
    statement: 'A pet created without status comes back with no status or one from the enumeration',
    // The default status is not shown: any value of the enumeration is fine, so the Pet schema says
    // it all, in the 201 and read back. Whether the other fields came back as sent is not this rule's.
    check: async (ctx) => {
      const body = ctx.newPet();
      await expectStoredAsSent(ctx, body, (await createFixture(ctx, body)).res, []);
    },
  },
  refuses(
    'createPet.missing-name',
    'A body without name is answered 400 with an Error body and creates nothing',
    MISSING_NAME,
  ),
  refuses(
    'createPet.missing-category',
    'A body without categoryId is answered 400 with an Error body and creates nothing',
    MISSING_CATEGORY,
  ),
  refuses(
    'createPet.name-type',
    'A name that is not a string (number, null, array, object) is answered 400 with an Error body and creates nothing',
    NAME_TYPES,
  ),
  refuses(
    'createPet.category-type',
    'A categoryId that is not an integer ("5", 1.5, null, true) is answered 400 with an Error body and creates nothing',
    CATEGORY_TYPES,
  ),
  {
    ...refuses(
      'createPet.category-range',
      'A categoryId beyond int64 (2^63, -2^63-1) is answered 400 with an Error body and creates nothing',
      CATEGORY_RANGE,
    ),
    fragile: true,
  },
  refuses(
    'createPet.status-enum',
    'A status outside the enumeration (adopted, Available, 1) is answered 400 with an Error body and creates nothing',
    STATUS_ENUM,
  ),
  refuses(
    'createPet.body-not-object',
    'A body that is not a JSON object (not JSON, empty, an array, null) is answered 400 with an Error body and creates nothing',
    NOT_OBJECTS,
  ),
  {
    id: 'createPet.client-id',
    level: 'MUST',
    section: SECTION,
    statement:
      'An id sent by the client is never honoured, in any form (as sent, rounded to a double, cut to 53 or 32 bits, ' +
      'as a string): it is ignored, or the body is rejected with a 4xx',
    check: (ctx) =>
      eachCase(ctx, clientIds(ctx.config.seed), async ([sent, what]) => {
        ctx.reserveCreates(1, msg`this check`);
        const body = ctx.newPet();
        const res = await ctx.api.createPet({ id: sent, ...body });
        if (res.status === 201) {
          // The answer's id first: a server that used the client's id may then fail to read it back.
          const kept = keptAs((res.json as { id?: unknown } | null)?.id, sent);
          if (kept)
            fail(
              res,
              msg`a service-assigned id, not the id ${quoted(String(sent))} the client sent (${what})`,
              kept,
              CREATE_ANSWER,
            );
          // Any other id is the service's, unless reading it back shows the client's. Without an
          // id there is nothing to judge; whether the rest came back as sent is createPet.minimal's.
          const id = expectCreatedId(res, body, msg`the body besides its id`);
          const read = await ctx.api.getPet(id);
          const stored = read.status === 200 ? keptAs((read.json as { id?: unknown } | null)?.id, sent) : undefined;
          if (stored)
            fail(
              read,
              msg`pet ${quoted(id)} as the service assigned it, not the client's id ${quoted(String(sent))}`,
              stored,
              notKept(1),
              res,
            );
        } else if (res.status >= 400 && res.status < 500) {
          expectErrorBody(res);
        } else {
          // Another 2xx than 201 is createPet.minimal's rule.
          because(isSuccess(res) ? createdRules(res, body) : [], () =>
            fail(res, msg`201 with an id the service assigned, or a 4xx with an Error body`, undefined, CREATE_ANSWER),
          );
        }
      }),
  },
  {
    id: 'createPet.int64-extremes',
    properties: [int64Property],
    level: 'MUST',
    section: SECTION,
    statement: 'categoryId 0, 2^53+1, 2^63-1 and -2^63 are echoed and read back digit for digit',
    inputs: INT64_EDGE_CATEGORIES,
    check: (ctx) =>
      eachCase(ctx, EXTREMES, async ([categoryId, what]) => {
        const input = INT64_EDGE_CATEGORIES.find((e) => e.value === BigInt(categoryId));
        const body = ctx.newPet({ categoryId });
        await expectStoredAsSent(
          ctx,
          body,
          (await ctx.coverage.sending(input, createFixture(ctx, body))).res,
          ['categoryId'],
          msg`categoryId ${categoryId}, ${what}`,
        );
      }),
  },
  {
    id: 'createPet.unicode',
    properties: [unicodeProperty],
    level: 'MUST',
    section: SECTION,
    statement:
      'Names with emoji, CJK, right-to-left text and combining marks, or that read as numbers, booleans or null, ' +
      'are echoed and read back code point for code point',
    check: (ctx) =>
      eachCase(
        ctx,
        [
          ...UNICODE_NAMES.map(
            ([what, text]) => [msg`a name with ${what}`, `${ctx.petName('unicode')} ${text}`] as const,
          ),
          ...LITERAL_NAMES.map(
            (name) => [msg`the name ${quoted(JSON.stringify(name))}, which reads as JSON`, name] as const,
          ),
        ],
        async ([what, name]) => {
          const body = ctx.newPet({ name });
          await expectStoredAsSent(ctx, body, (await createFixture(ctx, body)).res, ['name'], what);
        },
      ),
  },
  {
    id: 'createPet.distinct-ids',
    level: 'MUST',
    section: SECTION,
    statement: 'Every created pet gets its own id, whether created one after another or at once',
    check: async (ctx) => {
      ctx.reserveCreates(8, msg`this check`);
      // Only the ids are this rule's: an answer whose other fields are wrong still shows its id.
      const create = async (what: string) => {
        const body = ctx.newPet({ name: ctx.petName(what) });
        const res = await ctx.api.createPet(body);
        return { id: expectCreatedId(res, body, msg`the pet must be created`), res };
      };
      const created: { id: string; res: ApiResponse }[] = [];
      for (let i = 0; i < 3; i++) created.push(await create('in turn'));
      created.push(...(await sentAtOnce(5, () => create('at once'))));
      const seen = new Map<string, ApiResponse>();
      for (const { id, res } of created) {
        const earlier = seen.get(id);
        if (earlier)
          fail(
            res,
            msg`an id no other pet has (${created.length} created: 3 in turn, then 5 at once)`,
            msg`id ${quoted(id)}${roundedIdHint(id)}, already given to ${show(earlier.json)}`,
            { differsFrom: { id: { back: 1, of: 'response' } } },
            earlier,
          );
        seen.set(id, res);
      }
    },
  },
  {
    id: 'createPet.gaps',
    level: 'MUST',
    section: SECTION,
    statement:
      'Unknown extra fields, an empty, padded or very long name get a 4xx Error, or 201 with the body stored as sent; never a 5xx',
    inputs: OPEN_BODIES,
    check: async (ctx) => {
      // Each may be accepted, so each may create.
      ctx.reserveCreates(GAPS.length + OPEN_BODIES.length, msg`this check`);
      // Readings the interface and its standards leave open: accepted in any reading, or refused.
      await eachCase(ctx, OPEN_BODIES, async (input) => {
        const fields = { name: ctx.petName('open'), categoryId: 7n, status: 'available' };
        const res = await ctx.coverage.sending(
          input,
          ctx.api.createPet(undefined, { body: { raw: input.value(fields) } }),
        );
        expectNotServerError(res);
        if (res.status >= 400 && res.status < 500) expectErrorBody(res);
        else if (res.status !== 201)
          fail(res, msg`201 or a 4xx with an Error body (${words(input.what)}: a reading left open)`);
      });
      await eachCase(ctx, GAPS, async ([what, body]) => {
        const sent = body(ctx);
        const res = await ctx.api.createPet(sent);
        expectNotServerError(res);
        // "Stored as sent" is this rule's own word, for every field.
        if (res.status === 201)
          await expectStoredAsSent(ctx, sent, res, ['name', 'categoryId', 'status'], msg`a body with ${what}`);
        else if (res.status >= 400 && res.status < 500) expectErrorBody(res);
        else
          because(isSuccess(res) ? createdRules(res, sent) : [], () =>
            fail(res, msg`201 with a Pet or a 4xx with an Error body (${what}: the interface leaves it open)`),
          );
      });
    },
  },
];
