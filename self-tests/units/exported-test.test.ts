// How `export` writes the exchanges of a finding (src/report/exported-test.ts): a body compared with
// is still named by how many exchanges back it is once the pets a read needs are created between,
// and a cut body comes whole, compressed, or the finding is not exported.
import { expect, test } from 'vitest';
import { exportedTest } from '../../src/report/exported-test.js';
import type { RequirementResult, Results } from '../../src/report/results.js';
import type { Exchange } from '../../src/wire/evidence.js';

const BASE = 'http://127.0.0.1:9/v1';
const results = {
  target: { baseUrl: BASE },
  suite: { name: 's', version: '0' },
  run: { seed: 1 },
} as unknown as Results;
const finding = (evidence: Exchange[]) =>
  ({ id: 'a.b', level: 'MUST', statement: 's', section: 'x', message: 'm', evidence }) as unknown as RequirementResult;
const exchange = (method: string, path: string, answer: string, more: Partial<Exchange> = {}): Exchange => ({
  request: { method, url: BASE + path, headers: {} },
  response: { status: 200, headers: {}, body: answer },
  reproduce: 'curl',
  ...more,
});
/** The exchanges a written test sends, as its text holds them. */
const sentBy = (text: string) =>
  JSON.parse(/const exchanges = (\[[\s\S]*?\n\]);/.exec(text)?.[1] ?? '[]') as { path: string; expected?: object }[];

test('a pet created between for a read leaves the list still compared with the create before it', () => {
  const test = exportedTest(
    results,
    finding([
      exchange('POST', '/pets', '{"id":5}'),
      exchange('GET', '/pets/9', '{"id":9}', { expected: { status: [200] } }),
      exchange('GET', '/pets?limit=100', '[]', { expected: { listsIdOf: { back: 2, of: 'response' } } }),
    ]),
    'node',
  );
  if ('skipped' in test) throw new Error(test.skipped);
  const sent = sentBy(test.text);
  expect(sent.map((x) => x.path)).toEqual(['/pets', '/pets', '/pets/9', '/pets?limit=100']);
  expect(sent[3]?.expected).toEqual({ listsIdOf: { back: 3, of: 'response' } });
});

test('a body compared with before the finding begins, or cut and not held whole, is said, not written', () => {
  const before = finding([
    exchange('GET', '/pets/1', '{}', { expected: { sameAs: { id: { back: 1, of: 'response' } } } }),
  ]);
  expect(exportedTest(results, before, 'node')).toEqual({ skipped: expect.stringContaining('not in the report') });
  const cut = exchange('POST', '/pets', '{}', { expected: { statusBelow: 500 } });
  cut.request.body = 'x… (9000 chars)';
  expect(exportedTest(results, finding([cut]), 'node')).toEqual({ skipped: expect.stringContaining('too varied') });
  const none = finding([exchange('GET', '/pets', '[]', { notStated: 'a reason of its own' })]);
  expect(exportedTest(results, none, 'node')).toEqual({ skipped: 'a reason of its own' });
});
