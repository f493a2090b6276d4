// The created-pets ledger file: every pet a run created, for operators of a shared store.
import type { Results } from './results.js';

/**
 * The created-pets ledger. Ids are strings of digits, so no JSON reader can round them, in
 * ascending order, ten to a line so a long ledger stays readable.
 */
export function renderLedger(results: Results, ids: readonly string[]): string {
  const sorted = [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
  const head = JSON.stringify(
    {
      format: 'petstore-conformance/created-pets',
      formatVersion: '1.0.0',
      target: results.target.baseUrl,
      runTag: results.createdPets.runTag,
      startedAt: results.run.startedAt,
      finishedAt: results.run.finishedAt,
      note: 'Every pet this run created (there is no delete operation); their names contain the run tag.',
      count: sorted.length,
    },
    null,
    2,
  );
  const lines: string[] = [];
  for (let i = 0; i < sorted.length; i += 10)
    lines.push(
      `    ${sorted
        .slice(i, i + 10)
        .map((id) => JSON.stringify(id))
        .join(', ')}`,
    );
  const list = lines.length ? `[\n${lines.join(',\n')}\n  ]` : '[]';
  return `${head.slice(0, -2)},\n  "ids": ${list}\n}\n`;
}
