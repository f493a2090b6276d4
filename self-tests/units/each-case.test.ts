// A requirement with several cases decides on the cases that were decided: a proven violation
// stands whatever else happened, a case lost to the network is a note while the decided cases are
// at least as many, and the check could not decide only when more were lost than decided.
import { describe, expect, test } from 'vitest';
import { eachCase, execute, Skip, Violation } from '../../src/checks/requirement.js';
import type { RunContext } from '../../src/checks/context.js';
import { TransportError } from '../../src/wire/requests.js';
import { msg } from '../../src/checks/message.js';

const request = { method: 'POST', url: 'http://127.0.0.1:1/v1/pets', headers: {} };
const lostCase = () => new TransportError('connection reset by the server', request);

type Case = 'pass' | 'violation' | 'lost' | 'skip';
const run = (cases: Case[]) =>
  execute(
    {
      check: (ctx) =>
        eachCase(ctx, cases, async (c) => {
          if (c === 'violation') throw new Violation(msg`expected 201; got 500`);
          if (c === 'lost') throw lostCase();
          if (c === 'skip') throw new Skip(msg`write budget spent`);
        }),
    },
    {} as RunContext,
  );

describe('eachCase', () => {
  test('a proven violation stands beside cases lost to the network', async () => {
    const o = await run(['lost', 'violation', 'lost', 'lost']);
    expect(o.outcome).toBe('failed');
    expect(o.message).toBe('expected 201; got 500');
  });

  test('one case lost of several decides on the others, and says so', async () => {
    const o = await run(['pass', 'lost', 'pass']);
    expect(o.outcome).toBe('passed');
    expect(o.note).toBe(
      '1 of 3 cases got no answer from the service and were left out, decided on the 2 others (connection reset by the server)',
    );
  });

  test('as many decided as lost still decides', async () => {
    expect((await run(['pass', 'lost'])).outcome).toBe('passed');
  });

  test('more cases lost than decided: the check could not decide', async () => {
    const o = await run(['pass', 'lost', 'lost']);
    expect(o.outcome).toBe('error');
    expect(o.message).toBe('could not decide: connection reset by the server');
  });

  test('cases not run count as neither decided nor lost', async () => {
    expect((await run(['skip', 'skip', 'lost', 'pass'])).outcome).toBe('passed');
    expect((await run(['skip', 'skip', 'lost'])).outcome).toBe('error');
    expect((await run(['skip', 'skip'])).outcome).toBe('skipped');
  });
});
