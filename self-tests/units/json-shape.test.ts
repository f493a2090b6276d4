// What an exported test asserts of a body (src/report/exported-checks.ts, run here as the text it
// is): the shape derived from schemas/ accepts every answer the schema accepts, and rejects a wrong
// JSON type, a missing required member and a value outside an enum.
import assert from 'node:assert/strict';
import { expect, test } from 'vitest';
import { jsonShape } from '../../src/data/json-shape.js';
import { PET_STATUSES, validate } from '../../src/data/schemas.js';
import { EXPECTATION_CHECKS } from '../../src/report/exported-checks.js';
import type { Expectation } from '../../src/wire/evidence.js';

type Check = (expected: Expectation, res: Response, text: string, got: string) => void;
/** As the file around the checks defines it (src/report/exported-test.ts). */
const idsIn = (text: string) => [...text.matchAll(/"id"\s*:\s*(-?\d+)/g)].map((m) => m[1]);
// The generated text itself, as an exported file holds it.
const { check } = new Function('assert', 'idsIn', `${EXPECTATION_CHECKS}\nreturn { check };`)(assert, idsIn) as {
  check: Check;
};
/** A thunk judging an answer with this status, body (JSON, or text as is) and headers. */
const judged = (expected: Expectation, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return () => check(expected, new Response(text, { status, headers }), text, 'got it');
};

test("the shapes come from the schema files: Pet's required members, PetStatus's enumeration", () => {
  const pet = jsonShape('Pet');
  expect([...(pet.required ?? [])].sort()).toEqual(['categoryId', 'id', 'name']);
  expect(pet.properties?.status?.enum).toEqual([...PET_STATUSES]);
  expect(jsonShape('PetList')).toEqual({ type: 'array', items: pet });
  expect([...(jsonShape('Error').required ?? [])].sort()).toEqual(['code', 'message', 'status']);
});

const pet = { id: 12, name: 'Rex', categoryId: -3, status: 'sold', color: 'grey' };
test.each([
  ['Pet', pet],
  ['Pet', { id: 1, name: '', categoryId: 0 }],
  ['PetList', [pet, { id: 1, name: 'x', categoryId: 1 }]],
  ['PetList', []],
  ['Error', { code: 'not_found', message: '', status: 404, detail: {} }],
] as const)('a valid %s passes its shape', (name, body) => {
  expect(validate(name, body).valid).toBe(true);
  expect(judged({ body: jsonShape(name) }, 200, body)).not.toThrow();
});

test('a format is no part of a shape: an int64 out of range passes (expectBody records no shape then)', () => {
  expect(judged({ body: jsonShape('Pet') }, 200, '{"id":9223372036854775808,"name":"x","categoryId":1}')).not.toThrow();
});

test.each([
  ['Pet', { ...pet, id: '1' }],
  ['Pet', { ...pet, status: null }],
  ['Pet', { ...pet, status: 'adopted' }],
  ['Pet', { name: 'Rex', categoryId: 1 }],
  ['Pet', { ...pet, categoryId: 1.5 }],
  ['PetList', { items: [] }],
  ['PetList', [{ ...pet, name: 7 }]],
  ['Error', { message: 'm', status: 404 }],
  ['Error', '\uFEFF{"code":"x","message":"m","status":404}'],
] as const)('an invalid %s fails its shape: %j', (name, body) => {
  expect(judged({ body: jsonShape(name) }, 200, body)).toThrow(/expected/);
});

test('the kinds that hold only of an error answer, or of a 2xx list, leave other answers alone', () => {
  expect(judged({ errorStatus: true, ifError: true }, 200, [])).not.toThrow();
  expect(judged({ errorStatus: true, ifError: true }, 404, { code: 'x', message: '', status: 400 })).toThrow(/status/);
  expect(judged({ status: [200, 400], maxItems: 1 }, 400, { code: 'x', message: '', status: 400 })).not.toThrow();
  expect(judged({ maxItems: 1 }, 200, [pet, pet])).toThrow(/at most 1/);
  expect(judged({ itemsWith: { status: 'sold' } }, 200, [pet, { ...pet, status: 'pending' }])).toThrow(/sold/);
  expect(judged({ distinctIds: true }, 200, '[{"id":9007199254740993},{"id":9007199254740992}]')).not.toThrow();
  expect(judged({ distinctIds: true }, 200, '[{"id":1},{"id":1}]')).toThrow(/twice/);
});

test('headers: present, absent, of a form; Content-Type application/json with parameters', () => {
  expect(judged({ headers: { sunset: true } }, 200, {})).toThrow(/a sunset header/);
  expect(judged({ headers: { deprecation: false } }, 200, {}, { deprecation: '@1' })).toThrow(/no deprecation/);
  expect(
    judged({ headerMatches: { deprecation: '^@(-?\\d{1,15})$' } }, 200, {}, { deprecation: ' @17 ' }),
  ).not.toThrow();
  expect(judged({ headerMatches: { deprecation: '^@(-?\\d{1,15})$' } }, 200, {}, { deprecation: 'true' })).toThrow();
  const json = { contentType: 'application/json' } as const;
  expect(judged(json, 200, {}, { 'content-type': 'Application/JSON; charset=utf-8' })).not.toThrow();
  expect(judged(json, 200, {}, { 'content-type': 'application/problem+json' })).toThrow(/Content-Type/);
});
