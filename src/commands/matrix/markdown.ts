// matrix.md: the matrix as GitHub Markdown tables, one per area, with the rows where implementations differ marked ≠.
import { code, md } from '../../report/markdown.js';
import { INTERFACE } from '../../report/results.js';
import { LEVEL_TITLE, reportLevel } from '../../report/verdict.js';
import type { Verdict } from '../../report/results.js';
import {
  allRows,
  CELL_WORD,
  runDate,
  runMode,
  SIGNAL_WORD,
  tallyText,
  type Cell,
  type CellOutcome,
  type Matrix,
  type Row,
} from './model.js';

const VERDICT_ICON: Readonly<Record<Verdict, string>> = {
  conformant: '✅',
  nonconformant: '❌',
  inconclusive: '⚠️',
  'not-tested': '⛔',
};
const CELL_ICON: Readonly<Record<CellOutcome, string>> = {
  passed: '✅',
  failed: '❌',
  error: '❔',
  skipped: '⏭️',
  'not-run': '—',
};

/** A link target inside Markdown link syntax: spaces and parentheses would end it. */
const target = (href: string) => href.replace(/[ ()]/g, (c) => encodeURIComponent(c));

function cell(c: Cell): string {
  const text = `${CELL_ICON[c.outcome]} ${CELL_WORD[c.outcome]}`;
  return c.href ? `[${text}](${target(c.href)})` : text;
}

/** A Markdown table row of these cells. */
const tableRow = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

/** What the matrix holds, in one line: implementations, requirements, how many differ, the two marks. */
function summary(m: Matrix, rows: readonly Row[]): string {
  const differ = rows.filter((r) => r.differs).length;
  const count = (s: NonNullable<Row['signal']>) => rows.filter((r) => r.signal === s).length;
  return [
    `${md(INTERFACE.name)} ${INTERFACE.version}`,
    `${m.columns.length} implementation${m.columns.length === 1 ? '' : 's'}`,
    `${rows.length} requirements`,
    `**${differ} differ** (marked ≠)`,
    `${count('one')} ${SIGNAL_WORD.one}`,
    `${count('all')} ${SIGNAL_WORD.all}`,
  ].join(' · ');
}

/** One run: its label and mode, level (with its badge when badge.svg sits beside the run's report), counts, seed, suite and date. */
function columnRow(c: Matrix['columns'][number], i: number): string {
  const r = c.results;
  const label = `**${md(c.label)}**${runMode(r) ? ` (${md(runMode(r))})` : ''}${c.mixed ? ` ⚠️ ${md(c.mixed)}` : ''}`;
  return tableRow([
    String(i + 1),
    label,
    `${VERDICT_ICON[r.verdict]} ${LEVEL_TITLE[reportLevel(r)]}${c.badgeHref ? ` ![badge](${target(c.badgeHref)})` : ''}`,
    tallyText(r.counts.MUST),
    tallyText(r.counts.SHOULD),
    `\`${r.run.seed ?? 'none'}\``,
    md(r.suite.version),
    runDate(r),
  ]);
}

/** A requirement's row: its marks, id, level, section, and a cell per run. */
function requirementRow(r: Row): string {
  const marks = `${r.differs ? '**≠**' : ''}${r.signal ? ` ${SIGNAL_WORD[r.signal]}` : ''}${r.trend ? ` ${md(r.trend)}` : ''}`;
  return tableRow([marks, code(r.id), r.level, md(r.section), ...r.cells.map(cell)]);
}

/** A table per area. */
function areas(m: Matrix): string[] {
  const head = `| | Requirement | Level | Section | ${m.columns.map((c) => md(c.label)).join(' | ')} |`;
  const rule = `|---|---|---|---|${m.columns.map(() => '---').join('|')}|`;
  return m.groups.flatMap((g) => ['', `### ${md(g.title)}`, '', head, rule, ...g.rows.map(requirementRow)]);
}

/** The first reason of every failed or undecided cell, folded away. */
function reasons(m: Matrix, rows: readonly Row[]): string[] {
  const said = rows.flatMap((r) =>
    r.cells.flatMap((c, i) => {
      if (c.outcome !== 'failed' && c.outcome !== 'error') return [];
      const reason = c.reason ? code(c.reason) : '(no message)';
      return [`- ${code(r.id)}, ${md(m.columns[i]?.label ?? '')}: ${CELL_WORD[c.outcome]}: ${reason}`];
    }),
  );
  if (!said.length) return [];
  const summary = `First reasons of the failed and undecided cells (${said.length})`;
  return ['', `<details><summary>${summary}</summary>`, '', ...said, '', '</details>'];
}

const LEGEND =
  'Cells: ✅ passed · ❌ failed · ❔ undecided (the run could not decide) · ⏭️ skipped · — not run (the run has no such requirement).';

export function renderMatrixMarkdown(m: Matrix): string {
  const rows = allRows(m);
  const mixed = `> **Mixed versions (--allow-mixed):** ${md(m.mixed.join('; '))}. The marked columns are not like for like.`;
  return [
    `## Pet Store conformance: implementation matrix`,
    '',
    summary(m, rows),
    '',
    '| # | Implementation | Level | MUST | SHOULD | Seed | Suite | Run |',
    '|---:|---|---|---|---|---|---|---|',
    ...m.columns.map(columnRow),
    ...(m.mixed.length ? ['', mixed] : []),
    ...areas(m),
    ...reasons(m, rows),
    '',
    LEGEND,
    '',
  ].join('\n');
}
