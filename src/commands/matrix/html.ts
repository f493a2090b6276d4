// matrix.html: one self-contained page (inline CSS and script, no external asset, the CSP forbids any), filterable on screen, readable on paper.
import { BASE_STYLE, h, htmlPage } from '../../report/page.js';
import { badgeImg } from '../../report/badge.js';
import { INTERFACE, LEVELS, type Tally } from '../../report/results.js';
import { LEVEL_TITLE, levelSaid, reportLevel } from '../../report/verdict.js';
import {
  allRows,
  CELL_WORD,
  runDate,
  runMode,
  SIGNAL_WORD,
  tallyText,
  type Cell,
  type Column,
  type Matrix,
  type Row,
} from './model.js';

/** A column's head: its label (cut to the column, whole on hover), and how its run was narrowed or mixed, in a word. */
function labelHead(c: Column, i: number): string {
  const mode = runMode(c.results);
  const marks = [
    c.mixed ? `<div class="mixed-mark" title="${h(c.mixed)}">mixed</div>` : '',
    mode ? `<div class="mode" title="${h(mode)}">${h(mode)}</div>` : '',
  ];
  return `<th scope="col" class="col v-${reportLevel(c.results)}${c.mixed ? ' is-mixed' : ''}" id="col-${i + 1}">\
<a class="label" href="#impl-${i + 1}" title="${h(c.label)}">${h(c.label)}</a>${marks.join('')}</th>`;
}

/** The column's level, and what it adds to the verdict (or the verdict's reason) on hover. */
function levelHead(c: Column): string {
  const level = reportLevel(c.results);
  const why = levelSaid(c.results) || c.results.verdictReason;
  return `<td class="lv v-${level}" title="${h(why)}">${h(LEVEL_TITLE[level])}</td>`;
}

/** Requirements passed of those scored at a level; the whole tally on hover. */
function countHead(t: Tally): string {
  const cls = t.failed ? ' c-failed' : t.error ? ' c-error' : '';
  return `<td class="cnt${cls}" title="${h(tallyText(t))}">${t.passed}/${t.requirements}</td>`;
}

/** The head of the matrix: a row each for the labels, the levels and the MUST and SHOULD counts, each named on the left. */
function head(m: Matrix): string {
  const row = (cls: string, name: string, cells: string[]) =>
    `<tr class="${cls}"><th scope="row" colspan="2" class="rid hl">${name}</th>${cells.join('')}</tr>`;
  return [
    '<thead>',
    row('h-label', 'Implementation', m.columns.map(labelHead)),
    row('h-level', 'Conformance level', m.columns.map(levelHead)),
    ...LEVELS.map((l) =>
      row(
        `h-${l}`,
        `<span class="lvl l-${l}">${l}</span> passed`,
        m.columns.map((c) => countHead(c.results.counts[l])),
      ),
    ),
    '</thead>',
  ].join('\n');
}

/** Below the matrix, one row per implementation: its whole label, badge, level, counts, run and source. */
function implementations(m: Matrix): string {
  const rows = m.columns.map((c, i) => {
    const r = c.results;
    const level = reportLevel(r);
    const notes = [runMode(r), c.mixed ?? ''].filter(Boolean).map((n) => `<div class="muted">${h(n)}</div>`);
    const source = `${h(c.path)}${c.reportHref ? ` · <a href="${h(c.reportHref)}">its report</a>` : ''}`;
    return `<tr id="impl-${i + 1}"><td>${i + 1}</td><th scope="row">${h(c.label)}${notes.join('')}</th>
<td>${badgeImg(r)}</td><td class="lv v-${level}">${h(LEVEL_TITLE[level])}</td>
<td>${h(tallyText(r.counts.MUST))}</td><td>${h(tallyText(r.counts.SHOULD))}</td>
<td>seed <code>${h(r.run.seed ?? 'none')}</code> · suite ${h(r.suite.version)} · ${h(runDate(r))}</td><td class="src">${source}</td></tr>`;
  });
  return `<section class="impls" id="implementations">
<h2>Implementations</h2>
<table class="legend">
<thead><tr><th>#</th><th>Implementation</th><th>Badge</th><th>Level</th><th>MUST</th><th>SHOULD</th><th>Run</th><th>Source</th></tr></thead>
<tbody>${rows.join('\n')}</tbody>
</table>
</section>`;
}

function cell(c: Cell): string {
  const word = CELL_WORD[c.outcome];
  const title = c.reason ? ` title="${h(c.reason)}"` : '';
  if (c.outcome === 'failed' || c.outcome === 'error') {
    return `<td class="cell c-${c.outcome}"${title}><details><summary>${word}</summary><div class="why">${h(c.reason ?? '')}</div>${
      c.href ? `<a class="evidence" href="${h(c.href)}">evidence in its report</a>` : ''
    }</details></td>`;
  }
  return `<td class="cell c-${c.outcome}"${title}>${c.href ? `<a href="${h(c.href)}">${word}</a>` : word}</td>`;
}

/** A row's head: its id, marked where the implementations differ, with its signal, trend and (on demand) statement. */
function rowHead(r: Row): string {
  const differs = r.differs ? '<span class="ne" title="the implementations differ">≠</span>' : '';
  const signal = r.signal
    ? ` <span class="signal s-${r.signal}" title="${h(SIGNAL_WORD[r.signal])}">${r.signal === 'one' ? 'one only' : 'all'}</span>`
    : '';
  const trend = r.trend ? ` <span class="trend">${h(r.trend)}</span>` : '';
  const statement = `<span class="st">${h(r.statement)} <span class="sec">(${h(r.section)})</span></span>`;
  const title = h(`${r.statement} (${r.section})`);
  return `<th scope="row" class="rid" title="${title}">${differs}<code>${h(r.id)}</code>${signal}${trend}${statement}</th>`;
}

function row(r: Row): string {
  // One line a row: the statement and section on demand (the toolbar's switch, or the tooltip).
  const data = `data-level="${r.level}" data-differs="${r.differs ? 1 : 0}" data-signal="${r.signal ?? ''}"`;
  return `<tr class="req${r.differs ? ' differs' : ''}" ${data} id="m-${h(r.id)}">
  ${rowHead(r)}
  <td class="rl"><span class="lvl l-${r.level}">${r.level}</span></td>
  ${r.cells.map(cell).join('')}
</tr>`;
}

export function renderMatrixHtml(m: Matrix): string {
  const rows = allRows(m);
  const differ = rows.filter((r) => r.differs).length;
  const count = (s: Row['signal']) => rows.filter((r) => r.signal === s).length;
  const span = 2 + m.columns.length;
  const body = m.groups
    .map(
      (g) => `<tbody class="area" id="area-${h(g.area)}">
<tr class="area-head"><th colspan="${span}" scope="colgroup">${h(g.title)}</th></tr>
${g.rows.map(row).join('\n')}
</tbody>`,
    )
    .join('\n');
  const notLike =
    'The marked columns were tested by another suite or against another interface version: their rows are not like for like.';
  const mixed = m.mixed.length
    ? `<p class="banner" id="mixed">Mixed versions (--allow-mixed): ${h(m.mixed.join('; '))}. ${notLike}</p>`
    : '';
  const title = `Implementation matrix: ${m.columns.map((c) => c.label).join(', ')} · Pet Store conformance`;
  return htmlPage(
    { title, style: STYLE, script: SCRIPT },
    `<main>
<header class="top">
  <div class="eyebrow">${h(INTERFACE.name)} ${h(INTERFACE.version)} · implementation matrix</div>
  <h1>${m.columns.length} implementation${m.columns.length === 1 ? '' : 's'}, ${rows.length} requirements</h1>
  <p class="reason"><span id="differ-count">${differ}</span> row${differ === 1 ? '' : 's'} where the implementations differ (marked ≠)</p>
  ${mixed}
</header>
<div class="toolbar">
  <label><input type="checkbox" id="only-differ"> Only rows where implementations differ</label>
  <label><input type="checkbox" id="only-must"> Only MUST</label>
  <label><input type="checkbox" id="only-one"> Only where it fails in exactly one implementation (${count('one')})</label>
  <label><input type="checkbox" id="only-all"> Only where it fails in all (${count('all')})</label>
  <label><input type="checkbox" id="statements"> Statements</label>
  <span id="shown" class="muted">${rows.length} of ${rows.length} requirements shown</span>
</div>
<p class="print-only" id="filter-note"></p>
<div class="scroll">
<table class="matrix">
${head(m)}
${body}
</table>
</div>
${implementations(m)}
<p id="none" class="muted" hidden>No requirement matches the filters.</p>
<footer>
  <p>${FOOTER}</p>
</footer>
</main>`,
  );
}

const FOOTER = [
  "Each cell is the requirement's outcome in that run: passed, failed, undecided (the run could not decide),",
  'skipped (with its reason on hover), or not run (the run has no such requirement).',
  "A failed or undecided cell opens its first reason; where a run's own <code>conformance.html</code> sits beside",
  "its <code>conformance.json</code>, its cells link to the requirement's evidence there.",
].join(' ');

const SCRIPT = `
(function () {
  var differ = document.getElementById('only-differ');
  var must = document.getElementById('only-must');
  var one = document.getElementById('only-one');
  var all = document.getElementById('only-all');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.req'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('tbody.area'));
  var apply = function () {
    var shown = 0;
    rows.forEach(function (r) {
      var signal = r.getAttribute('data-signal');
      r.hidden = (differ.checked && r.getAttribute('data-differs') !== '1') || (must.checked && r.getAttribute('data-level') !== 'MUST') ||
        (one.checked && signal !== 'one') || (all.checked && signal !== 'all');
      if (!r.hidden) shown++;
    });
    groups.forEach(function (g) { g.hidden = !g.querySelector('tr.req:not([hidden])'); });
    document.getElementById('shown').textContent = shown + ' of ' + rows.length + ' requirements shown';
    document.getElementById('none').hidden = shown > 0;
    var on = [differ.checked ? 'only rows where implementations differ' : '', must.checked ? 'only MUST' : '',
      one.checked ? 'only where it fails in exactly one implementation' : '', all.checked ? 'only where it fails in all' : ''].filter(Boolean);
    document.getElementById('filter-note').textContent = on.length ? 'Filtered: ' + on.join(', \
') + ' (' + shown + ' of ' + rows.length + ' requirements).' : '';
  };
  differ.addEventListener('change', apply);
  must.addEventListener('change', apply);
  one.addEventListener('change', apply);
  all.addEventListener('change', apply);
  var statements = document.getElementById('statements');
  statements.addEventListener('change', function () { document.body.classList.toggle('with-statements', statements.checked); });
  apply();
  var opened = [];
  window.addEventListener('beforeprint', function () {
    opened = Array.prototype.slice.call(document.querySelectorAll('td.cell details:not([open])'));
    opened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () { opened.forEach(function (d) { d.open = false; }); });
})();
`;

const STYLE = `${BASE_STYLE}
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { margin: 0 auto; padding: 10px; max-width: 1600px; }
code { font-family: var(--mono); font-size: 12.5px; }
a { color: inherit; }
.muted { color: var(--muted); }
.top { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 12px 20px; }
.eyebrow { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
h1 { font-size: 22px; margin: 2px 0; }
.reason { margin: 0; color: var(--muted); }
.banner { margin: 12px 0 0; padding: 8px 12px; border-radius: 6px; background: var(--warning-bg); color: var(--warning); font-weight: 600; }
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; margin: 10px 0 8px; font-size: 13px; }
.toolbar label { cursor: pointer; }
.toolbar #shown { margin-left: auto; }
.print-only { display: none; }
.scroll { overflow-x: auto; background: var(--card); border: 1px solid var(--line); border-radius: 10px; }
table.matrix { border-collapse: separate; border-spacing: 0; width: 100%; }
.matrix th, .matrix td { padding: 4px 8px; border-top: 1px solid var(--line); text-align: left; vertical-align: top; }
.matrix thead { position: sticky; top: 0; z-index: 2; }
.matrix thead th, .matrix thead td { background: #f8fafc; border-top: 0; padding: 3px 4px; font-size: 12px; font-weight: 600; }
.matrix thead tr:last-child > * { border-bottom: 2px solid var(--line); }
.matrix thead .hl { color: var(--muted); }
.matrix thead .col, .matrix thead .lv, .matrix thead .cnt { border-left: 1px solid var(--line); }
/* A header cell is as wide as its column's cells make it: a label or mark wider is cut, whole on hover (title), never broken. */
.col { border-top: 5px solid var(--vc) !important; }
.col .label, .col .mode, .col .mixed-mark { display: block; width: 0; min-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.col .label { font-size: 12.5px; font-weight: 700; text-decoration: none; }
.col .mode { font-weight: 400; color: var(--muted); font-size: 11px; }
.v-fully-conformant, .v-conformant { --vc: var(--passed); } .v-nonconformant { --vc: var(--failed); }
.v-inconclusive, .v-not-tested { --vc: var(--warning); }
.matrix thead .lv { color: var(--vc); font-weight: 650; font-size: 10.5px; line-height: 1.25; overflow-wrap: normal; word-break: normal; hyphens: manual; }
.cnt { font-variant-numeric: tabular-nums; color: var(--muted); white-space: nowrap; }
.matrix thead .cnt.c-failed { color: var(--failed); background: var(--failed-bg); }
.matrix thead .cnt.c-error { color: var(--error); background: var(--error-bg); }
.col.is-mixed { background: var(--warning-bg) !important; }
.mixed-mark { color: var(--warning); font-weight: 700; font-size: 11px; }
.mixed-mark::before { content: "⚠ "; }
.area-head th { background: var(--bg); font-size: 14px; padding-top: 8px; }
.rid { position: sticky; left: 0; z-index: 1; background: var(--card); white-space: nowrap; }
.rid code { font-weight: 600; }
.rid .st { display: none; font-weight: 400; font-size: 12px; color: var(--muted); max-width: 360px; white-space: normal; }
.with-statements .rid .st { display: block; }
.rid .ne { color: var(--warning); font-weight: 800; margin-right: 6px; }
.rid .signal { font-size: 10px; font-weight: 700; padding: 0 3px; border-radius: 4px; border: 1px solid; }
.s-one { color: var(--warning); } .s-all { color: var(--failed); }
.rid .trend { font-size: 11px; font-weight: 400; color: var(--muted); }
tr.differs > .rid { box-shadow: inset 4px 0 0 var(--warning); }
.sec { color: var(--muted); }
.matrix td.rl { padding: 4px; }
.lvl { font-size: 10.5px; font-weight: 700; letter-spacing: .04em; padding: 1px 6px; border-radius: 4px; border: 1px solid; }
.l-MUST { color: #1d3f8f; border-color: #b9c7ea; background: #eef2fc; } .l-SHOULD { color: #5a4a1a; border-color: #e4d6a8; background: #fbf6e6; }
.matrix td.cell { padding: 4px 4px; border-left: 1px solid var(--line); font-weight: 650; font-size: 11px; \
white-space: nowrap; }
.cell summary::marker { font-size: 9px; }
.c-passed { color: var(--passed); background: var(--passed-bg); } .c-failed { color: var(--failed); background: var(--failed-bg); }
.c-error { color: var(--error); background: var(--error-bg); } .c-skipped { color: var(--skipped); background: var(--skipped-bg); }
.c-not-run { color: var(--muted); font-weight: 400; font-style: italic; text-transform: none; }
.cell a { text-decoration: none; } .cell a:hover { text-decoration: underline; }
.cell summary { cursor: pointer; }
.cell .why { margin-top: 4px; font-weight: 400; text-transform: none; letter-spacing: 0; color: var(--ink); overflow-wrap: anywhere; \
max-width: 320px; white-space: normal; }
.cell .evidence { display: inline-block; margin-top: 4px; font-weight: 400; text-transform: none; letter-spacing: 0; text-decoration: underline; }
footer { margin-top: 20px; color: var(--muted); font-size: 12.5px; }
.impls h2 { font-size: 18px; margin: 24px 0 8px; }
table.legend { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); }
.legend th, .legend td { padding: 6px 10px; border-top: 1px solid var(--line); text-align: left; vertical-align: middle; font-size: 12.5px; }
.legend .src { overflow-wrap: anywhere; }
.legend img { display: block; }
.legend .lv { color: var(--vc); font-weight: 650; }
@media print {
  body { background: #fff; font-size: 11px; }
  main { max-width: none; padding: 0; }
  .toolbar { display: none; }
  .print-only:not(:empty) { display: block; }
  .scroll { overflow: visible; border: 0; }
  .rid .st { display: block; }
  .matrix thead { display: table-header-group; position: static; }
  tr { break-inside: avoid; }
  a { text-decoration: none; }
  .cell .evidence { display: none; }
}
@page { size: landscape; margin: 12mm; }
`;
