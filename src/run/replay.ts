// Replay: each failed (or undecided) requirement of a report, its failed checks run again with the
// report's seed, so they send the requests the findings recorded (a create before the get that
// read it, with the new ids) and are judged by their own assertions: no second copy of any rule.
import type { RunConfig } from '../config/config.js';
import type { Check } from '../checks/requirement.js';
import { matches } from '../checks/select.js';
import type { CheckInput, Results } from '../report/results.js';
import { oneLine } from '../report/words.js';
import { ChecksRunner } from './runner.js';

export type ReplayVerdict = 'FIXED' | 'STILL FAILING' | 'COULD NOT REPLAY';

export interface ReplayedRequirement {
  id: string;
  verdict: ReplayVerdict;
  /** STILL FAILING: the new answer, one line; COULD NOT REPLAY: why. */
  detail?: string;
}

export interface Replay {
  requirements: ReplayedRequirement[];
  /** Requests the replay sent (each retry counts). */
  requests: number;
}

/** Said with every replay: a check passing again on its recorded case proves nothing of the others. */
export const NOT_A_VERDICT = 'a FIXED replay is not a verdict: the whole run decides';

const undecided = (o: string) => o === 'failed' || o === 'error';

/**
 * Replays `results` against `config`'s target (its seed should be the report's), the requirements
 * --only and --skip keep: every check of theirs that failed or could not decide is run again.
 */
export async function replayReport(results: Results, catalogue: readonly Check[], config: RunConfig): Promise<Replay> {
  const kept = (id: string) =>
    (config.only.length === 0 || config.only.some((p) => matches(id, p))) && !config.skip.some((p) => matches(id, p));
  const failed = results.requirements.filter((r) => undecided(r.outcome) && kept(r.id));
  const byName = new Map(catalogue.map((c) => [c.name, c]));
  const wanted = new Map<string, Check[]>();
  const missing = new Map<string, string>();
  for (const r of failed) {
    const names = r.checks.filter((c) => undecided(c.outcome)).map((c) => c.name);
    const found = names.flatMap((n) => byName.get(n) ?? []);
    if (found.length === 0 || found.length < names.length)
      missing.set(r.id, `this suite has no check named ${names.find((n) => !byName.has(n)) ?? r.id}`);
    else wanted.set(r.id, found);
  }
  const rerun = new Set([...wanted.values()].flat());
  const run = rerun.size === 0 ? undefined : await new ChecksRunner(catalogue, config, {}, (c) => rerun.has(c)).run();
  const requirements = failed.map((r): ReplayedRequirement => {
    const why = missing.get(r.id);
    if (why !== undefined) return { id: r.id, verdict: 'COULD NOT REPLAY', detail: why };
    return verdictOf(r.id, run?.checks.filter((c) => c.requirement.id === r.id) ?? []);
  });
  return { requirements, requests: run?.requests ?? 0 };
}

/** How a requirement's checks ended again, in the replay's words: a proven failure first. */
function verdictOf(id: string, checks: readonly CheckInput[]): ReplayedRequirement {
  const failed = checks.find((c) => c.outcome === 'failed');
  if (failed) return { id, verdict: 'STILL FAILING', detail: oneLine(failed.message) };
  const other = checks.find((c) => c.outcome !== 'passed');
  if (!other) return { id, verdict: 'FIXED' };
  return { id, verdict: 'COULD NOT REPLAY', detail: oneLine(other.message) || `its check was ${other.outcome}` };
}

/** The lines a replay prints: one per requirement, then what it does not prove. */
export function replayLines(replay: Replay, target: string): string[] {
  const lines = replay.requirements.map((r) => `${r.id} ${r.verdict}${r.detail ? `: ${r.detail}` : ''}`);
  const fixed = replay.requirements.filter((r) => r.verdict === 'FIXED').length;
  return [
    `replayed ${replay.requirements.length} requirement(s) against ${target}: ${fixed} fixed, ${replay.requests} requests`,
    ...lines,
    `note: ${NOT_A_VERDICT}`,
  ];
}
