// The header parsers the checks judge with: a parser that misreads a valid value is a false
// alarm, one that accepts an invalid value hides a finding.
import { describe, expect, test } from 'vitest';
import { parseChallenges, parseImfFixdate, parseLinks, parseSfDate } from '../../src/wire/headers.js';

describe('WWW-Authenticate challenges', () => {
  test.each([
    ['Bearer', [{ scheme: 'Bearer', params: {} }]],
    [
      'Bearer realm="petstore", error="invalid_token"',
      [{ scheme: 'Bearer', params: { realm: 'petstore', error: 'invalid_token' } }],
    ],
    ['bearer Error = invalid_token', [{ scheme: 'bearer', params: { error: 'invalid_token' } }]],
    [
      'Basic realm="a, Bearer b", Bearer realm="x"',
      [
        { scheme: 'Basic', params: { realm: 'a, Bearer b' } },
        { scheme: 'Bearer', params: { realm: 'x' } },
      ],
    ],
    [
      'Negotiate, Bearer realm="x"',
      [
        { scheme: 'Negotiate', params: {} },
        { scheme: 'Bearer', params: { realm: 'x' } },
      ],
    ],
    [
      'Negotiate abc==, Bearer',
      [
        { scheme: 'Negotiate', params: {}, token68: 'abc==' },
        { scheme: 'Bearer', params: {} },
      ],
    ],
    ['Bearer realm="say \\"hi\\""', [{ scheme: 'Bearer', params: { realm: 'say "hi"' } }]],
  ])('%s', (value, expected) => {
    expect(parseChallenges(value)).toEqual(expected);
  });
});

describe('dates', () => {
  test('an IMF-fixdate is read exactly', () => {
    expect(parseImfFixdate('Thu, 05 Dec 2030 00:00:00 GMT')?.toISOString()).toBe('2030-12-05T00:00:00.000Z');
  });

  test.each([
    'Thursday, 05-Dec-30 00:00:00 GMT', // RFC 850: recipients accept it, senders must not write it
    'Thu Dec  5 00:00:00 2030', // asctime
    'Thu, 05 Dec 2030 01:00:00 +0100',
    'Fri, 05 Dec 2030 00:00:00 GMT', // wrong day name
    'Thu, 31 Feb 2030 00:00:00 GMT',
    '2030-12-05T00:00:00Z',
  ])('%s is not an IMF-fixdate', (value) => {
    expect(parseImfFixdate(value)).toBeUndefined();
  });

  test('a Structured Field Date is @ and whole seconds', () => {
    expect(parseSfDate('@1735689600')?.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    for (const v of ['true', '1735689600', '@1.5', '@', 'Wed, 01 Jan 2025 00:00:00 GMT'])
      expect(parseSfDate(v)).toBeUndefined();
  });
});

describe('links', () => {
  test('targets and parameters, several links, commas inside quotes', () => {
    expect(
      parseLinks('</v1/pets>; rel="successor-version", <https://x.test/a,b>;rel=deprecation; title="a, b"'),
    ).toEqual([
      { target: '/v1/pets', params: { rel: 'successor-version' } },
      { target: 'https://x.test/a,b', params: { rel: 'deprecation', title: 'a, b' } },
    ]);
  });
});
