// Interface section "Errors": every error the service gives carries the Error body, its status
// equals the HTTP status, errors are JSON, and no malformed input makes the server fail. The three
// Error rules judge every error answer of the run (see src/checks/error-answers.ts), and the service's
// error paths beyond the three operations are provoked here: unknown paths, methods the interface
// does not define, bodies the server may refuse, malformed URIs.
import { expectNotServerError } from '../src/checks/assert.js';
import { expectErrorBody } from './rules/assert.js';
import { UploadRefused, type ApiRequest, type ApiResponse } from '../src/wire/requests.js';
import { ErrorAnswers, type ErrorRule } from './rules/error-answers.js';
import { exchangeOf } from '../src/wire/evidence.js';
import { INT64_MAX, INT64_MIN } from '../src/wire/json.js';
import type { Requirement, RequirementId } from '../src/checks/requirement.js';
import { because, eachCase, Skip, Violation } from '../src/checks/requirement.js';
import type { RunContext } from '../src/checks/context.js';
import { unknownPetIds } from './pets.js';
import { msg, type Message } from '../src/checks/message.js';

const SECTION = 'Errors';

/** One request, described in plain words (a POST is blocked in read-only mode, and noted). */
interface Case {
  what: string;
  /**
   * The requirement that covers this input specifically, if one does: a 5xx to it is that
   * requirement's finding first (see CaseCause); errors.no-server-error is the cause only of a
   * failure spread over several.
   */
  input?: RequirementId;
  /** A body over the size limits the interface leaves open: closing the connection under it, without an answer, is a refusal (see errorBodyWhenError). */
  refusable?: true;
  send(ctx: RunContext): Promise<ApiResponse>;
}

/** `NAME` in the raw body becomes a tagged name, so a pet created by mistake can be traced to the run. */
const createWith = (what: string, raw: string, input?: RequirementId): Case => ({
  what: `createPet with ${what}`,
  ...(input ? { input } : {}),
  send: (ctx) =>
    ctx.api.createPet(undefined, { body: { raw: raw.replace('NAME', JSON.stringify(ctx.petName('invalid'))) } }),
});
const listWith = (what: string, query: [string, string][], input?: RequirementId): Case => ({
  what: `listPets with ${what}`,
  ...(input ? { input } : {}),
  send: (ctx) => ctx.api.listPets(query),
});
const getWith = (what: string, id: string): Case => ({
  what: `getPet for ${what}`,
  input: 'getPet.malformed-id',
  send: (ctx) => ctx.api.getPet(id),
});
const NOT_OBJECT = 'createPet.body-not-object';

/**
 * Requests that the interface answers with an error (401, 400, 404), plus some whose answer is
 * a gap (400 or a 200) and are judged only when they do come back as errors.
 */
const PROVOKED: readonly Case[] = [
  { what: 'listPets without a key', send: (ctx) => ctx.api.listPets([], { auth: 'none' }) },
  {
    what: 'createPet with a wrong key',
    send: (ctx) => ctx.api.createPet(ctx.newPet(), { auth: { authorization: 'Bearer wrong-key' } }),
  },
  { what: 'getPet without a key', send: (ctx) => ctx.api.getPet(1, { auth: 'none' }) },
  createWith('an empty object', '{}'),
  createWith('a body that is not JSON', 'name=Rex'),
  createWith('a number as the name', '{"name":5,"categoryId":1}'),
  { what: 'getPet for an unknown id', send: (ctx) => ctx.api.getPet(unknownPetIds(ctx)[0]) },
  getWith('id abc', 'abc'),
  listWith('limit=0', [['limit', '0']]),
  listWith('status=adopted', [['status', 'adopted']]),
];

/** Input malformed in every way the suite can think of: none may get a 5xx. */
const MALFORMED: readonly Case[] = [
  // Bodies that are no JSON object: createPet.body-not-object's rule first (see Case.input).
  ...(
    [
      ['an empty body', ''],
      ['truncated JSON', '{"name":NAME,"categoryId":'],
      ['JSON null', 'null'],
      ['a JSON array', '[{"name":NAME,"categoryId":1}]'],
      ['a JSON string', 'NAME'],
      ['a JSON number', '42'],
    ] as const
  ).map(([what, raw]) => createWith(what, raw, NOT_OBJECT)),
  createWith('an object as the name', '{"name":{"first":NAME},"categoryId":1}', 'createPet.name-type'),
  createWith('categoryId as a string', '{"name":NAME,"categoryId":"one"}', 'createPet.category-type'),
  createWith('categoryId 1e400', '{"name":NAME,"categoryId":1e400}', 'createPet.category-range'),
  createWith('categoryId 2^64', '{"name":NAME,"categoryId":18446744073709551616}', 'createPet.category-range'),
  createWith('status as a number', '{"name":NAME,"categoryId":1,"status":1}', 'createPet.status-enum'),
  createWith('JSON nested 10000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, NOT_OBJECT),
  listWith('limit=1.5', [['limit', '1.5']], 'listPets.limit.malformed'),
  listWith('limit=-1', [['limit', '-1']], 'listPets.limit.out-of-range'),
  listWith('limit=99999999999999999999', [['limit', '99999999999999999999']], 'listPets.limit.out-of-range'),
  listWith('limit=abc', [['limit', 'abc']], 'listPets.limit.malformed'),
  listWith('an empty limit', [['limit', '']], 'listPets.limit.malformed'),
  listWith('limit given twice', [
    ['limit', '5'],
    ['limit', '7'],
  ]),
  listWith('an empty status', [['status', '']], 'listPets.status.unknown'),
  listWith('status given twice', [
    ['status', 'sold'],
    ['status', 'pending'],
  ]),
  listWith('status with a NUL character', [['status', 'sold\u0000']], 'listPets.status.unknown'),
  getWith('id abc', 'abc'),
  getWith('id 1.5', '1.5'),
  getWith('id 2^63', String(INT64_MAX + 1n)),
  getWith('id -2^63-1', String(INT64_MIN - 1n)),
  getWith('an id of 400 digits', '9'.repeat(400)),
  getWith('id true', 'true'),
  getWith('an emoji id', '🐶'),
  getWith('an id with a NUL character', '1\u0000'),
];

/** Sends every case and judges each response that is an error (4xx or 5xx); read-only mode leaves the POSTs out, saying so. */
function eachError(ctx: RunContext, cases: readonly Case[], judge: (res: ApiResponse, c: Case) => void): Promise<void> {
  return eachCase(ctx, cases, async (c) => {
    const res = await c.send(ctx);
    if (res.status >= 400) judge(res, c);
  });
}

/** An Error rule's own cases: errors provoked on purpose, judged with every other error answer. */
const provoke = (ctx: RunContext) => eachError(ctx, PROVOKED, () => {});

/** An Error rule over the whole run: every error answer any check received, its own provoked ones among them. */
const everyError = (rule: ErrorRule) => () => new ErrorAnswers(rule);

/** A path segment no operation of the wider service has: the run tag (the seed), so it differs per run. */
const nowhere = (ctx: RunContext) => `${ctx.runTag}-no-such-resource`;
const unknownPet = (ctx: RunContext) => String(unknownPetIds(ctx)[0]);
const NO_KEY = { auth: 'none' } as const;

/** A case whose description goes into a failure message. */
type Described = Case & { what: Message };

/** One request to the wider service, described in plain words. */
const request = (what: Message, req: (ctx: RunContext) => ApiRequest): Described => ({
  what,
  send: (ctx) => ctx.api.send(req(ctx)),
});

/** Paths no operation has: a random segment under the base URL (clear of the store path), and one below a pet. */
const UNKNOWN_PATHS: readonly Described[] = [
  request(msg`GET of a random segment under the base URL`, (ctx) => ({ method: 'GET', path: `/${nowhere(ctx)}` })),
  request(msg`GET of a random segment under the base URL, without a key`, (ctx) => ({
    method: 'GET',
    path: `/${nowhere(ctx)}`,
    ...NO_KEY,
  })),
  request(msg`GET of a random segment below a pet`, (ctx) => ({
    method: 'GET',
    path: `/pets/${unknownPet(ctx)}/${nowhere(ctx)}`,
  })),
  request(msg`GET of a random segment below a pet, without a key`, (ctx) => ({
    method: 'GET',
    path: `/pets/${unknownPet(ctx)}/${nowhere(ctx)}`,
    ...NO_KEY,
  })),
];

/**
 * Methods the interface does not define, without a body: PUT and PATCH on /pets, and PUT, PATCH
 * and DELETE only on an id that does not exist, so that even a server acting on them changes nothing.
 */
const UNDEFINED_METHODS: readonly Described[] = [
  request(msg`PUT /pets`, () => ({ method: 'PUT', path: '/pets' })),
  request(msg`PATCH /pets`, () => ({ method: 'PATCH', path: '/pets' })),
  request(msg`PUT /pets, without a key`, () => ({ method: 'PUT', path: '/pets', ...NO_KEY })),
  request(msg`PUT of an unknown pet`, (ctx) => ({ method: 'PUT', path: `/pets/${unknownPet(ctx)}` })),
  request(msg`PATCH of an unknown pet`, (ctx) => ({ method: 'PATCH', path: `/pets/${unknownPet(ctx)}` })),
  request(msg`DELETE of an unknown pet`, (ctx) => ({ method: 'DELETE', path: `/pets/${unknownPet(ctx)}` })),
  request(msg`DELETE of an unknown pet, without a key`, (ctx) => ({
    method: 'DELETE',
    path: `/pets/${unknownPet(ctx)}`,
    ...NO_KEY,
  })),
];

/** Several MiB: a valid NewPet, then white space (so a server that accepts it stores an ordinary pet). */
export const LARGE_BODY_BYTES = 5 * 1024 * 1024;

/** createPet bodies a server may accept (each would create a pet) or refuse with an Error. */
const REFUSABLE_BODIES: readonly Described[] = [
  request(msg`createPet with a NewPet sent as text/plain`, (ctx) => ({
    method: 'POST',
    path: '/pets',
    body: { json: ctx.newPet() },
    headers: { 'content-type': 'text/plain' },
  })),
  request(msg`createPet with a NewPet sent as text/plain, without a key`, (ctx) => ({
    method: 'POST',
    path: '/pets',
    body: { json: ctx.newPet() },
    headers: { 'content-type': 'text/plain' },
    ...NO_KEY,
  })),
  request(msg`createPet with a NewPet and no Content-Type`, (ctx) => ({
    method: 'POST',
    path: '/pets',
    body: { json: ctx.newPet() },
    headers: { 'content-type': '' },
  })),
  // What `curl -d` sends when the Content-Type is forgotten.
  request(msg`createPet with a form-encoded body`, (ctx) => ({
    method: 'POST',
    path: '/pets',
    body: { raw: new URLSearchParams({ name: ctx.petName(), categoryId: '1' }).toString() },
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })),
  {
    ...request(msg`createPet with a body of ${LARGE_BODY_BYTES / 1024 / 1024} MiB`, (ctx) => {
      const pet = JSON.stringify(ctx.newPet());
      return { method: 'POST', path: '/pets', body: { raw: pet.padEnd(LARGE_BODY_BYTES, ' ') } };
    }),
    refusable: true,
  },
];
const REFUSABLE_WITH_KEY = REFUSABLE_BODIES.filter((c) => !c.what.endsWith('without a key')).length;

/** Not valid URI syntax: malformed percent-encoding, which many HTTP layers answer before the application. */
const MALFORMED_URIS: readonly Described[] = [
  request(msg`getPet with the petId %ZZ`, () => ({ method: 'GET', path: '/pets/%ZZ' })),
  request(msg`listPets with limit=%ZZ`, () => ({ method: 'GET', path: '/pets?limit=%ZZ' })),
];

/**
 * Sends each case and judges an error answer by every Error rule; an answer that is not an error
 * is a gap (the wider service has operations the interface does not show), never judged.
 */
function errorBodyWhenError(ctx: RunContext, cases: readonly Described[]): Promise<void> {
  return eachCase(ctx, cases, async (c) => {
    let res: ApiResponse;
    try {
      res = await c.send(ctx);
    } catch (err) {
      if (!c.refusable || !(err instanceof UploadRefused)) throw err;
      // No answer to judge, and none owed: a refusal the interface allows, said in a note.
      ctx.note(`${c.what}: refused by closing the connection without an answer (${err.message})`);
      return;
    }
    if (res.status < 400) return;
    try {
      expectErrorBody(res);
    } catch (err) {
      if (!(err instanceof Violation)) throw err;
      throw new Violation(msg`${c.what}: ${err.message}`, [exchangeOf(res, err.evidence[0]?.expected)], err.causes);
    }
  });
}

const NO_WRITES = msg`read-only mode: methods other than GET are not sent, not even to an id that does not exist (a broken server might act on them)`;

export const errors: Requirement[] = [
  {
    id: 'errors.body',
    level: 'MUST',
    section: SECTION,
    statement:
      'Every error response carries a JSON Error body: a non-empty string code, a string message and an integer status',
    check: provoke,
    observer: everyError('errors.body'),
  },
  {
    id: 'errors.status-field',
    level: 'MUST',
    section: SECTION,
    statement: 'The status field of an Error body equals the HTTP status code',
    check: provoke,
    observer: everyError('errors.status-field'),
  },
  {
    id: 'errors.content-type',
    level: 'MUST',
    section: SECTION,
    statement: 'Error responses are application/json',
    check: provoke,
    observer: everyError('errors.content-type'),
  },
  {
    id: 'errors.no-server-error',
    fragile: true,
    level: 'MUST',
    section: SECTION,
    statement: 'Malformed input of every kind (bad JSON, wrong types, odd query and path values) never gets a 5xx',
    check: (ctx) =>
      // A 5xx is this rule's own violation, grouped under the requirement whose input it was.
      eachError(ctx, MALFORMED, (res, c) =>
        because({ rules: c.input ? [c.input] : [], mine: true }, () => expectNotServerError(res)),
      ),
  },
  {
    id: 'errors.unknown-path',
    level: 'MUST',
    section: SECTION,
    statement:
      'A path no operation has, under the base URL or below a pet, with or without a key, gets an error with the JSON Error body (or a non-error answer)',
    check: (ctx) => errorBodyWhenError(ctx, UNKNOWN_PATHS),
  },
  {
    id: 'errors.undefined-method',
    level: 'MUST',
    section: SECTION,
    statement:
      'PUT, PATCH or DELETE on /pets or an unknown pet, with or without a key, gets an error with the JSON Error body (or a non-error answer)',
    check: async (ctx) => {
      if (ctx.config.readOnly) throw new Skip(NO_WRITES);
      await errorBodyWhenError(ctx, UNDEFINED_METHODS);
    },
  },
  {
    id: 'errors.refused-body',
    fragile: true,
    level: 'MUST',
    section: SECTION,
    statement:
      `A createPet body sent as text/plain, form-encoded or ${LARGE_BODY_BYTES / 1024 / 1024} MiB long ` +
      'is accepted, or refused with the JSON Error body',
    check: async (ctx) => {
      if (ctx.config.readOnly)
        throw new Skip(msg`read-only mode: these bodies are valid NewPets and would create a pet where accepted`);
      ctx.reserveCreates(REFUSABLE_WITH_KEY, msg`bodies a server may accept`);
      await errorBodyWhenError(ctx, REFUSABLE_BODIES);
    },
  },
  {
    id: 'errors.malformed-uri',
    fragile: true,
    level: 'SHOULD',
    section: SECTION,
    statement:
      'A URI with malformed percent-encoding (/pets/%ZZ, ?limit=%ZZ) gets the JSON Error body too, though the HTTP layer may answer it before the service',
    // Kept out of the MUST Error rules: an HTTP layer in front of the service may answer these.
    check: (ctx) => errorBodyWhenError(ctx.exempt(), MALFORMED_URIS),
  },
];
