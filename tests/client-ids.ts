// The ids createPet.client-id sends, and the forms in which a server's number type keeps one.
import fc from 'fast-check';
import { msg, type Message } from '../src/checks/message.js';
import { quoted } from '../src/wire/redact.js';

/**
 * Two client ids from the seed, far above sequential ids (a server assigning its own will not hit
 * one), each with bits 31 and 52 set, so that cut to 32 or 53 bits they are still far from
 * sequential ids: one above 2^53 that a double cannot hold (kept through a double, it comes back
 * rounded), one a double holds exactly (kept through a double, it comes back as sent).
 */
export function clientIds(seed: number): readonly (readonly [bigint, Message])[] {
  const [base = 2n ** 61n] = fc.sample(fc.noBias(fc.bigInt({ min: 2n ** 61n, max: 2n ** 62n - 1n })), {
    seed,
    numRuns: 1,
  });
  const high = (2n ** 52n) | (2n ** 31n);
  return [
    [base | high | 1n, msg`above 2^53, no double holds it`],
    [((base >> 10n) << 10n) | high, msg`above 2^53, a double holds it exactly`],
  ];
}

/** The forms a server's number type gives an id it kept: the first that `id` (from an answer) is in, in words. */
export function keptAs(id: unknown, sent: bigint): Message | undefined {
  const digits = typeof id === 'string' && /^-?\d+$/.test(id);
  const value =
    typeof id === 'bigint'
      ? id
      : typeof id === 'number' && Number.isInteger(id)
        ? BigInt(id)
        : digits
          ? BigInt(id)
          : undefined;
  if (value === undefined) return undefined;
  // A double prints the shortest digits that read back as it (3989295905017634300, not …304).
  const forms: [boolean, Message][] = [
    [value === sent, msg`as sent`],
    [Number(value) === Number(sent), msg`rounded to a double`],
    [value === BigInt.asUintN(53, sent), msg`cut to 53 bits`],
    [value === BigInt.asUintN(32, sent), msg`cut to 32 bits`],
    [value === BigInt.asIntN(32, sent), msg`cut to a signed 32-bit integer`],
  ];
  const form = forms.find(([is]) => is)?.[1];
  const kept = msg`the client's own id ${quoted(String(sent))}, kept ${form ?? msg``}`;
  return (
    form &&
    msg`id ${quoted(digits ? JSON.stringify(id) : value.toString())}: ${kept}${digits ? msg`, as a string` : msg``}`
  );
}
