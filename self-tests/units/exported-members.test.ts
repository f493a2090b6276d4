// What an exported test asserts of a value compared with another body of its case
// (src/report/exported-checks.ts, run here as the text it is): sameAs compares an integer digit
// for digit whatever its spelling, a string code point for code point, never a string with a
// number; notKept refuses every form a number type keeps the client's id in, and nothing else.
import assert from 'node:assert/strict';
import { expect, test } from 'vitest';
import { EXPECTATION_CHECKS } from '../../src/report/exported-checks.js';
import type { Expectation } from '../../src/wire/evidence.js';

interface Sent {
  request?: string;
  response: string;
}
type Check = (expected: Expectation, res: Response, text: string, got: string, history: Sent[]) => void;
const { check } = new Function('assert', `${EXPECTATION_CHECKS}\nreturn { check };`)(assert) as { check: Check };

/** A thunk judging `answer` (with this status) as the exchange after `earlier`, or of the request `sent`. */
const judged = (expected: Expectation, answer: string, { sent = '', earlier = [] as Sent[], status = 200 } = {}) => {
  return () =>
    check(expected, new Response(answer, { status }), answer, 'got it', [
      ...earlier,
      { request: sent, response: answer },
    ]);
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
