// matrix.md: the matrix as GitHub Markdown tables, one per area, with the rows where implementations differ marked ≠.
import { code, md } from '../../report/markdown.js';
import { INTERFACE } from '../../report/results.js';
import { VERDICT_TITLE } from '../../report/verdict.js';
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

export function renderMatrixMarkdown(m: Matrix): string {
  const rows = allRows(m);
  const differ = rows.filter((r) => r.differs).length;
  const count = (s: NonNullable<Row['signal']>) => rows.filter((r) => r.signal === s).length;
  const out = [
    `## Pet Store conformance: implementation matrix`,
    '',
    `${md(INTERFACE.name)} ${INTERFACE.version} · ${m.columns.length} implementation${m.columns.length === 1 ? '' : 's'} · ${rows.length} requirements · **${differ} differ** (marked ≠) · ${count('one')} ${SIGNAL_WORD.one} · ${count('all')} ${SIGNAL_WORD.all}`,
    '',
    '| # | Implementation | Verdict | MUST | SHOULD | Seed | Suite | Run |',
    '|---:|---|---|---|---|---|---|---|',
    ...m.columns.map((c, i) => {
      const r = c.results;
      const label = `**${md(c.label)}**${runMode(r) ? ` (${md(runMode(r))})` : ''}${c.mixed ? ` ⚠️ ${md(c.mixed)}` : ''}`;
      return `| ${i + 1} | ${label} | ${VERDICT_ICON[r.verdict]} ${VERDICT_TITLE[r.verdict]} | ${tallyText(r.counts.MUST)} | ${tallyText(r.counts.SHOULD)} | \`${r.run.seed ?? 'none'}\` | ${md(r.suite.version)} | ${runDate(r)} |`;
    }),
  ];
  if (m.mixed.length)
    out.push(
      '',
      `> **Mixed versions (--allow-mixed):** ${md(m.mixed.join('; '))}. The marked columns are not like for like.`,
    );
  const head = `| | Requirement | Level | Section | ${m.columns.map((c) => md(c.label)).join(' | ')} |`;
  const rule = `|---|---|---|---|${m.columns.map(() => '---').join('|')}|`;
  for (const g of m.groups) {
    out.push('', `### ${md(g.title)}`, '', head, rule);
    for (const r of g.rows) {
      out.push(
        `| ${r.differs ? '**≠**' : ''}${r.signal ? ` ${SIGNAL_WORD[r.signal]}` : ''}${r.trend ? ` ${md(r.trend)}` : ''} | ${code(r.id)} | ${r.level} | ${md(r.section)} | ${r.cells.map(cell).join(' | ')} |`,
      );
    }
  }
  const reasons = rows.flatMap((r) =>
    r.cells.flatMap((c, i) =>
      c.outcome === 'failed' || c.outcome === 'error'
        ? [
            `- ${code(r.id)}, ${md(m.columns[i]?.label ?? '')}: ${CELL_WORD[c.outcome]}: ${c.reason ? code(c.reason) : '(no message)'}`,
          ]
        : [],
    ),
  );
  if (reasons.length)
    out.push(
      '',
      `<details><summary>First reasons of the failed and undecided cells (${reasons.length})</summary>`,
      '',
      ...reasons,
      '',
      '</details>',
    );
  out.push(
    '',
    'Cells: ✅ passed · ❌ failed · ❔ undecided (the run could not decide) · ⏭️ skipped · — not run (the run has no such requirement).',
    '',
  );
  return out.join('\n');
}
