// What every report of a run says, computed once from the results tree (the reporter hands it to
// each renderer): the lists of findings, what one cause explains, the gate, the baseline's lists,
// the notes; each finding as data, and the phrases the reports share in words. The renderers only
// format it (escape, Markdown, ANSI), so a finding reads the same in each.
import type { ConformanceLevel, RequirementResult, Results } from './results.js';
import { levelApart, type ShownFinding } from './causes.js';
import { saidOnce, type SaidOnce } from './one-cause.js';
import {
  baselineSaid,
  findingLists,
  findings,
  gateOf,
  LEVEL_TITLE,
  levelSaid,
  notScoredSaid,
  olderSetSaid,
  reportLevel,
  type FindingList,
} from './verdict.js';
import { describeRunRetries, describeScore, describeServerExit } from './words.js';

/** The phrases every report words the same, whatever its syntax. */
export const SAID = {
  undecided: 'Could not be decided',
  warnings: 'Warnings (SHOULD, do not fail the run)',
  fixed: 'Fixed: remove them from the baseline',
  /** One fixed entry. */
  fixedOne: 'fixed: remove it from the baseline',
  also: 'also failed because of this',
  blocked: 'blocked by this (not violated themselves)',
  again: 'what it fell on, again',
  reproduce: 'Reproduce with',
  embedded: '(bundled reference server)',
  interrupted: 'The run was interrupted: checks that had not finished are reported as undecided.',
  violations: (strict: boolean) => `Violations (${strict ? 'MUST and SHOULD' : 'MUST'})`,
  /** An expired baseline entry; `id` as the report shows ids. */
  expired: (id: string, until: string | undefined) =>
    `baseline entry ${id} expired on ${until ?? '?'}: counted as not in the baseline`,
} as const;

/** A phrase at the head of a sentence. */
export const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Which list a finding is in, which decides how it is marked. */
export type FindingKind = 'violation' | 'undecided' | 'warning' | 'known' | 'fixed' | 'notScored' | 'skipped';

/** A requirement named under a finding: its id, and its level when it differs (" (SHOULD)"). */
export interface Named {
  id: string;
  apart: string;
}

/** One finding as every report shows it. */
export interface Finding {
  kind: FindingKind;
  id: string;
  level: RequirementResult['level'];
  entry: RequirementResult;
  /** Its reason: the message of a violation, undecided or warning; else the baseline's word, notScoredSaid or the skip reason. */
  reason: string | undefined;
  /** The root cause it failed because of, when only a later list shows that one (root cause first). */
  cause: string | undefined;
  /** Those grouped under it: failed because of it, or blocked by it. */
  also: Named[];
  blocked: Named[];
}

/** Requirements one cause explains, said once (SaidOnce). */
export interface Once {
  /** The item's words before the ids (saidOnce). */
  lead: string;
  /** The cause alone, and whether the verdict's reason says it already. */
  said: string;
  inVerdict: boolean;
  entries: Named[];
  reproduce: readonly string[];
  /** Why the ids are folded (SaidOnce.folded), or null when they are listed. */
  folded: string | null;
  /** How many of them the section's count holds: those failed or undecided, not those blocked. */
  counted: number;
}

/** One list of findings, under its heading, led by what one cause explains. */
export interface FindingSection {
  heading: string;
  /** Those shown; those grouped under one are named under it, not shown apart. */
  findings: Finding[];
  /** How many the list holds: those shown and those named under them, not those said once. */
  count: number;
  once: Once | null;
}

export interface Notes {
  interrupted: string | null;
  partial: string | null;
  /** The requests sent again, the pacing: the infrastructure's, not findings. */
  infrastructure: string | null;
  serverExit: string | null;
  score: string | null;
  errors: readonly string[];
}

/** The conformance level: its word, its title, and what it adds to the verdict ('' when nothing). */
export interface LevelView {
  level: ConformanceLevel;
  title: string;
  said: string;
}

export interface ReportView {
  results: Results;
  level: LevelView;
  violations: FindingSection;
  undecided: FindingSection;
  warnings: FindingSection;
  known: Finding[];
  fixed: Finding[];
  notScored: Finding[];
  skipped: Finding[];
  /** The release gate of a run with a baseline (gateOf); null without one. */
  gate: ReturnType<typeof gateOf> | null;
  /** The older requirement set scored against, in words ('' when it is this release's). */
  older: string;
  notes: Notes;
}

const named = (list: readonly RequirementResult[], under: RequirementResult): Named[] =>
  list.map((m) => ({ id: m.id, apart: levelApart(m, under) }));

function shown(kind: FindingKind, { entry, cause, also, blocked }: ShownFinding): Finding {
  const { id, level, message: reason } = entry;
  return { kind, id, level, entry, reason, cause: cause?.id, also: named(also, entry), blocked: named(blocked, entry) };
}

/** A finding of a list that groups none under another (the baseline's, the unscored, the skipped), with its reason. */
function plain(kind: FindingKind, reason: (e: RequirementResult) => string | undefined) {
  return (entry: RequirementResult): Finding => ({
    ...shown(kind, { entry, also: [], blocked: [] }),
    reason: reason(entry),
  });
}

function once(o: SaidOnce | null, results: Results): Once | null {
  if (!o) return null;
  const entries = o.entries.map((e) => ({ id: e.id, apart: e.level === 'SHOULD' ? ' (SHOULD)' : '' }));
  const inVerdict = results.verdictReason.includes(o.said);
  return {
    lead: saidOnce(o, results),
    said: o.said,
    inVerdict,
    entries,
    reproduce: o.reproduce ?? [],
    folded: o.folded ?? null,
    counted: o.entries.filter((e) => e.outcome === 'failed' || e.outcome === 'error').length,
  };
}

function notesOf(results: Results): Notes {
  const r = results.run;
  const sel = [
    r.selection.only.length ? `only ${r.selection.only.join(', ')}` : '',
    r.selection.skip.length ? `skipping ${r.selection.skip.join(', ')}` : '',
  ].filter(Boolean);
  const infrastructure = describeRunRetries(r.retries);
  return {
    interrupted: r.interrupted ? SAID.interrupted : null,
    partial: sel.length ? `Partial run (${sel.join('; ')}): the verdict covers only the requirements that ran.` : null,
    infrastructure: infrastructure
      ? `Requests sent again (the infrastructure, not findings): ${infrastructure}.`
      : null,
    serverExit: describeServerExit(r.server) ?? null,
    score: results.suite.score ? describeScore(results.suite.score) : null,
    errors: r.errors,
  };
}

/** What the reports of a run say, computed once for all of them. */
export function reportView(results: Results): ReportView {
  const { known, fixed, notScored } = findings(results);
  const lists = findingLists(results);
  const section = (heading: string, kind: FindingKind, list: FindingList, o: SaidOnce | null) => ({
    heading,
    findings: list.shown.map((s) => shown(kind, s)),
    count: list.entries.length,
    once: once(o, results),
  });
  const level = reportLevel(results);
  return {
    results,
    level: { level, title: LEVEL_TITLE[level], said: levelSaid(results) },
    violations: section(SAID.violations(results.run.strict), 'violation', lists.violations, lists.turned),
    undecided: section(SAID.undecided, 'undecided', lists.undecided, lists.gone),
    warnings: section(SAID.warnings, 'warning', lists.warnings, null),
    known: known.map(plain('known', baselineSaid)),
    fixed: fixed.map(plain('fixed', baselineSaid)),
    notScored: notScored.map(plain('notScored', notScoredSaid)),
    skipped: results.requirements.filter((e) => e.outcome === 'skipped').map(plain('skipped', (e) => e.skipReason)),
    gate: results.run.baseline ? gateOf(results) : null,
    older: olderSetSaid(results),
    notes: notesOf(results),
  };
}
