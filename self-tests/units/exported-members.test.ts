// What an exported test asserts of a value compared with another body of its case
// (src/report/exported-checks.ts, run here as the text it is): sameAs compares an integer digit
// for digit whatever its spelling, a string code point for code point, never a string with a
// number; notKept refuses every form a number type keeps the client's id in, and nothing else;
// the kinds about lists count what a store known to hold enough pets must show.
import assert from 'node:assert/strict';
import { expect, test } from 'vitest';
import { EXPECTATION_CHECKS } from '../../src/report/exported-checks.js';
import type { Expectation } from '../../src/wire/evidence.js';

interface Sent {
  path?: string;
  request?: string;
  response: string;
}
type Check = (expected: Expectation, res: Response, text: string, got: string, history: Sent[]) => void;
const { check } = new Function('assert', `${EXPECTATION_CHECKS}\nreturn { check };`)(assert) as { check: Check };

/** A thunk judging `answer` (with this status) to a request to `path`, after `earlier`, or of the request `sent`. */
const judged = (
  expected: Expectation,
  answer: string,
  { sent = '', earlier = [] as Sent[], status = 200, path = '/pets' } = {},
) => {
  const history = [...earlier, { path, request: sent, response: answer }];
  return () => check(expected, new Response(answer, { status }), answer, 'got it', history);
};
const echoes = (name: string): Expectation => ({ sameAs: { [name]: { back: 0, of: 'request' } } });
/** A create with categoryId `sent`, answered with categoryId `answered` (number literals). */
const category = (sent: string, answered: string) => {
  const body = (n: string) => `{"name":"x","categoryId":${n}}`;
  return judged(echoes('categoryId'), body(answered), { sent: body(sent) });
};

test.each([
  ['9007199254740993', '9007199254740993'],
  ['9007199254740993', '9.007199254740993e15'],
  ['9007199254740993', '90071992547409930e-1'],
  ['-9223372036854775807', '-9223372036854775807.0'],
  ['0', '-0'],
])('categoryId %s sent, %s answered: the same integer', (sent, answered) => {
  expect(category(sent, answered)).not.toThrow();
});

test.each([
  ['9007199254740993', '9007199254740992'],
  ['-9223372036854775807', '-9223372036854775808'],
  ['1', '1.5'],
  ['1', '"1"'],
  ['7', '1e1000'],
])('categoryId %s sent, %s answered: another value', (sent, answered) => {
  expect(category(sent, answered)).toThrow(/expected categoryId/);
});

test('names code point for code point: a normal form, a space, a number are other names; escapes are read', () => {
  const name = (text: string) => JSON.stringify({ name: text, categoryId: 1 });
  expect(judged(echoes('name'), name('Zoe\u0301'), { sent: name('Zoe\u0301') })).not.toThrow();
  expect(
    judged(echoes('name'), '{"name":"Zo\\u0065\u0301","categoryId":1}', { sent: name('Zoe\u0301') }),
  ).not.toThrow();
  expect(judged(echoes('name'), name('Zo\u00e9'), { sent: name('Zoe\u0301') })).toThrow(/expected name/);
  expect(judged(echoes('name'), name('a"1 '), { sent: name('a"1') })).toThrow(/expected name/);
  expect(judged(echoes('name'), '{"name":12}', { sent: name('12') })).toThrow(/expected name/);
});

test("a read-back compared with the create's answer; only a 2xx answer is judged; a 2xx that is no JSON fails", () => {
  const created = { request: '{"name":"x","categoryId":1}', response: '{"id":5,"name":"x","categoryId":1}' };
  const asCreated: Expectation = { sameAs: { id: { back: 1, of: 'response' }, name: { back: 1, of: 'request' } } };
  expect(judged(asCreated, '{"id":5,"name":"x","categoryId":1}', { earlier: [created] })).not.toThrow();
  expect(judged(asCreated, '{"id":6,"name":"x","categoryId":1}', { earlier: [created] })).toThrow(/expected id 5/);
  expect(judged(asCreated, '{"code":"gone"}', { earlier: [created], status: 410 })).not.toThrow();
  expect(judged(asCreated, 'not json', { earlier: [created] })).toThrow(/a JSON body/);
});

test("notKept: the client's id as sent, rounded to a double, cut to 53 or 32 bits or in a string fails; another passes", () => {
  const id = 3538161531828665295n;
  const sent = `{"id":${id},"name":"x","categoryId":1}`;
  const notKept: Expectation = { notKept: { id: { back: 0, of: 'request' } } };
  const kept = [id, 3538161531828665344n, BigInt.asUintN(53, id), BigInt.asUintN(32, id), BigInt.asIntN(32, id)];
  for (const form of kept) expect(judged(notKept, `{"id":${form}}`, { sent })).toThrow(/a form of/);
  expect(judged(notKept, `{"id":"${id}"}`, { sent })).toThrow(/a form of/);
  expect(judged(notKept, '{"id":5}', { sent })).not.toThrow();
  expect(judged(notKept, `{"id":${id}}`, { sent, status: 400 })).not.toThrow();
});

test('differsFrom: an id given before, however spelt, fails; another passes', () => {
  const earlier = [{ response: '{"id":9007199254740993,"name":"x"}' }];
  const differs: Expectation = { differsFrom: { id: { back: 1, of: 'response' } } };
  expect(judged(differs, '{"id":9007199254740993}', { earlier })).toThrow(/other than 9007199254740993/);
  expect(judged(differs, '{"id":9.007199254740993e15}', { earlier })).toThrow(/other than/);
  expect(judged(differs, '{"id":9007199254740992}', { earlier })).not.toThrow();
});

test("exactItems counts the items of the query's status; listsIdOf judges only a list provably complete", () => {
  const pets = (...statuses: string[]) => JSON.stringify(statuses.map((status, id) => ({ id, status })));
  const path = '/pets?status=sold&limit=2';
  expect(judged({ exactItems: 2 }, pets('sold', 'sold'), { path })).not.toThrow();
  expect(judged({ exactItems: 2 }, pets('sold', 'sold', 'pending'), { path })).not.toThrow();
  expect(judged({ exactItems: 2 }, pets('sold', 'pending'), { path })).toThrow(/exactly 2 items with status sold/);
  expect(judged({ exactItems: 2 }, pets('sold'), { path: '/pets?limit=2' })).toThrow(/exactly 2 items/);
  expect(judged({ exactItems: 2 }, '{"code":"x"}', { path, status: 400 })).not.toThrow();
  const lists: Expectation = { listsIdOf: { back: 1, of: 'response' } };
  const earlier = [{ response: '{"id":7,"name":"x","categoryId":1}' }];
  const list = (...ids: number[]) => JSON.stringify(ids.map((id) => ({ id })));
  expect(judged(lists, list(1, 7), { earlier, path: '/pets?limit=100' })).not.toThrow();
  expect(judged(lists, list(1, 2), { earlier, path: '/pets?limit=100' })).toThrow(/the pet of id 7/);
  expect(judged(lists, list(1, 2), { earlier, path: '/pets?limit=2' })).not.toThrow();
  expect(judged(lists, list(1, 1), { earlier, path: '/pets?limit=100' })).not.toThrow();
  expect(judged(lists, list(...Array.from({ length: 19 }, (_, i) => 100 + i)), { earlier })).toThrow(/complete/);
  expect(judged(lists, list(...Array.from({ length: 20 }, (_, i) => 100 + i)), { earlier })).not.toThrow();
});

test('lacksNameOf: a complete list holding a pet named as the rejected body fails; one full to its limit says nothing', () => {
  const lacks: Expectation = { lacksNameOf: { back: 1, of: 'request' } };
  const earlier = [{ request: '{"name":"pcs-x1 rejected 1","categoryId":"5"}', response: '{"code":"invalid_body"}' }];
  const named = (...names: string[]) => JSON.stringify(names.map((name, id) => ({ id, name })));
  const path = '/pets?limit=2';
  expect(judged(lacks, named('pcs-x1 rejected 1'), { earlier, path })).toThrow(/no pet named "pcs-x1 rejected 1"/);
  expect(judged(lacks, named('pcs-x1 rejected 10'), { earlier, path })).not.toThrow();
  expect(judged(lacks, named('a', 'pcs-x1 rejected 1'), { earlier, path })).not.toThrow();
});
