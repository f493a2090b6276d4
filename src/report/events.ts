// A run as a stream of events (--reporter ndjson, the API's onEvent), for editors, wrappers and
// dashboards: the run started, each requirement decided as its last check ends, the run ended
// with the verdict. docs/reports.md describes each field; the last event carries the verdict.
import type { Level, OutcomeKind } from '../checks/requirement.js';
import { INTERFACE, requirementOutcome, type CheckInput, type Results } from './results.js';

export const EVENTS_FORMAT = 'petstore-conformance/events';
/** Semantic: a field added is a minor version. */
export const EVENTS_FORMAT_VERSION = '1.0.0';

export interface RunStarted {
  event: 'run-started';
  format: typeof EVENTS_FORMAT;
  formatVersion: string;
  at: string;
  interface: string;
  /** The base URL (redacted), as the reports write it. */
  target: string;
  seed: number;
  /** The selected requirements' ids, in the catalogue's order: one requirement-decided each, unless interrupted. */
  requirements: string[];
}

export interface RequirementDecided {
  event: 'requirement-decided';
  at: string;
  id: string;
  level: Level;
  section: string;
  /** From its own checks; root cause first may revise it in the results (RunEnded.revised). */
  outcome: OutcomeKind;
  /** Why it failed or could not be decided, or why it was skipped. */
  message?: string;
  /** The curl line of its first exchange that shows it. */
  reproduce?: string;
}

export interface RunEnded {
  event: 'run-ended';
  at: string;
  verdict: Results['verdict'];
  verdictReason: string;
  counts: Results['counts'];
  interrupted: boolean;
  /** Requirements whose outcome in the results is not the one streamed (e.g. skipped: blocked by another's failure), or none was. */
  revised: { id: string; outcome: OutcomeKind }[];
}

export type RunEvent = RunStarted | RequirementDecided | RunEnded;

/** Turns what the runner says into events, each handed to `emit` at once. */
export class RunEvents {
  /** Each selected requirement's checks still running, and those ended. */
  private readonly left = new Map<string, number>();
  private readonly ended = new Map<string, CheckInput[]>();
  private readonly decided = new Map<string, OutcomeKind>();

  constructor(
    private readonly emit: (event: RunEvent) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  started(run: { target: string; seed: number }, checks: readonly { requirement: { id: string } }[]): void {
    for (const { requirement } of checks) this.left.set(requirement.id, (this.left.get(requirement.id) ?? 0) + 1);
    this.emit({
      event: 'run-started',
      format: EVENTS_FORMAT,
      formatVersion: EVENTS_FORMAT_VERSION,
      at: this.now().toISOString(),
      interface: INTERFACE.version,
      target: run.target,
      seed: run.seed,
      requirements: [...this.left.keys()],
    });
  }

  finished(input: CheckInput): void {
    const { id, level, section } = input.requirement;
    const ended = [...(this.ended.get(id) ?? []), input];
    this.ended.set(id, ended);
    if (ended.length < (this.left.get(id) ?? 1) || this.decided.has(id)) return;
    // The results' own "and" over the checks; the message and curl line of those that decided it.
    const outcome = requirementOutcome(ended.map((c) => c.outcome));
    const worst = ended.filter((c) => c.outcome === outcome);
    const message = worst.flatMap((c) => (c.message ? [c.message] : [])).join('\n');
    const reproduce = worst.flatMap((c) => c.evidence)[0]?.reproduce;
    this.decided.set(id, outcome);
    this.emit({
      event: 'requirement-decided',
      at: this.now().toISOString(),
      id,
      level,
      section,
      outcome,
      ...(outcome !== 'passed' && message ? { message } : {}),
      ...(outcome !== 'passed' && reproduce ? { reproduce } : {}),
    });
  }

  /** The last event: the verdict, and what the results say otherwise than the stream did. */
  end(results: Results): void {
    this.emit({
      event: 'run-ended',
      at: this.now().toISOString(),
      verdict: results.verdict,
      verdictReason: results.verdictReason,
      counts: results.counts,
      interrupted: results.run.interrupted,
      revised: results.requirements
        .filter((r) => this.decided.get(r.id) !== r.outcome)
        .map((r) => ({ id: r.id, outcome: r.outcome })),
    });
  }
}
