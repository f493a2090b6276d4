// What a run covered (run.coverage): of the catalogued inputs the selected requirements carry
// (Requirement.inputs), which were sent and why the others were not, per operation and channel,
// and the statuses each operation answered.
import type { Check, CatalogueInput } from '../checks/requirement.js';
import type { CheckInput, RunCoverage } from '../report/results.js';

export type { RunCoverage };

/** Why no check sent `input`: its requirements were not selected, or their checks ended without sending it (as they said). */
function whyNot(
  carriers: readonly Check[],
  selected: ReadonlySet<Check>,
  decided: ReadonlyMap<Check, CheckInput>,
): string {
  const ran = carriers.filter((c) => selected.has(c)).map((c) => decided.get(c));
  if (ran.length === 0) return 'not selected (--only, --skip)';
  const said = (c: CheckInput | undefined) => (c?.outcome === 'skipped' ? c.message : c?.note);
  const why = ran.map(said).find((text) => text !== undefined);
  if (why) return why.split('\n')[0] ?? why;
  const ended = ran.find((c) => c && c.outcome !== 'passed');
  return ended ? `its check ended first (${ended.outcome})` : 'no answer came';
}

export function coverageOf(
  all: readonly Check[],
  selected: readonly Check[],
  decided: ReadonlyMap<Check, CheckInput>,
  seen: { sent: readonly string[]; statuses: RunCoverage['statuses'] },
): RunCoverage {
  const own = all.filter((c) => c.kind === 'requirement');
  const inputs = new Map<string, { input: CatalogueInput; carriers: Check[] }>();
  for (const check of own)
    for (const input of check.requirement.inputs ?? []) {
      const known = inputs.get(input.id) ?? { input, carriers: [] };
      known.carriers.push(check);
      inputs.set(input.id, known);
    }
  const sent = new Set(seen.sent);
  const chosen = new Set(selected);
  const channels = new Map<string, RunCoverage['channels'][number]>();
  const notSent: RunCoverage['notSent'] = [];
  for (const { input, carriers } of inputs.values()) {
    const key = `${input.operation} ${input.channel}`;
    const row = channels.get(key) ?? { operation: input.operation, channel: input.channel, catalogued: 0, sent: 0 };
    row.catalogued++;
    if (sent.has(input.id)) row.sent++;
    else notSent.push({ id: input.id, requirement: input.requirement, why: whyNot(carriers, chosen, decided) });
    channels.set(key, row);
  }
  return {
    catalogued: inputs.size,
    sent: inputs.size - notSent.length,
    notSent,
    channels: [...channels.values()],
    statuses: seen.statuses,
  };
}
