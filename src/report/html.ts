// conformance.html's body: the verdict, the level cards, the findings (root cause first), a row per requirement with its exchanges.
// One self-contained file, readable on screen and on paper: its shell and h() are in src/report/page.ts, its CSS and script in
// src/report/html-assets.ts. Every piece of text from the run passes through h(): a server's response is untrusted input.
import type { Exchange } from '../wire/evidence.js';
import { SCRIPT, STYLE } from './html-assets.js';
import { h, htmlPage } from './page.js';
import { byArea, givenLabel, isPartial, LEVELS, type RequirementResult, type Results, type Tally } from './results.js';
import {
  baselineSaid,
  blocks,
  findingLists,
  findings,
  gateOf,
  notScoredSaid,
  olderSetSaid,
  VERDICT_TITLE,
  type FindingList,
} from './verdict.js';
import { saidOnce, type SaidOnce } from './one-cause.js';
import type { Shown as ShownFinding } from './causes.js';
import {
  describeDeployment,
  describeRetries,
  describeRunRetries,
  describeScore,
  describeServerExit,
  oneLine,
} from './words.js';
import { coverageSection, soakSection } from './html-run.js';

type Shown = 'passed' | 'skipped' | 'failed' | 'error' | 'warning' | 'known' | 'unscored';

/** How an entry shows: a SHOULD finding outside strict mode is a warning, not a failure; a failure the baseline expects is known. */
function shownAs(e: RequirementResult, strict: boolean): Shown {
  if (e.notScored) return 'unscored';
  if (e.baseline?.status === 'known') return 'known';
  if ((e.outcome === 'failed' || e.outcome === 'error') && !blocks(e.level, strict)) return 'warning';
  return e.outcome;
}

const BADGE: Readonly<Record<Shown, string>> = {
  passed: 'passed',
  skipped: 'skipped',
  failed: 'failed',
  error: 'undecided',
  warning: 'warning',
  known: 'known',
  unscored: 'not scored',
};

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
  const reqText = [
    `<b>${h(req.method)} ${h(req.url)}</b>`,
    headers('', req.headers),
    req.body === undefined ? '' : `\n${h(req.body)}`,
  ]
    .filter(Boolean)
    .join('\n');
  const res = ex.response;
  const resText = res
    ? [
        `<b>HTTP ${h(res.status)}</b>`,
        headers('', res.headers),
        res.body ? `\n${h(res.body)}` : '<i>(empty body)</i>',
      ].join('\n')
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
  const skip =
    e.outcome === 'skipped' && e.skipReason ? `<span class="why">Skipped: ${h(oneLine(e.skipReason, 300))}</span>` : '';
  const note = e.outcome === 'passed' && e.note ? `<span class="why">${h(oneLine(e.note, 300))}</span>` : '';
  const reason = expandable ? `<span class="why">${h(oneLine(e.message, 300))}</span>` : '';
  const retried = e.retries && describeRetries(e.retries);
  const retries = retried ? `<span class="why">Sent again: ${h(retried)}</span>` : '';
  const cause = e.causedBy
    ? `<span class="why">Failed because of <a href="#req-${h(e.causedBy)}">${h(e.causedBy)}</a>: its evidence explains this failure</span>`
    : e.blockedBy
      ? `<span class="why">Blocked by <a href="#req-${h(e.blockedBy)}">${h(e.blockedBy)}</a>: its cases broke that rule, not this one</span>`
      : '';
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
    <div class="cap">${shown === 'unscored' ? h(notScoredSaid(e)) : shown === 'known' ? `Known deviation (baseline): ${h(baselineSaid(e))}` : shown === 'warning' ? 'Warning: SHOULD not met' : e.outcome === 'error' ? 'Could not be decided' : `${e.level} violated`}</div>
    <pre class="msg">${h(e.message ?? '')}</pre>
    ${checks}
    ${evidence.map((ex, i) => exchange(ex, i, evidence.length, har)).join('\n')}
    ${e.evidenceOmitted ? `<p class="note">${e.evidenceOmitted} more exchanges omitted; conformance.json has the first ${evidence.length}.</p>` : ''}
  </div>
</details>`;
}

function bar(t: Tally, failedAs: 'failed' | 'warning'): string {
  if (t.requirements === 0) return '<div class="bar empty"></div>';
  const seg = (n: number, cls: string) =>
    n ? `<span class="${cls}" style="width:${((100 * n) / t.requirements).toFixed(2)}%"></span>` : '';
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

/**
 * Root cause first (src/report/causes.ts): a failure explained by one shown in this list or an
 * earlier one is named under it (findingLists). Baseline lists show every entry as it is.
 */
function findingList(
  title: string,
  cls: string,
  list: FindingList | readonly RequirementResult[],
  why = (e: RequirementResult) => oneLine(e.message, 220),
  /** Requirements one cause explains (SaidOnce): one item, first, for all of them. */
  once: {
    lead: string;
    entries: readonly RequirementResult[];
    reproduce?: readonly string[] | undefined;
  } | null = null,
): string {
  const { entries, shown } =
    'shown' in list
      ? list
      : { entries: list, shown: list.map((entry): ShownFinding => ({ entry, also: [], blocked: [] })) };
  const n = entries.length + (once?.entries.length ?? 0);
  if (n === 0) return '';
  const again = (once?.reproduce ?? []).map((curl) => `<li>what it fell on, again: <code>${h(curl)}</code></li>`);
  const first = once
    ? `<li><span class="why">${h(once.lead)}:</span> ${once.entries.map(link).join(', ')}${again.length ? `<ul class="also">${again.join('')}</ul>` : ''}</li>`
    : '';
  return `<div class="finding ${cls}"><h3>${h(title)} <span class="n">${n}</span></h3><ul>${first}${shown
    .map(
      ({ entry: e, cause, also, blocked }) =>
        `<li>${link(e)}${cause ? ` <span class="why">(because of ${link(cause)}, below)</span>` : ''} <span class="why">${h(why(e))}</span>${also.length ? `<ul class="also"><li>also failed because of this: ${also.map(link).join(', ')}</li></ul>` : ''}${blocked.length ? `<ul class="also"><li>blocked by this (not violated themselves): ${blocked.map(link).join(', ')}</li></ul>` : ''}</li>`,
    )
    .join('')}</ul></div>`;
}

/** `har`: the HAR file of the run (--har), relative to the page, which each exchange links to. */
export function renderHtml(results: Results, { har }: { har?: string } = {}): string {
  const r = results.run;
  const strict = r.strict;
  const { known, fixed, notScored } = findings(results);
  const older = olderSetSaid(results);
  const { violations, undecided, warnings, gone, turned } = findingLists(results);
  const lead = (o: SaidOnce | null) =>
    o ? { lead: saidOnce(o, results), entries: o.entries, reproduce: o.reproduce } : null;
  const commit = results.suite.commit ? ` · commit <code>${h(results.suite.commit.slice(0, 12))}</code>` : '';
  const notes: string[] = [];
  if (r.interrupted) notes.push('The run was interrupted: checks that had not finished are reported as undecided.');
  if (isPartial(results)) {
    notes.push(
      `Partial run (${[r.selection.only.length ? `only ${r.selection.only.join(', ')}` : '', r.selection.skip.length ? `skipping ${r.selection.skip.join(', ')}` : ''].filter(Boolean).join('; ')}): the verdict covers only the requirements that ran.`,
    );
  }
  const infrastructure = describeRunRetries(r.retries);
  if (infrastructure) notes.push(`Requests sent again (the infrastructure, not findings): ${infrastructure}.`);
  for (const e of r.errors) notes.push(`Suite error: ${e}`);
  if (r.baseline) {
    const gate = gateOf(results);
    notes.push(
      `Baseline ${r.baseline.path} (sha256 ${r.baseline.sha256.slice(0, 12)}…): gate ${gate.passed ? 'passed' : 'failed'}: ${gate.reason}.`,
    );
    for (const x of r.baseline.expired)
      notes.push(`Baseline entry ${x.id} expired on ${x.until ?? '?'}: counted as not in the baseline.`);
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
  const label = givenLabel(results.target);
  const title = `${VERDICT_TITLE[results.verdict]}: ${label ?? results.target.baseUrl} · Pet Store conformance`;
  return htmlPage(
    { title, generator: `petstore-conformance ${results.suite.version}`, style: STYLE, script: SCRIPT },
    `<main>
<header class="verdict v-${results.verdict}">
  <div class="eyebrow">${h(results.interface.name)} ${h(results.interface.version)} · conformance report</div>
  <h1><span class="seal" aria-hidden="true">${results.verdict === 'conformant' ? '✓' : results.verdict === 'nonconformant' ? '✗' : '?'}</span><span id="verdict">${h(VERDICT_TITLE[results.verdict])}</span></h1>
  <p class="reason">${h(results.verdictReason)}</p>
  <dl class="facts">
    <div><dt>Target</dt><dd>${label ? `<strong>${h(label)}</strong> ` : ''}<code>${h(results.target.baseUrl)}</code>${results.target.embedded ? ' <span class="muted">(bundled reference server)</span>' : ''}</dd></div>
    <div><dt>Finished</dt><dd>${h(when(r.finishedAt))} <span class="muted">after ${h(duration(r.durationMs))}</span></dd></div>
    <div><dt>Seed</dt><dd><code>${h(r.seed ?? 'none')}</code></dd></div>${r.requirementSet ? `\n    <div><dt>Requirement set</dt><dd><code>${h(r.requirementSet.id)}</code>${r.requirementSet.current ? '' : ' <span class="muted">(not this release\'s: requirements added since are not scored)</span>'}</dd></div>` : ''}${r.server ? `\n    <div><dt>Server</dt><dd><code>${h(r.server.command)}</code> <span class="muted">(--start; output in <a href="${h(r.server.log)}">${h(r.server.log)}</a>)</span>${r.server.exited ? `<br><span class="c-failed">${h(describeServerExit(r.server) ?? '')}</span>` : ''}</dd></div>` : ''}
    <div><dt>Suite</dt><dd>${h(results.suite.name)} ${h(results.suite.version)}${commit} <span class="muted">· Node ${h(r.node)}</span>${results.suite.score ? `<br><span class="muted">${h(describeScore(results.suite.score))}</span>` : ''}</dd></div>
    <div><dt>Mode</dt><dd>${strict ? 'strict: SHOULD findings fail the run' : 'SHOULD findings are warnings'}${r.readOnly ? ' · read-only' : ''}${r.clock ? ` · clock ${h(r.clock)}` : ''}</dd></div>
${(r.deployment ?? []).map((d) => `\n    <div><dt>Deployment</dt><dd>${h(describeDeployment(d))}</dd></div>`).join('')}
    <div><dt>Pets created</dt><dd>${results.createdPets.count} <span class="muted">(ids in ${h(results.createdPets.ledger)}${results.createdPets.runTag ? `, names tagged <code>${h(results.createdPets.runTag)}</code>` : ''})</span></dd></div>
    ${r.replay ? `<div class="wide"><dt>Replay</dt><dd><code>${h(r.replay)}</code></dd></div>` : ''}
  </dl>
  ${notes.map((n) => `<p class="note">${h(n)}</p>`).join('\n  ')}
</header>

<section class="levels">
${LEVELS.map((l) => levelCard(results, l)).join('\n')}
</section>

${
  violations.entries.length +
    (turned?.entries.length ?? 0) +
    undecided.entries.length +
    (gone?.entries.length ?? 0) +
    warnings.entries.length +
    known.length +
    fixed.length >
    0 || older
    ? `<section class="findings">
${findingList(strict ? 'Violations (MUST and SHOULD)' : 'Violations (MUST)', 'f-failed', violations, undefined, lead(turned))}
${findingList('Could not be decided', 'f-error', undecided, undefined, lead(gone))}
${findingList('Warnings (SHOULD, do not fail the run)', 'f-warning', warnings)}
${findingList('Known deviations (baseline; still run, not regressions)', 'f-known', known, (e) => `${oneLine(baselineSaid(e), 160)}: ${oneLine(e.message, 160)}`)}
${findingList('Fixed: remove them from the baseline', 'f-warning', fixed, (e) => oneLine(baselineSaid(e), 220))}
${older ? findingList(`Not scored: ${older}`, 'f-known', notScored, notScoredSaid) : ''}
</section>`
    : ''
}

${
  results.requirements.some((e) => e.outcome !== 'passed')
    ? `<div class="toolbar">
  <label><input type="checkbox" id="problems-only"> Show only problems</label>
  <button type="button" id="expand-all">Expand all findings</button>
</div>`
    : ''
}

${areas}

${r.coverage ? coverageSection(r.coverage) : ''}
${r.soak ? soakSection(r.soak) : ''}

<footer>
  <p>Report format <code>${h(results.format)}</code> ${h(results.formatVersion)} (schema: <code>schemas/conformance-report.schema.json</code>). The SHA-256 of this file and of the other reports is in <code>manifest.json</code>.</p>
  <p>The API key never appears in this report: reproductions read it from <code>$PETSTORE_API_KEY</code>.</p>
</footer>
</main>`,
  );
}
