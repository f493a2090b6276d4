// conformance.html's rows: one per requirement, by area, a finding's row opening on its message, its
// checks and each exchange (request, response, curl line). Every piece of text from the run passes
// through h(): a server's response is untrusted input.
import type { Exchange } from '../wire/evidence.js';
import { h } from './page.js';
import { byArea, type RequirementResult, type Results } from './results.js';
import { baselineSaid, blocks, notScoredSaid } from './verdict.js';
import { describeRetries, oneLine } from './words.js';
import { capital, SAID } from './view.js';

type RowMark = 'passed' | 'skipped' | 'failed' | 'error' | 'warning' | 'known' | 'unscored';

/** How an entry shows: a SHOULD finding outside strict mode is a warning, not a failure; a failure the baseline expects is known. */
function shownAs(e: RequirementResult, strict: boolean): RowMark {
  if (e.notScored) return 'unscored';
  if (e.baseline?.status === 'known') return 'known';
  if ((e.outcome === 'failed' || e.outcome === 'error') && !blocks(e.level, strict)) return 'warning';
  return e.outcome;
}

const BADGE: Readonly<Record<RowMark, string>> = {
  passed: 'passed',
  skipped: 'skipped',
  failed: 'failed',
  error: 'undecided',
  warning: 'warning',
  known: 'known',
  unscored: 'not scored',
};

export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
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
  const where = `Entry ${ex.harEntry} of ${file} (<code>log.entries[${ex.harEntry}]</code>)`;
  return `<div class="cap">In the HAR</div><p class="har">${where}</p>`;
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
  const key = 'The key is read from the environment variable PETSTORE_API_KEY';
  return `<div class="exchange">
  ${total > 1 ? `<div class="exn">Exchange ${i + 1} of ${total}</div>` : ''}
  <div class="pair">
    <div><div class="cap">Request</div><pre class="http">${reqText}</pre></div>
    <div><div class="cap">Response</div><pre class="http">${resText}</pre></div>
  </div>
  <div class="cap">Reproduce</div>
  <pre class="curl" title="${key}">${h(ex.reproduce)}</pre>
  ${harEntry(ex, har)}
</div>`;
}

const why = (text: string) => `<span class="why">${text}</span>`;
const link = (id: string) => `<a href="#req-${h(id)}">${h(id)}</a>`;

/** The root cause it failed because of, or the requirement that blocked it. */
function causeOf(e: RequirementResult): string {
  if (e.causedBy) return why(`Failed because of ${link(e.causedBy)}: its evidence explains this failure`);
  if (e.blockedBy) return why(`Blocked by ${link(e.blockedBy)}: its cases broke that rule, not this one`);
  return '';
}

function baselineMark(e: RequirementResult): string {
  if (!e.baseline) return '';
  const known = `Known ${e.outcome === 'failed' ? 'failure' : 'undecided'} (baseline)`;
  const fixed = capital(SAID.fixedOne);
  return why(`${e.baseline.status === 'known' ? known : fixed}: ${h(baselineSaid(e))}`);
}

function rowHead(e: RequirementResult, shown: RowMark, expandable: boolean): string {
  const skip = e.outcome === 'skipped' && e.skipReason ? why(`Skipped: ${h(oneLine(e.skipReason, 300))}`) : '';
  const note = e.outcome === 'passed' && e.note ? why(h(oneLine(e.note, 300))) : '';
  const reason = expandable ? why(h(oneLine(e.message, 300))) : '';
  const retried = e.retries && describeRetries(e.retries);
  const retries = retried ? why(`Sent again: ${h(retried)}`) : '';
  const said = `${skip}${note}${reason}${causeOf(e)}${retries}${baselineMark(e)}`;
  return `<span class="badge b-${shown}">${BADGE[shown]}</span>
    <span class="rid">${h(e.id)}</span>
    <span class="lvl l-${e.level}">${e.level}</span>
    <span class="st">${h(e.statement)}<span class="sec">${h(e.section)}</span>${said}</span>
    <span class="dur">${duration(e.durationMs)}</span>`;
}

/** The caption over an open row's message: what it is. */
function caption(e: RequirementResult, shown: RowMark): string {
  if (shown === 'unscored') return h(notScoredSaid(e));
  if (shown === 'known') return `Known deviation (baseline): ${h(baselineSaid(e))}`;
  if (shown === 'warning') return 'Warning: SHOULD not met';
  return e.outcome === 'error' ? SAID.undecided : `${e.level} violated`;
}

function checksOf(e: RequirementResult): string {
  if (e.checks.length <= 1) return '';
  const item = (c: RequirementResult['checks'][number]) =>
    `<li><span class="badge small b-${c.outcome}">${c.outcome === 'error' ? 'undecided' : c.outcome}</span> ${h(c.name)}</li>`;
  return `<div class="cap">Checks</div><ul class="checks">${e.checks.map(item).join('')}</ul>`;
}

function row(e: RequirementResult, strict: boolean, har: string | undefined): string {
  const shown = shownAs(e, strict);
  const id = `req-${h(e.id)}`;
  if (shown === 'passed' || shown === 'skipped') {
    return `<div class="row r-${shown}" id="${id}">${rowHead(e, shown, false)}<span class="chev"></span></div>`;
  }
  const evidence = e.evidence ?? [];
  const omitted = e.evidenceOmitted
    ? `<p class="note">${e.evidenceOmitted} more exchanges omitted; conformance.json has the first ${evidence.length}.</p>`
    : '';
  return `<details class="row r-${shown}" id="${id}">
  <summary>${rowHead(e, shown, true)}<span class="chev" aria-hidden="true"></span></summary>
  <div class="evidence">
    <div class="cap">${caption(e, shown)}</div>
    <pre class="msg">${h(e.message ?? '')}</pre>
    ${checksOf(e)}
    ${evidence.map((ex, i) => exchange(ex, i, evidence.length, har)).join('\n')}
    ${omitted}
  </div>
</details>`;
}

/** Every requirement, a section per area headed by its counts. */
export function areaSections(results: Results, har: string | undefined): string {
  const strict = results.run.strict;
  return byArea(results)
    .map(({ area, title, entries }) => {
      const count = (s: RowMark) => entries.filter((e) => shownAs(e, strict) === s).length;
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
}
