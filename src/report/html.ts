// conformance.html: one self-contained file (inline CSS and a few lines of script, no external
// asset; the Content-Security-Policy forbids loading any), readable on screen and on paper.
// Every piece of text from the run passes through h(): a server's response is untrusted input.
import type { Exchange } from '../evidence.js';
import { byArea, isPartial, LEVELS, type RequirementResult, type Results, type Tally } from './results.js';
import { baselineSaid, blocks, findings, gateOf, VERDICT_TITLE } from './verdict.js';
import { shownFindings } from './causes.js';
import { describeRetries, describeRunRetries, oneLine } from './words.js';

export function h(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Shown = 'passed' | 'skipped' | 'failed' | 'error' | 'warning' | 'known';

/** How an entry shows: a SHOULD finding outside strict mode is a warning, not a failure; a failure the baseline expects is known. */
function shownAs(e: RequirementResult, strict: boolean): Shown {
  if (e.baseline?.status === 'known') return 'known';
  if ((e.outcome === 'failed' || e.outcome === 'error') && !blocks(e.level, strict)) return 'warning';
  return e.outcome;
}

const BADGE: Readonly<Record<Shown, string>> = { passed: 'passed', skipped: 'skipped', failed: 'failed', error: 'undecided', warning: 'warning', known: 'known' };

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

function headers(prefix: string, hs: Record<string, string>): string {
  return Object.entries(hs)
    .map(([k, v]) => `${prefix}<span class="hk">${h(k)}:</span> ${h(v)}`)
    .join('\n');
}

/** Where the HAR holds this exchange's send (--har): the file, relative to this page, and the entry. */
function harEntry(ex: Exchange, har: string | undefined): string {
  if (ex.harEntry === undefined) return '';
  const file = har ? `<a href="${h(encodeURI(har))}">${h(har)}</a>` : 'the HAR file';
  return `<div class="cap">In the HAR</div><p class="har">Entry ${ex.harEntry} of ${file} (<code>log.entries[${ex.harEntry}]</code>)</p>`;
}

function exchange(ex: Exchange, i: number, total: number, har: string | undefined): string {
  const req = ex.request;
  const reqText = [`<b>${h(req.method)} ${h(req.url)}</b>`, headers('', req.headers), req.body === undefined ? '' : `\n${h(req.body)}`].filter(Boolean).join('\n');
  const res = ex.response;
  const resText = res
    ? [`<b>HTTP ${h(res.status)}</b>`, headers('', res.headers), res.body ? `\n${h(res.body)}` : '<i>(empty body)</i>'].join('\n')
    : '<i>no response</i>';
  return `<div class="exchange">
  ${total > 1 ? `<div class="exn">Exchange ${i + 1} of ${total}</div>` : ''}
  <div class="pair">
    <div><div class="cap">Request</div><pre class="http">${reqText}</pre></div>
    <div><div class="cap">Response</div><pre class="http">${resText}</pre></div>
  </div>
  <div class="cap">Reproduce</div>
  <pre class="curl" title="The key is read from the environment variable PETSTORE_API_KEY">${h(ex.reproduce)}</pre>
  ${harEntry(ex, har)}
</div>`;
}

function rowHead(e: RequirementResult, shown: Shown, expandable: boolean): string {
  const skip = e.outcome === 'skipped' && e.skipReason ? `<span class="why">Skipped: ${h(oneLine(e.skipReason, 300))}</span>` : '';
  const note = e.outcome === 'passed' && e.note ? `<span class="why">${h(oneLine(e.note, 300))}</span>` : '';
  const reason = expandable ? `<span class="why">${h(oneLine(e.message, 300))}</span>` : '';
  const retried = e.retries && describeRetries(e.retries);
  const retries = retried ? `<span class="why">Sent again: ${h(retried)}</span>` : '';
  const cause = e.causedBy ? `<span class="why">Failed because of <a href="#req-${h(e.causedBy)}">${h(e.causedBy)}</a>: its evidence explains this failure</span>` : '';
  const mark = e.baseline
    ? `<span class="why">${e.baseline.status === 'known' ? `Known ${e.outcome === 'failed' ? 'failure' : 'undecided'} (baseline)` : 'Fixed: remove it from the baseline'}: ${h(baselineSaid(e))}</span>`
    : '';
  return `<span class="badge b-${shown}">${BADGE[shown]}</span>
    <span class="rid">${h(e.id)}</span>
    <span class="lvl l-${e.level}">${e.level}</span>
    <span class="st">${h(e.statement)}<span class="sec">${h(e.section)}</span>${skip}${note}${reason}${cause}${retries}${mark}</span>
    <span class="dur">${duration(e.durationMs)}</span>`;
}

function row(e: RequirementResult, strict: boolean, har: string | undefined): string {
  const shown = shownAs(e, strict);
  const id = `req-${h(e.id)}`;
  if (shown === 'passed' || shown === 'skipped') {
    return `<div class="row r-${shown}" id="${id}">${rowHead(e, shown, false)}<span class="chev"></span></div>`;
  }
  const evidence = e.evidence ?? [];
  const checks =
    e.checks.length > 1
      ? `<div class="cap">Checks</div><ul class="checks">${e.checks.map((c) => `<li><span class="badge small b-${c.outcome}">${c.outcome === 'error' ? 'undecided' : c.outcome}</span> ${h(c.name)}</li>`).join('')}</ul>`
      : '';
  return `<details class="row r-${shown}" id="${id}">
  <summary>${rowHead(e, shown, true)}<span class="chev" aria-hidden="true"></span></summary>
  <div class="evidence">
    <div class="cap">${shown === 'known' ? `Known deviation (baseline): ${h(baselineSaid(e))}` : shown === 'warning' ? 'Warning: SHOULD not met' : e.outcome === 'error' ? 'Could not be decided' : `${e.level} violated`}</div>
    <pre class="msg">${h(e.message ?? '')}</pre>
    ${checks}
    ${evidence.map((ex, i) => exchange(ex, i, evidence.length, har)).join('\n')}
    ${e.evidenceOmitted ? `<p class="note">${e.evidenceOmitted} more exchanges omitted; conformance.json has the first ${evidence.length}.</p>` : ''}
  </div>
</details>`;
}

function bar(t: Tally, failedAs: 'failed' | 'warning'): string {
  if (t.requirements === 0) return '<div class="bar empty"></div>';
  const seg = (n: number, cls: string) => (n ? `<span class="${cls}" style="width:${((100 * n) / t.requirements).toFixed(2)}%"></span>` : '');
  return `<div class="bar">${seg(t.passed, 'passed')}${seg(t.failed, failedAs)}${seg(t.error, 'error')}${seg(t.skipped, 'skipped')}</div>`;
}

function levelCard(results: Results, level: 'MUST' | 'SHOULD'): string {
  const t = results.counts[level];
  const failing = blocks(level, results.run.strict) ? 'failed' : 'warnings';
  return `<div class="card level">
  <div class="lh"><span class="lvl l-${level}">${level}</span><span class="total">${t.requirements} requirement${t.requirements === 1 ? '' : 's'}</span></div>
  ${bar(t, failing === 'failed' ? 'failed' : 'warning')}
  <dl class="nums">
    <div><dt>passed</dt><dd class="c-passed">${t.passed}</dd></div>
    <div><dt>${failing}</dt><dd class="${t.failed ? (failing === 'failed' ? 'c-failed' : 'c-warning') : ''}">${t.failed}</dd></div>
    <div><dt>undecided</dt><dd class="${t.error ? 'c-error' : ''}">${t.error}</dd></div>
    <div><dt>skipped</dt><dd>${t.skipped}</dd></div>
  </dl>
</div>`;
}

const link = (e: RequirementResult) => `<a href="#req-${h(e.id)}">${h(e.id)}</a>`;

/** Root cause first (src/report/causes.ts): a failure explained by one shown in this list or an earlier one (`before`) is named under it. */
function findingList(title: string, cls: string, entries: readonly RequirementResult[], why = (e: RequirementResult) => oneLine(e.message, 220), before: readonly RequirementResult[] = [], all: readonly RequirementResult[] = []): string {
  if (entries.length === 0) return '';
  return `<div class="finding ${cls}"><h3>${h(title)} <span class="n">${entries.length}</span></h3><ul>${shownFindings(entries, before, all)
    .map(({ entry: e, cause, also }) => `<li>${link(e)}${cause ? ` <span class="why">(because of ${link(cause)}, below)</span>` : ''} <span class="why">${h(why(e))}</span>${also.length ? `<ul class="also"><li>also failed because of this: ${also.map(link).join(', ')}</li></ul>` : ''}</li>`)
    .join('')}</ul></div>`;
}

/** `har`: the HAR file of the run (--har), relative to the page, which each exchange links to. */
export function renderHtml(results: Results, { har }: { har?: string } = {}): string {
  const r = results.run;
  const strict = r.strict;
  const { violations, undecided: all, warnings: allWarnings, known, fixed } = findings(results);
  // Not tested: every requirement is undecided for the one reason in the headline; no list of it.
  const notTested = results.verdict === 'not-tested';
  const undecided = notTested ? [] : all;
  const warnings = notTested ? allWarnings.filter((e) => e.outcome !== 'error') : allWarnings;
  const commit = results.suite.commit ? ` · commit <code>${h(results.suite.commit.slice(0, 12))}</code>` : '';
  const notes: string[] = [];
  if (r.interrupted) notes.push('The run was interrupted: checks that had not finished are reported as undecided.');
  if (isPartial(results)) {
    notes.push(`Partial run (${[r.selection.only.length ? `only ${r.selection.only.join(', ')}` : '', r.selection.skip.length ? `skipping ${r.selection.skip.join(', ')}` : ''].filter(Boolean).join('; ')}): the verdict covers only the requirements that ran.`);
  }
  const infrastructure = describeRunRetries(r.retries);
  if (infrastructure) notes.push(`Requests sent again (the infrastructure, not findings): ${infrastructure}.`);
  for (const e of r.errors) notes.push(`Suite error: ${e}`);
  if (r.baseline) {
    const gate = gateOf(results);
    notes.push(`Baseline ${r.baseline.path} (sha256 ${r.baseline.sha256.slice(0, 12)}…): gate ${gate.passed ? 'passed' : 'failed'}: ${gate.reason}.`);
    for (const x of r.baseline.expired) notes.push(`Baseline entry ${x.id} expired on ${x.until ?? '?'}: counted as not in the baseline.`);
  }
  const areas = byArea(results)
    .map(({ area, title, entries }) => {
      const count = (s: Shown) => entries.filter((e) => shownAs(e, strict) === s).length;
      const chips = (['failed', 'error', 'warning', 'skipped', 'passed'] as const)
        .filter((s) => count(s) > 0)
        .map((s) => `<span class="chip b-${s}">${count(s)} ${BADGE[s]}</span>`)
        .join('');
      return `<section class="area" id="area-${h(area)}">
  <h2>${h(title)}<span class="chips">${chips}</span></h2>
  <div class="rows">
${entries.map((e) => row(e, strict, har)).join('\n')}
  </div>
</section>`;
    })
    .join('\n');
  const title = `${VERDICT_TITLE[results.verdict]}: ${results.target.baseUrl} · Pet Store conformance`;
  return htmlPage({ title, generator: `petstore-conformance ${results.suite.version}`, style: STYLE, script: SCRIPT }, `<main>
<header class="verdict v-${results.verdict}">
  <div class="eyebrow">${h(results.interface.name)} ${h(results.interface.version)} · conformance report</div>
  <h1><span class="seal" aria-hidden="true">${results.verdict === 'conformant' ? '✓' : results.verdict === 'nonconformant' ? '✗' : '?'}</span><span id="verdict">${h(VERDICT_TITLE[results.verdict])}</span></h1>
  <p class="reason">${h(results.verdictReason)}</p>
  <dl class="facts">
    <div><dt>Target</dt><dd><code>${h(results.target.baseUrl)}</code>${results.target.embedded ? ' <span class="muted">(bundled reference server)</span>' : ''}</dd></div>
    <div><dt>Finished</dt><dd>${h(when(r.finishedAt))} <span class="muted">after ${h(duration(r.durationMs))}</span></dd></div>
    <div><dt>Seed</dt><dd><code>${h(r.seed ?? 'none')}</code></dd></div>
    <div><dt>Suite</dt><dd>${h(results.suite.name)} ${h(results.suite.version)}${commit} <span class="muted">· Node ${h(r.node)}</span></dd></div>
    <div><dt>Mode</dt><dd>${strict ? 'strict: SHOULD findings fail the run' : 'SHOULD findings are warnings'}${r.readOnly ? ' · read-only' : ''}${r.clock ? ` · clock ${h(r.clock)}` : ''}</dd></div>
    <div><dt>Pets created</dt><dd>${results.createdPets.count} <span class="muted">(ids in ${h(results.createdPets.ledger)}${results.createdPets.runTag ? `, names tagged <code>${h(results.createdPets.runTag)}</code>` : ''})</span></dd></div>
    ${r.replay ? `<div class="wide"><dt>Replay</dt><dd><code>${h(r.replay)}</code></dd></div>` : ''}
  </dl>
  ${notes.map((n) => `<p class="note">${h(n)}</p>`).join('\n  ')}
</header>

<section class="levels">
${LEVELS.map((l) => levelCard(results, l)).join('\n')}
</section>

${violations.length + undecided.length + warnings.length + known.length + fixed.length > 0 ? `<section class="findings">
${findingList(strict ? 'Violations (MUST and SHOULD)' : 'Violations (MUST)', 'f-failed', violations, undefined, [], results.requirements)}
${findingList('Could not be decided', 'f-error', undecided, undefined, violations, results.requirements)}
${findingList('Warnings (SHOULD, do not fail the run)', 'f-warning', warnings, undefined, [...violations, ...undecided], results.requirements)}
${findingList('Known deviations (baseline; still run, not regressions)', 'f-known', known, (e) => `${oneLine(baselineSaid(e), 160)}: ${oneLine(e.message, 160)}`)}
${findingList('Fixed: remove them from the baseline', 'f-warning', fixed, (e) => oneLine(baselineSaid(e), 220))}
</section>` : ''}

${results.requirements.some((e) => e.outcome !== 'passed') ? `<div class="toolbar">
  <label><input type="checkbox" id="problems-only"> Show only problems</label>
  <button type="button" id="expand-all">Expand all findings</button>
</div>` : ''}

${areas}

<footer>
  <p>Report format <code>${h(results.format)}</code> ${h(results.formatVersion)} (schema: <code>schemas/conformance-report.schema.json</code>). The SHA-256 of this file and of the other reports is in <code>manifest.json</code>.</p>
  <p>The API key never appears in this report: reproductions read it from <code>$PETSTORE_API_KEY</code>.</p>
</footer>
</main>`);
}

/** A whole self-contained page: inline style and script only, and a Content-Security-Policy that forbids loading anything. */
export function htmlPage(page: { title: string; generator?: string; style: string; script: string }, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
${page.generator ? `<meta name="generator" content="${h(page.generator)}">\n` : ''}<title>${h(page.title)}</title>
<style>${page.style}</style>
</head>
<body>
${main}
<script>${page.script}</script>
</body>
</html>
`;
}

const SCRIPT = `
(function () {
  var all = function () { return Array.prototype.slice.call(document.querySelectorAll('details.row')); };
  var only = document.getElementById('problems-only');
  if (only) only.addEventListener('change', function () { document.body.classList.toggle('problems-only', only.checked); });
  var button = document.getElementById('expand-all');
  if (button) button.addEventListener('click', function () {
    var open = all().some(function (d) { return !d.open; });
    all().forEach(function (d) { d.open = open; });
    button.textContent = open ? 'Collapse all findings' : 'Expand all findings';
  });
  var reveal = function () {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === 'DETAILS') el.open = true;
  };
  window.addEventListener('hashchange', reveal);
  reveal();
  var opened = [];
  window.addEventListener('beforeprint', function () {
    opened = all().filter(function (d) { return !d.open; });
    opened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () { opened.forEach(function (d) { d.open = false; }); });
})();
`;

/** The palette and the rules every page of the suite starts from (the matrix too: src/matrix/html.ts). */
export const BASE_STYLE = `
:root {
  --ink: #1c2430; --muted: #5f6b7a; --line: #e3e7ed; --bg: #f4f6f9; --card: #fff;
  --passed: #1e7f4f; --passed-bg: #e6f4ec; --failed: #c0262d; --failed-bg: #fdecec;
  --error: #7a3db8; --error-bg: #f2ebfa; --warning: #a15c00; --warning-bg: #fff4e0;
  --skipped: #6b7480; --skipped-bg: #eef0f3;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
`;

const STYLE = `${BASE_STYLE}
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 28px 24px 48px; }
code, pre { font-family: var(--mono); font-size: 12.5px; }
a { color: inherit; }
.muted { color: var(--muted); }
.verdict { background: var(--card); border: 1px solid var(--line); border-top: 8px solid var(--c); border-radius: 10px; padding: 22px 28px 18px; box-shadow: 0 1px 3px rgba(16,24,40,.06); }
.v-conformant { --c: var(--passed); --cbg: var(--passed-bg); }
.v-nonconformant { --c: var(--failed); --cbg: var(--failed-bg); }
.v-inconclusive { --c: var(--warning); --cbg: var(--warning-bg); }
.v-not-tested { --c: var(--warning); --cbg: var(--warning-bg); }
.eyebrow { text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: var(--muted); font-weight: 600; }
.verdict h1 { margin: 6px 0 2px; font-size: 34px; line-height: 1.2; color: var(--c); display: flex; align-items: center; gap: 14px; }
.seal { display: inline-grid; place-items: center; width: 44px; height: 44px; border-radius: 50%; background: var(--c); color: #fff; font-size: 26px; flex: none; }
.reason { margin: 4px 0 14px; font-size: 16px; font-weight: 500; }
.reason::first-letter { text-transform: uppercase; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 6px 28px; margin: 0; padding-top: 12px; border-top: 1px solid var(--line); }
.facts div { display: flex; gap: 10px; min-width: 0; }
.facts dt { flex: none; width: 96px; color: var(--muted); font-size: 13px; padding-top: 1px; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.facts .wide { grid-column: 1 / -1; }
.note { margin: 12px 0 0; padding: 8px 12px; border-radius: 6px; background: var(--warning-bg); color: #5c3500; font-size: 14px; }
.levels { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin: 16px 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; }
.lh { display: flex; align-items: center; justify-content: space-between; margin-bottom: 10px; }
.total { color: var(--muted); font-size: 13px; }
.bar { display: flex; height: 10px; border-radius: 5px; overflow: hidden; background: var(--skipped-bg); }
.bar span { display: block; height: 100%; }
.bar .passed { background: var(--passed); } .bar .failed { background: var(--failed); } .bar .warning { background: #e0a030; } .bar .error { background: var(--error); } .bar .skipped { background: #b8bfc9; }
.nums { display: grid; grid-template-columns: repeat(4, 1fr); margin: 10px 0 0; }
.nums div { text-align: center; }
.nums dt { font-size: 12px; color: var(--muted); }
.nums dd { margin: 0; font-size: 22px; font-weight: 650; }
.c-passed { color: var(--passed); } .c-failed { color: var(--failed); } .c-error { color: var(--error); } .c-warning { color: var(--warning); }
.findings { display: grid; gap: 12px; margin-bottom: 16px; }
.finding { background: var(--card); border: 1px solid var(--line); border-left: 5px solid var(--fc); border-radius: 8px; padding: 10px 16px; }
.finding h3 { margin: 0 0 6px; font-size: 15px; color: var(--fc); }
.finding .n { display: inline-block; min-width: 22px; padding: 0 6px; border-radius: 10px; background: var(--fc); color: #fff; font-size: 12px; text-align: center; }
.finding ul { margin: 0; padding-left: 18px; }
.finding li { margin: 3px 0; }
.finding li a { font-family: var(--mono); font-weight: 600; font-size: 13px; }
.finding .also { list-style: none; padding-left: 14px; color: var(--muted); font-size: 13px; }
.finding .why { color: var(--muted); font-size: 13.5px; }
.f-failed { --fc: var(--failed); } .f-error { --fc: var(--error); } .f-warning { --fc: var(--warning); } .f-known { --fc: var(--skipped, #6b7280); }
.toolbar { display: flex; justify-content: flex-end; align-items: center; gap: 16px; margin: 20px 0 4px; font-size: 14px; color: var(--muted); }
.toolbar button { font: inherit; font-size: 13px; padding: 4px 12px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--ink); cursor: pointer; }
.area { margin-top: 18px; }
.area h2 { display: flex; align-items: center; justify-content: space-between; gap: 12px; font-size: 18px; margin: 0 0 8px; }
.chips { display: flex; gap: 6px; flex-wrap: wrap; }
.chip { font-size: 12px; font-weight: 600; padding: 1px 9px; border-radius: 10px; }
.rows { background: var(--card); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
.row { border-top: 1px solid var(--line); }
.rows > .row:first-child { border-top: 0; }
div.row, summary { display: grid; grid-template-columns: 92px minmax(150px, 230px) 64px 1fr 64px 18px; gap: 12px; align-items: start; padding: 9px 14px; }
summary { cursor: pointer; list-style: none; }
summary::-webkit-details-marker { display: none; }
summary:hover { background: #f8fafc; }
.badge { display: inline-block; width: 100%; text-align: center; font-size: 12px; font-weight: 650; padding: 2px 0; border-radius: 5px; text-transform: uppercase; letter-spacing: .03em; }
.badge.small { width: auto; padding: 0 6px; font-size: 11px; }
.b-passed { color: var(--passed); background: var(--passed-bg); } .b-failed { color: var(--failed); background: var(--failed-bg); }
.b-error { color: var(--error); background: var(--error-bg); } .b-warning { color: var(--warning); background: var(--warning-bg); }
.b-known { color: #4b5563; background: #e5e7eb; }
.b-skipped { color: var(--skipped); background: var(--skipped-bg); }
.rid { font-family: var(--mono); font-size: 13px; font-weight: 600; overflow-wrap: anywhere; padding-top: 1px; }
.lvl { font-size: 11px; font-weight: 700; letter-spacing: .04em; padding: 2px 7px; border-radius: 4px; text-align: center; border: 1px solid; }
.l-MUST { color: #1d3f8f; border-color: #b9c7ea; background: #eef2fc; } .l-SHOULD { color: #5a4a1a; border-color: #e4d6a8; background: #fbf6e6; }
.st { min-width: 0; }
.sec { display: block; font-size: 12px; color: var(--muted); }
.why { display: block; font-size: 13px; color: var(--muted); overflow-wrap: anywhere; }
.r-failed .st .why { color: var(--failed); } .r-error .st .why { color: var(--error); } .r-warning .st .why { color: var(--warning); }
.dur { text-align: right; font-size: 12.5px; color: var(--muted); font-variant-numeric: tabular-nums; padding-top: 1px; }
.chev { width: 10px; height: 10px; margin-top: 6px; }
summary .chev { border-right: 2px solid var(--muted); border-bottom: 2px solid var(--muted); transform: rotate(-45deg); transition: transform .15s; }
details[open] > summary .chev { transform: rotate(45deg); }
details[open] > summary { background: #f8fafc; }
.r-failed > summary { box-shadow: inset 4px 0 0 var(--failed); } .r-error > summary { box-shadow: inset 4px 0 0 var(--error); } .r-warning > summary { box-shadow: inset 4px 0 0 var(--warning); }
.evidence { padding: 4px 18px 16px 118px; border-top: 1px dashed var(--line); background: #fbfcfd; }
.cap { font-size: 11.5px; font-weight: 700; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 12px 0 4px; }
pre { margin: 0; padding: 10px 12px; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg { background: var(--cbg, #fff); border: 1px solid var(--line); font-size: 13px; }
.r-failed .msg { background: var(--failed-bg); } .r-error .msg { background: var(--error-bg); } .r-warning .msg { background: var(--warning-bg); }
.http { background: #fff; border: 1px solid var(--line); max-height: 320px; overflow: auto; }
.http .hk { color: var(--muted); }
.curl { background: #1f2733; color: #e9eef5; user-select: all; }
.har { margin: 0; font-size: 13px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.exn { margin-top: 14px; font-size: 13px; font-weight: 600; }
.checks { margin: 0; padding-left: 0; list-style: none; font-size: 13px; }
.checks li { margin: 3px 0; }
footer { margin-top: 28px; color: var(--muted); font-size: 12.5px; border-top: 1px solid var(--line); padding-top: 12px; }
footer p { margin: 4px 0; }
body.problems-only .r-passed, body.problems-only .r-skipped { display: none; }
@media (max-width: 760px) {
  .levels, .pair { grid-template-columns: 1fr; }
  div.row, summary { grid-template-columns: 84px 1fr 18px; row-gap: 4px; }
  .row .badge { grid-area: 1 / 1; } .rid { grid-area: 1 / 2; } .chev { grid-area: 1 / 3; } .st { grid-area: 2 / 1 / 3 / -1; }
  .row .lvl, .row .dur { display: none; }
  .evidence { padding-left: 14px; }
}
@media print {
  body { background: #fff; font-size: 12px; }
  main { max-width: none; padding: 0; }
  .toolbar { display: none; }
  .verdict, .card, .rows, .finding { box-shadow: none; }
  .row { break-inside: avoid; }
  .http { max-height: none; }
  .curl { background: #fff; color: var(--ink); border: 1px solid var(--line); }
  a { text-decoration: none; }
}
`;
