// Interface section "Endpoints › Get an animal (deprecated)" (getPet), and its deprecation
// ("Versioning"): removal is scheduled for 5 December 2030, the replacement is GET /pets.
// Retrieval checks run while getPet is live (by the suite's clock); getPet.removal covers after.
import { expectHeader, expectNoHeader, expectPet, expectStatus, fail } from '../src/checks/assert.js';
import { expectError } from './rules/assert.js';
import type { ApiResponse } from '../src/wire/requests.js';
import { IMF_FIXDATE, parseImfFixdate, parseLinks, parseSfDate, resolvedPath, SF_DATE } from '../src/wire/headers.js';
import { exactInteger, INT64_MAX, INT64_MIN, show } from '../src/wire/json.js';
import type { Requirement } from '../src/checks/requirement.js';
import { because, eachCase, Skip, Violation } from '../src/checks/requirement.js';
import type { RunContext } from '../src/checks/context.js';
import { validate } from '../src/data/schemas.js';
import type { Pet } from '../src/data/generated/schema-types.js';
import {
  anExistingPetId,
  clockSays,
  expectSuccess,
  GETPET_REMOVAL,
  getPetGone,
  getPetStage,
  operations,
} from './operations.js';
import { quoted } from '../src/wire/redact.js';
import { msg, words } from '../src/checks/message.js';
import { PET_ID_LENIENCIES } from './leniencies/index.js';
import { blockIfTwin, samePet, unknownPetIds } from './pets.js';
import { looksRounded } from './rules/list-answers.js';
import { createFixture } from './fixtures.js';

const SECTION = 'Endpoints › Get an animal (deprecated)';
const VERSIONING = 'Versioning';

/** Skips the check unless getPet is live at the suite's clock. */
function requireLive(ctx: RunContext): void {
  const gone = getPetGone(ctx);
  if (gone) throw new Skip(gone);
}

/** The created Pet, as the answer one exchange before its read-back gave it. */
const CREATED = { back: 1, of: 'response' } as const;

/** A pet this check creates is read back unchanged. */
async function readBackCreated(ctx: RunContext): Promise<void> {
  const { pet, res: created } = await createFixture(ctx, ctx.newPet({ status: 'pending' }));
  const res = await ctx.api.getPet(pet.id);
  // Gone (410) before its day is getPet.removal's rule; another pet of this run, createPet.distinct-ids'.
  because(res.status === 410 ? ['getPet.removal'] : [], () => expectStatus(res, 200));
  const got = expectPet(res);
  blockIfTwin(ctx, pet, got);
  const diff = samePet(pet, got);
  // Compared member by member with the created Pet, as samePet does.
  const sameAs = Object.fromEntries(['id', 'name', 'categoryId', 'status'].map((f) => [f, CREATED]));
  if (diff) fail(res, msg`the created pet ${show(pet)}`, msg`${show(got)} (${diff})`, { sameAs }, created);
}

/**
 * The first and last pets of a full list, whoever created them, are read back with their ids: a
 * store is judged on the pets it holds, not only on those this run wrote.
 */
async function readBackListed(ctx: RunContext): Promise<void> {
  const list = await ctx.api.listPets([['limit', '100']]);
  // A list refused or invalid is listPets.ok's finding: nothing to read back here.
  if (list.status !== 200 || !validate('PetList', list.json).valid)
    throw new Skip(msg`no valid list to take pets from (listPets.ok judges it)`);
  const pets = list.json as Pet[];
  const picked = [
    ...new Map([pets[0], pets[pets.length - 1]].flatMap((p) => (p ? [[exactInteger(p.id), p] as const] : []))).values(),
  ];
  if (picked.length === 0) throw new Skip(msg`the store lists no pet`);
  for (const pet of picked) {
    const res = await ctx.api.getPet(pet.id);
    const id = exactInteger(pet.id) ?? '';
    const what = msg`id ${quoted(id)}, as GET /pets lists it: ${show(pet)}`;
    // Not found under an id a double holds exactly: what came back says why, where a cut line keeps it.
    if (res.status === 404 && looksRounded(id))
      fail(res, msg`200 (${what})`, msg`404, for an id ≥ 2^53 and exact in a double: rounded?`);
    because(res.status === 410 ? ['getPet.removal'] : [], () => expectStatus(res, 200, what));
    const got = expectPet(res);
    if (exactInteger(got.id) !== exactInteger(pet.id)) fail(res, msg`${what}, with its id`, msg`${show(got)}`);
  }
}

/** A 200 answer of the deprecated operation, whose headers announce the deprecation. */
async function deprecatedAnswer(ctx: RunContext): Promise<ApiResponse> {
  requireLive(ctx);
  const id = await anExistingPetId(ctx);
  if (id === undefined) throw new Skip(msg`no pet to fetch: the store lists none and this run may not create one`);
  const res = await ctx.api.getPet(id);
  expectSuccess({ name: 'getPet', success: 200 }, res, msg`a pet that exists`);
  return res;
}

/** The replacement the Link header should point at: the /pets collection under the base URL. */
function isCollection(ctx: RunContext, target: string, requestUrl: string): boolean {
  return resolvedPath(target, requestUrl) === ctx.listPath;
}

export const getPet: Requirement[] = [
  {
    id: 'getPet.existing',
    level: 'MUST',
    section: SECTION,
    statement: 'A pet the suite created is answered 200 with the same Pet, and a pet a list shows with the same id',
    check: async (ctx) => {
      requireLive(ctx);
      await eachCase(ctx, ['created', 'listed'] as const, (which) =>
        which === 'created' ? readBackCreated(ctx) : readBackListed(ctx),
      );
    },
  },
  {
    id: 'getPet.unknown',
    level: 'MUST',
    section: SECTION,
    statement: 'An id no pet has is answered 404 with an Error body',
    check: async (ctx) => {
      requireLive(ctx);
      await eachCase(ctx, unknownPetIds(ctx), async (id) => {
        expectError(await ctx.api.getPet(id), 404, msg`no pet has this id`);
      });
    },
  },
  {
    id: 'getPet.malformed-id',
    level: 'MUST',
    section: SECTION,
    statement:
      'An id that is not an int64 (abc, 1.5, beyond int64 either way) is answered 400 or 404 with an Error body, never 5xx',
    inputs: PET_ID_LENIENCIES,
    check: async (ctx) => {
      requireLive(ctx);
      const ids = ['abc', '1.5', 'true', String(INT64_MAX + 1n), String(INT64_MIN - 1n)];
      // The catalogue's forms of a pet that exists: a server that forgives one answers with that pet.
      // One that cannot create it is createPet's finding; here those cases are not run.
      const existing = await anExistingPetId(ctx).catch((err: unknown) => {
        if (err instanceof Violation || err instanceof Skip) return undefined;
        throw err;
      });
      await eachCase(ctx, [...ids, ...PET_ID_LENIENCIES], async (c) => {
        if (typeof c === 'string') {
          expectError(await ctx.api.getPet(c), [400, 404], msg`petId is an int64`);
          return;
        }
        if (existing === undefined) throw new Skip(msg`no pet to fetch: the store lists none`);
        const res = await ctx.coverage.sending(c, ctx.api.getPet(c.value(String(existing))));
        const what = msg`${words(c.what)}, pet ${quoted(String(existing))} exists`;
        // A reading left open: the pet, or a refusal with an Error body; never a 5xx.
        if (c.level !== 'allowed' || res.status !== 200) expectError(res, [400, 404], what);
      });
    },
  },
  {
    id: 'getPet.removal',
    level: 'MUST',
    section: VERSIONING,
    statement:
      'getPet works until its removal day, 5 December 2030; after it, it is answered 410 or 404 with an Error body',
    check: async (ctx) => {
      const stage = getPetStage(ctx);
      if (stage === 'removal-day') throw new Skip(getPetGone(ctx) ?? msg``);
      const existing = await anExistingPetId(ctx);
      const [unknown] = unknownPetIds(ctx);
      if (stage === 'live') {
        const before = msg`getPet is removed only on ${GETPET_REMOVAL.day}; the suite's clock says ${clockSays(ctx)}`;
        if (existing !== undefined)
          expectStatus(await ctx.api.getPet(existing), 200, msg`a pet that exists: ${before}`);
        const res = await ctx.api.getPet(unknown);
        if (res.status === 410) fail(res, msg`404 for an unknown id, not 410 Gone: ${before}`);
        return;
      }
      const after = msg`getPet was removed on ${GETPET_REMOVAL.day}; the suite's clock says ${clockSays(ctx)}`;
      const ids = existing === undefined ? [unknown] : [existing, unknown];
      await eachCase(ctx, ids, async (id) => {
        expectError(
          await ctx.api.getPet(id),
          [410, 404],
          msg`${exactInteger(id) === exactInteger(existing) ? msg`a pet that exists` : msg`an unknown id`}: ${after}`,
        );
      });
    },
  },
  {
    id: 'getPet.deprecation-header',
    level: 'SHOULD',
    section: VERSIONING,
    // RFC 9745 §2: Deprecation is a Structured Field Date; draft versions used "true".
    statement: 'getPet answers carry a Deprecation header in RFC 9745 form, @<unix-seconds>',
    check: async (ctx) => {
      const res = await deprecatedAnswer(ctx);
      expectHeader(
        res,
        msg`Deprecation`,
        msg`a date in RFC 9745 form, @<unix-seconds> (the draft form "true" is obsolete)`,
        (v) => parseSfDate(v) !== undefined,
        SF_DATE,
      );
    },
  },
  {
    id: 'getPet.sunset-header',
    level: 'SHOULD',
    section: VERSIONING,
    // RFC 8594 §3: Sunset is an HTTP-date, which senders write as an IMF-fixdate (RFC 9110 §5.6.7).
    statement:
      'getPet answers carry a Sunset header, an IMF-fixdate in GMT on 5 December 2030, not earlier than the Deprecation date (RFC 8594)',
    check: async (ctx) => {
      const res = await deprecatedAnswer(ctx);
      const value = expectHeader(
        res,
        msg`Sunset`,
        msg`an HTTP date in IMF-fixdate form, e.g. "Thu, 05 Dec 2030 00:00:00 GMT" (RFC 9110 §5.6.7)`,
        (v) => parseImfFixdate(v) !== undefined,
        IMF_FIXDATE,
      );
      const sunset = parseImfFixdate(value) as Date;
      // 5 December in any time zone: from its start at UTC+14 to its end at UTC-12.
      expectHeader(
        res,
        msg`Sunset`,
        msg`a time on ${GETPET_REMOVAL.day}, the scheduled removal`,
        () => sunset >= GETPET_REMOVAL.starts && sunset < GETPET_REMOVAL.ends,
        undefined,
        { date: 'imf-fixdate', from: GETPET_REMOVAL.starts.toISOString(), before: GETPET_REMOVAL.ends.toISOString() },
      );
      const deprecation = parseSfDate(res.headers.deprecation ?? '');
      if (deprecation && sunset < deprecation) {
        fail(
          res,
          msg`a Sunset not earlier than the Deprecation date (RFC 9745)`,
          msg`Sunset: ${show(value)} before Deprecation: ${show(res.headers.deprecation)}`,
          { headerParsed: { sunset: { date: 'imf-fixdate', notBefore: { header: 'deprecation', date: 'sf-date' } } } },
        );
      }
    },
  },
  {
    id: 'getPet.successor-link',
    level: 'SHOULD',
    section: VERSIONING,
    // Sound practice for a deprecation: link (RFC 8288) to the replacement, usually rel="successor-version" (RFC 5829).
    statement: 'getPet answers carry a Link header pointing at the replacement, the /pets collection (RFC 8288)',
    check: async (ctx) => {
      const res = await deprecatedAnswer(ctx);
      expectHeader(
        res,
        msg`Link`,
        // The path under the configured base URL: a quote, as the base URL is.
        msg`a link to the replacement, the /pets collection (e.g. <${quoted(ctx.listPath)}>; rel="successor-version")`,
        (v) => parseLinks(v).some((link) => isCollection(ctx, link.target, res.request.url)),
        undefined,
        { linksTo: '/pets' }, // ctx.listPath, under whatever base URL the test is given
      );
    },
  },
  {
    id: 'getPet.no-deprecation-elsewhere',
    level: 'SHOULD',
    section: VERSIONING,
    // RFC 9745: the header says the resource it comes with is deprecated; only getPet is.
    statement: 'listPets and createPet answers carry no Deprecation header: only getPet is deprecated',
    check: (ctx) => {
      const others = operations.filter((op) => op.name === 'listPets' || op.name === 'createPet');
      return eachCase(ctx, others, async (op) => {
        const res = await op.send(ctx);
        expectSuccess(op, res);
        expectNoHeader(res, msg`Deprecation`, msg`only getPet is deprecated, not ${op.name}`);
      });
    },
  },
];
