// Interface section "Errors": every error carries the Error body, its status equals the HTTP
// status, errors are JSON, and no malformed input makes the server fail.
import { expectBody, expectJsonContentType, expectNotServerError, fail } from '../src/assert.js';
import type { ApiResponse } from '../src/client.js';
import { exactInteger, INT64_MAX, INT64_MIN, show } from '../src/json.js';
import type { Requirement } from '../src/requirement.js';
import { eachCase } from '../src/requirement.js';
import type { RunContext } from '../src/run.js';
import type { Error as ErrorBody } from '../src/generated/schema-types.js';
import { unknownPetIds } from './pets.js';

const SECTION = 'Errors';

/** One request, described in plain words. `writes`: a POST (blocked in read-only mode). */
interface Case {
  what: string;
  writes?: true;
  send(ctx: RunContext): Promise<ApiResponse>;
}

/** `NAME` in the raw body becomes a tagged name, so a pet created by mistake can be traced to the run. */
const createWith = (what: string, raw: string): Case => ({
  what: `createPet with ${what}`,
  writes: true,
  send: (ctx) => ctx.api.createPet(undefined, { body: { raw: raw.replace('NAME', JSON.stringify(ctx.petName('invalid'))) } }),
});
const listWith = (what: string, query: [string, string][]): Case => ({ what: `listPets with ${what}`, send: (ctx) => ctx.api.listPets(query) });
const getWith = (what: string, id: string): Case => ({ what: `getPet for ${what}`, send: (ctx) => ctx.api.getPet(id) });

/**
 * Requests that the interface answers with an error (401, 400, 404), plus some whose answer is
 * a gap (400 or a 200) and are judged only when they do come back as errors.
 */
const PROVOKED: readonly Case[] = [
  { what: 'listPets without a key', send: (ctx) => ctx.api.listPets([], { auth: 'none' }) },
  { what: 'createPet with a wrong key', writes: true, send: (ctx) => ctx.api.createPet(ctx.newPet(), { auth: { authorization: 'Bearer wrong-key' } }) },
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
  createWith('an empty body', ''),
  createWith('truncated JSON', '{"name":NAME,"categoryId":'),
  createWith('JSON null', 'null'),
  createWith('a JSON array', '[{"name":NAME,"categoryId":1}]'),
  createWith('a JSON string', 'NAME'),
  createWith('a JSON number', '42'),
  createWith('an object as the name', '{"name":{"first":NAME},"categoryId":1}'),
  createWith('categoryId as a string', '{"name":NAME,"categoryId":"one"}'),
  createWith('categoryId 1e400', '{"name":NAME,"categoryId":1e400}'),
  createWith('categoryId 2^64', '{"name":NAME,"categoryId":18446744073709551616}'),
  createWith('status as a number', '{"name":NAME,"categoryId":1,"status":1}'),
  createWith('JSON nested 10000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
  listWith('limit=1.5', [['limit', '1.5']]),
  listWith('limit=-1', [['limit', '-1']]),
  listWith('limit=99999999999999999999', [['limit', '99999999999999999999']]),
  listWith('limit=abc', [['limit', 'abc']]),
  listWith('an empty limit', [['limit', '']]),
  listWith('limit given twice', [['limit', '5'], ['limit', '7']]),
  listWith('an empty status', [['status', '']]),
  listWith('status given twice', [['status', 'sold'], ['status', 'pending']]),
  listWith('status with a NUL character', [['status', 'sold\u0000']]),
  getWith('id abc', 'abc'),
  getWith('id 1.5', '1.5'),
  getWith('id 2^63', String(INT64_MAX + 1n)),
  getWith('id -2^63-1', String(INT64_MIN - 1n)),
  getWith('an id of 400 digits', '9'.repeat(400)),
  getWith('id true', 'true'),
  getWith('an emoji id', '🐶'),
  getWith('an id with a NUL character', '1\u0000'),
];

/** Sends every case allowed in this run and judges each response that is an error (4xx or 5xx). */
function eachError(ctx: RunContext, cases: readonly Case[], judge: (res: ApiResponse, what: string) => void): Promise<void> {
  const allowed = cases.filter((c) => !c.writes || !ctx.config.readOnly);
  return eachCase(allowed, async (c) => {
    const res = await c.send(ctx);
    if (res.status >= 400) judge(res, c.what);
  });
}

export const errors: Requirement[] = [
  {
    id: 'errors.body',
    level: 'MUST',
    section: SECTION,
    statement: 'Every error response carries a JSON Error body: a non-empty string code, a string message and an integer status',
    check: (ctx) =>
      eachError(ctx, PROVOKED, (res) => {
        const body = expectBody(res, 'Error') as ErrorBody;
        if (body.code.length === 0) fail(res, 'an Error body with a non-empty code', 'code ""');
      }),
  },
  {
    id: 'errors.status-field',
    level: 'MUST',
    section: SECTION,
    statement: 'The status field of an Error body equals the HTTP status code',
    check: (ctx) =>
      eachError(ctx, PROVOKED, (res) => {
        const body = res.json as { status?: unknown } | undefined;
        const status = body !== null && typeof body === 'object' ? body.status : undefined;
        if (exactInteger(status) !== String(res.status)) {
          fail(res, `an Error body whose status is ${res.status}, the HTTP status`, `${res.status} with status ${show(status)} in the body`);
        }
      }),
  },
  {
    id: 'errors.content-type',
    level: 'MUST',
    section: SECTION,
    statement: 'Error responses are application/json',
    check: (ctx) => eachError(ctx, PROVOKED, (res) => expectJsonContentType(res)),
  },
  {
    id: 'errors.no-server-error',
    level: 'MUST',
    section: SECTION,
    statement: 'Malformed input of every kind (bad JSON, wrong types, odd query and path values) never gets a 5xx',
    check: (ctx) => eachError(ctx, MALFORMED, (res) => expectNotServerError(res)),
  },
];
