// The implementation matrix as data: one column per conformance.json, one row per requirement any of them ran, grouped by area.
import { areaOf, type Level, type OutcomeKind } from '../../checks/requirement.js';
import { AREA_TITLES, defaultLabel, type RequirementResult, type Results, type Tally } from '../../report/results.js';
import { oneLine } from '../../report/words.js';

/** What a cell shows: the requirement's outcome in that run, or `not-run` when the run has no entry for it. */
export type CellOutcome = OutcomeKind | 'not-run';

/** How an outcome reads in a cell ('error' is the suite's "could not be decided"). */
export const CELL_WORD: Readonly<Record<CellOutcome, string>> = {
  passed: 'passed',
  failed: 'failed',
  error: 'undecided',
  skipped: 'skipped',
  'not-run': 'not run',
};

/** One loaded report, as the command hands it over. */
export interface MatrixInput {
  /** The file as given on the command line. */
  path: string;
  results: Results;
  /** The run's own conformance.html, relative to the output folder (URL form), when it sits beside the input. */
  reportHref?: string;
  /** The run's own badge.svg, likewise. */
  badgeHref?: string;
}

export interface Column extends MatrixInput {
  /** Unique within the matrix (a repeated label gets " (2)", " (3)"...). */
  label: string;
  /** Set when --allow-mixed put this run beside runs of other versions: how it differs. */
  mixed?: string;
}

export interface Cell {
  outcome: CellOutcome;
  /** First line of the failure, the undecided reason or the skip reason. */
  reason?: string;
  /** Link to the requirement in the run's own conformance.html, when the column has one. */
  href?: string;
}

export interface Row {
  id: string;
  level: Level;
  section: string;
  statement: string;
  cells: Cell[];
  /** The columns do not all show the same outcome. */
  differs: boolean;
  /**
   * Where the implementations disagree, with no ranking of them: 'one' when exactly one failed it
   * and another passed (most likely that implementation's bug), 'all' when every run of it failed,
   * two or more (most likely the suite's or the interface's).
   */
  signal?: 'one' | 'all';
  /** --history: where the outcome has stood since it last changed, e.g. "failed since 2026-11-24 12:00 UTC". */
  trend?: string;
}

/** A history row's trend: its last outcome and the first run of the streak that ends with it; none when it never changed. */
export function trendOf(cells: readonly Cell[], columns: readonly Pick<Column, 'label'>[]): string | undefined {
  const outcomes = cells.map((c) => c.outcome);
  if (new Set(outcomes).size < 2) return undefined;
  const last = outcomes[outcomes.length - 1] as CellOutcome;
  let since = outcomes.length - 1;
  while (since > 0 && outcomes[since - 1] === last) since--;
  const changes = outcomes.filter((o, i) => i > 0 && o !== outcomes[i - 1]).length;
  return `${CELL_WORD[last]} since ${columns[since]?.label ?? '?'}${changes > 1 ? `, after ${changes} changes` : ''}`;
}

/** The signal of a row's cells (see Row.signal). */
export function signalOf(cells: readonly Cell[]): Row['signal'] {
  const ran = cells.filter((c) => c.outcome !== 'not-run' && c.outcome !== 'skipped');
  const failed = ran.filter((c) => c.outcome === 'failed').length;
  if (ran.length >= 2 && failed === ran.length) return 'all';
  if (failed === 1 && ran.some((c) => c.outcome === 'passed')) return 'one';
  return undefined;
}

/** The signals in words, for the pages' marks and filters. */
export const SIGNAL_WORD: Readonly<Record<NonNullable<Row['signal']>, string>> = {
  one: 'fails in exactly one implementation',
  all: 'fails in all',
};

export interface Matrix {
  columns: Column[];
  groups: { area: string; title: string; rows: Row[] }[];
  /** One line per version that differs between the columns (empty when all agree). */
  mixed: string[];
}

/** The run's label (`target.label`, since format 1.4.0), else what a run without --label records: the host, or "reference server". */
export function labelOf(results: Results): string {
  return results.target.label?.trim() || defaultLabel(results.target);
}

/** Labels told apart: the second "x" becomes "x (2)", and so on, never colliding with a label given as such. */
export function uniqueLabels(labels: readonly string[]): string[] {
  const taken = new Set<string>();
  return labels.map((label) => {
    let unique = label;
    for (let n = 2; taken.has(unique); n++) unique = `${label} (${n})`;
    taken.add(unique);
    return unique;
  });
}

/** The versions that must agree for a like-for-like matrix. */
const VERSIONS = [
  ['suite', (r: Results) => r.suite.version],
  ['interface', (r: Results) => r.interface.version],
] as const;

/** Each version that differs between the inputs, in one line, e.g. "suite versions 0.1.0 (a.json, b.json), 0.2.0 (c.json)". */
export function versionSpread(inputs: readonly MatrixInput[]): string[] {
  return VERSIONS.flatMap(([name, of]) => {
    const by = new Map<string, string[]>();
    for (const i of inputs) by.set(of(i.results), [...(by.get(of(i.results)) ?? []), i.path]);
    if (by.size < 2) return [];
    return [`${name} versions ${[...by].map(([v, paths]) => `${v} (${paths.join(', ')})`).join(', ')}`];
  });
}

/** Why a column is out of line with the rest: it differs from the most common versions (ties: the first input's). */
function mixedMarks(inputs: readonly MatrixInput[]): (string | undefined)[] {
  return inputs.map((input) => {
    const marks = VERSIONS.flatMap(([name, of]) => {
      const counts = new Map<string, number>();
      for (const i of inputs) counts.set(of(i.results), (counts.get(of(i.results)) ?? 0) + 1);
      const usual = [...counts].reduce((best, next) => (next[1] > best[1] ? next : best))[0];
      return of(input.results) === usual ? [] : [`${name} ${of(input.results)}, not ${usual}`];
    });
    return marks.length > 0 ? `mixed: ${marks.join('; ')}` : undefined;
  });
}

function cellOf(entry: RequirementResult | undefined, reportHref: string | undefined): Cell {
  if (!entry) return { outcome: 'not-run' };
  const reason =
    entry.outcome === 'failed' || entry.outcome === 'error'
      ? oneLine(entry.message)
      : entry.outcome === 'skipped'
        ? oneLine(entry.skipReason)
        : '';
  return {
    outcome: entry.outcome,
    ...(reason ? { reason } : {}),
    ...(reportHref ? { href: `${reportHref}#req-${encodeURIComponent(entry.id)}` } : {}),
  };
}

/** Areas in the catalogue's order (AREA_TITLES), then any other area in first-seen order. */
function areaRank(area: string): number {
  const i = Object.keys(AREA_TITLES).indexOf(area);
  return i === -1 ? Number.MAX_SAFE_INTEGER : i;
}

/**
 * The matrix of the inputs; with `history`, the runs of one implementation over time: columns in
 * the order the runs finished, headed by their date and suite version, and each row's trend.
 */
export function buildMatrix(inputs: readonly MatrixInput[], { history = false } = {}): Matrix {
  if (history) inputs = [...inputs].sort((a, b) => a.results.run.finishedAt.localeCompare(b.results.run.finishedAt));
  const labels = uniqueLabels(
    inputs.map((i) => (history ? `${runDate(i.results)} · suite ${i.results.suite.version}` : labelOf(i.results))),
  );
  const marks = mixedMarks(inputs);
  const columns: Column[] = inputs.map((input, i) => ({
    ...input,
    label: labels[i] as string,
    ...(marks[i] ? { mixed: marks[i] } : {}),
  }));
  const byId = inputs.map((i) => new Map(i.results.requirements.map((e) => [e.id, e])));
  // The union of the requirements, in the order the inputs list them (the first input's first).
  const first = new Map<string, RequirementResult>();
  for (const i of inputs) for (const e of i.results.requirements) if (!first.has(e.id)) first.set(e.id, e);
  const groups = new Map<string, Row[]>();
  for (const [id, e] of first) {
    const cells = columns.map((c, i) => cellOf(byId[i]?.get(id), c.reportHref));
    const row: Row = {
      id,
      level: e.level,
      section: e.section,
      statement: e.statement,
      cells,
      differs: new Set(cells.map((c) => c.outcome)).size > 1,
    };
    const signal = history ? undefined : signalOf(cells);
    if (signal) row.signal = signal;
    const trend = history ? trendOf(cells, columns) : undefined;
    if (trend) row.trend = trend;
    const area = e.area || areaOf(id);
    groups.set(area, [...(groups.get(area) ?? []), row]);
  }
  const ordered = [...groups].map(([area, rows], seen) => ({ area, title: AREA_TITLES[area] ?? area, rows, seen }));
  ordered.sort((a, b) => areaRank(a.area) - areaRank(b.area) || a.seen - b.seen);
  return {
    columns,
    groups: ordered.map(({ area, title, rows }) => ({ area, title, rows })),
    mixed: versionSpread(inputs),
  };
}

export const allRows = (m: Matrix): Row[] => m.groups.flatMap((g) => g.rows);

/** A level's tally in words: "43 of 45 passed, 2 failed" (outcomes that did not occur are left out). */
export function tallyText(t: Tally): string {
  const rest = (['failed', 'error', 'skipped'] as const).filter((k) => t[k] > 0).map((k) => `${t[k]} ${CELL_WORD[k]}`);
  return [`${t.passed} of ${t.requirements} passed`, ...rest].join(', ');
}

/** When the run finished, to the minute: "2026-06-01 14:03 UTC". */
export function runDate(results: Results): string {
  return `${results.run.finishedAt.slice(0, 16).replace('T', ' ')} UTC`;
}

/** How the run was narrowed or sharpened, for its column heading ('' for a full default run): a partial run is not comparable cell for cell. */
export function runMode(results: Results): string {
  const { strict, readOnly, selection } = results.run;
  return [
    selection.only.length ? `only ${selection.only.join(',')}` : '',
    selection.skip.length ? `skip ${selection.skip.join(',')}` : '',
    readOnly ? 'read-only' : '',
    strict ? 'strict' : '',
  ]
    .filter(Boolean)
    .join(' · ');
}
