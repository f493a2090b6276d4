// conformance.html's body: the verdict, the level cards, the findings (root cause first), a row per requirement with its exchanges.
// One self-contained file, readable on screen and on paper: its shell and h() are in src/report/page.ts, its CSS and script in
// src/report/html-assets.ts, its rows in src/report/html-rows.ts. Every piece of text from the run passes through h(): a server's
// response is untrusted input.
import { SCRIPT, STYLE } from './html-assets.js';
import { h, htmlPage } from './page.js';
import { givenLabel, LEVELS, type Results, type Tally } from './results.js';
import { badgeImg } from './badge.js';
import { blocks } from './verdict.js';
import { describeDeployment, networkSaid, oneLine } from './words.js';
import { coverageSection, soakSection } from './html-run.js';
import { areaSections, duration } from './html-rows.js';
import { capital, SAID, type Finding, type FindingSection, type Once, type ReportView } from './view.js';

function bar(t: Tally, failedAs: 'failed' | 'warning'): string {
  if (t.requirements === 0) return '<div class="bar empty"></div>';
  const seg = (n: number, cls: string) =>
    n ? `<span class="${cls}" style="width:${((100 * n) / t.requirements).toFixed(2)}%"></span>` : '';
  const segments = [seg(t.passed, 'passed'), seg(t.failed, failedAs), seg(t.error, 'error'), seg(t.skipped, 'skipped')];
  return `<div class="bar">${segments.join('')}</div>`;
}

function levelCard(results: Results, level: 'MUST' | 'SHOULD'): string {
  const t = results.counts[level];
  const failing = blocks(level, results.run.strict) ? 'failed' : 'warnings';
  const total = `${t.requirements} requirement${t.requirements === 1 ? '' : 's'}`;
  const failedClass = t.failed ? (failing === 'failed' ? 'c-failed' : 'c-warning') : '';
  return `<div class="card level">
  <div class="lh"><span class="lvl l-${level}">${level}</span><span class="total">${total}</span></div>
  ${bar(t, failing === 'failed' ? 'failed' : 'warning')}
  <dl class="nums">
    <div><dt>passed</dt><dd class="c-passed">${t.passed}</dd></div>
    <div><dt>${failing}</dt><dd class="${failedClass}">${t.failed}</dd></div>
    <div><dt>undecided</dt><dd class="${t.error ? 'c-error' : ''}">${t.error}</dd></div>
    <div><dt>skipped</dt><dd>${t.skipped}</dd></div>
  </dl>
</div>`;
}

const link = (id: string) => `<a href="#req-${h(id)}">${h(id)}</a>`;
const why = (text: string) => `<span class="why">${text}</span>`;
const also = (said: string, ids: readonly { id: string }[]) =>
  ids.length ? `<ul class="also"><li>${said}: ${ids.map((m) => link(m.id)).join(', ')}</li></ul>` : '';

/** A finding's reason as its list gives it: a known deviation's with the baseline's word first. */
function reasonOf(f: Finding): string {
  if (f.kind === 'known') return `${oneLine(f.reason, 160)}: ${oneLine(f.entry.message, 160)}`;
  return f.kind === 'notScored' ? (f.reason ?? '') : oneLine(f.reason, 220);
}

/**
 * One finding: its link, its reason; root cause first (src/report/causes.ts): a failure explained
 * by one shown in this list or an earlier one is named under it.
 */
function finding(f: Finding): string {
  const cause = f.cause ? ` ${why(`(because of ${link(f.cause)}, below)`)}` : '';
  return `<li>${link(f.id)}${cause} ${why(h(reasonOf(f)))}${also(SAID.also, f.also)}${also(SAID.blocked, f.blocked)}</li>`;
}

/** Requirements one cause explains (Once): one item, first, for all of them. */
function onceItem(once: Once): string {
  const again = once.reproduce.map((curl) => `<li>${SAID.again}: <code>${h(curl)}</code></li>`);
  const ids = once.entries.map((e) => link(e.id)).join(', ');
  if (once.folded)
    return `<li><details><summary>${why(`${h(once.lead)} (${h(once.folded)})`)}</summary>${ids}</details></li>`;
  return `<li>${why(`${h(once.lead)}:`)} ${ids}${again.length ? `<ul class="also">${again.join('')}</ul>` : ''}</li>`;
}

function findingList(title: string, cls: string, list: Pick<FindingSection, 'findings' | 'count' | 'once'>): string {
  const { findings, once } = list;
  const n = list.count + (once?.counted ?? 0);
  if (n === 0) return '';
  const items = [
    once && !once.folded ? onceItem(once) : '',
    ...findings.map(finding),
    once?.folded ? onceItem(once) : '',
  ];
  return `<div class="finding ${cls}"><h3>${h(title)} <span class="n">${n}</span></h3><ul>${items.join('')}</ul></div>`;
}

function findingsSection(view: ReportView): string {
  const { violations: v, undecided: u, warnings: w, known, fixed, notScored, older } = view;
  const count = [v, u, w].reduce((n, s) => n + s.count + (s.once?.counted ?? 0), 0);
  if (count + known.length + fixed.length === 0 && !older) return '';
  const apart = (findings: Finding[]) => ({ findings, count: findings.length, once: null });
  return [
    '<section class="findings">',
    findingList(v.heading, 'f-failed', v),
    findingList(u.heading, 'f-error', u),
    findingList(w.heading, 'f-warning', w),
    findingList('Known deviations (baseline; still run, not regressions)', 'f-known', apart(known)),
    findingList(SAID.fixed, 'f-warning', apart(fixed)),
    older ? findingList(`Not scored: ${older}`, 'f-known', apart(notScored)) : '',
    '</section>',
  ].join('\n');
}

/** What the reader should know about the run itself: interrupted, partial, sent again, suite errors, the baseline's gate. */
function notes({ results, notes: n, gate }: ReportView): string[] {
  const b = results.run.baseline;
  const notes = [n.interrupted, n.partial, n.infrastructure].filter((x): x is string => Boolean(x));
  for (const e of n.errors) notes.push(`Suite error: ${e}`);
  if (b && gate) {
    const passed = gate.passed ? 'passed' : 'failed';
    notes.push(`Baseline ${b.path} (sha256 ${b.sha256.slice(0, 12)}…): gate ${passed}: ${gate.reason}.`);
    for (const x of b.expired) notes.push(`${capital(SAID.expired(x.id, x.until))}.`);
  }
  return notes;
}

const fact = (dt: string, dd: string) => `<div><dt>${dt}</dt><dd>${dd}</dd></div>`;
const muted = (text: string) => `<span class="muted">${text}</span>`;

function setFact({ results }: ReportView): string[] {
  const set = results.run.requirementSet;
  if (!set) return [];
  const older = set.current ? '' : ` ${muted("(not this release's: requirements added since are not scored)")}`;
  return [fact('Requirement set', `<code>${h(set.id)}</code>${older}`)];
}

function serverFact({ results, notes }: ReportView): string[] {
  const server = results.run.server;
  if (!server) return [];
  const log = `<a href="${h(server.log)}">${h(server.log)}</a>`;
  const exited = server.exited ? `<br><span class="c-failed">${h(notes.serverExit ?? '')}</span>` : '';
  return [fact('Server', `<code>${h(server.command)}</code> ${muted(`(--start; output in ${log})`)}${exited}`)];
}

/** The run's facts: target, when, seed, set, server, suite, mode, deployment, pets created, replay (null: an empty line). */
function facts(view: ReportView): (string | null)[] {
  const { results, notes } = view;
  const r = results.run;
  const label = givenLabel(results.target);
  const target = `${label ? `<strong>${h(label)}</strong> ` : ''}<code>${h(results.target.baseUrl)}</code>`;
  const commit = results.suite.commit ? ` · commit <code>${h(results.suite.commit.slice(0, 12))}</code>` : '';
  const score = notes.score ? `<br>${muted(h(notes.score))}` : '';
  const strict = r.strict ? 'strict: SHOULD findings fail the run' : 'SHOULD findings are warnings';
  const created = results.createdPets;
  const tagged = created.runTag ? `, names tagged <code>${h(created.runTag)}</code>` : '';
  return [
    fact('Target', `${target}${results.target.embedded ? ` ${muted(SAID.embedded)}` : ''}`),
    fact('Finished', `${h(when(r.finishedAt))} ${muted(`after ${h(duration(r.durationMs))}`)}`),
    ...(r.network ? [fact('Network', muted(h(networkSaid(r.network, r.requests))))] : []),
    fact('Seed', `<code>${h(r.seed ?? 'none')}</code>`),
    ...setFact(view),
    ...serverFact(view),
    fact(
      'Suite',
      `${h(results.suite.name)} ${h(results.suite.version)}${commit} ${muted(`· Node ${h(r.node)}`)}${score}`,
    ),
    fact('Mode', `${strict}${r.readOnly ? ' · read-only' : ''}${r.clock ? ` · clock ${h(r.clock)}` : ''}`),
    null,
    ...(r.deployment ?? []).map((d) => fact('Deployment', h(describeDeployment(d)))),
    fact('Pets created', `${created.count} ${muted(`(ids in ${h(created.ledger)}${tagged})`)}`),
    r.replay ? `<div class="wide"><dt>Replay</dt><dd><code>${h(r.replay)}</code></dd></div>` : '',
  ];
}

function header(view: ReportView): string {
  const { results } = view;
  const v = results.verdict;
  const seal = v === 'conformant' ? '✓' : v === 'nonconformant' ? '✗' : '?';
  return [
    `<header class="verdict v-${v}">`,
    `  <div class="eyebrow">${h(results.interface.name)} ${h(results.interface.version)} · conformance report</div>`,
    `  <h1><span class="seal" aria-hidden="true">${seal}</span><span id="level">${h(view.level.title)}</span></h1>`,
    `  <p class="reason">${h(results.verdictReason)}</p>`,
    view.level.said
      ? `  <p class="reason" id="level-said">Level ${h(view.level.title.toUpperCase())}: ${h(view.level.said)}</p>`
      : '',
    `  <p class="run-badge">${badgeImg(results)} ${muted('badge.svg and badge.json, beside this report')}</p>`,
    '  <dl class="facts">',
    ...facts(view).map((f) => (f === null ? '' : `    ${f}`)),
    '  </dl>',
    `  ${notes(view)
      .map((n) => `<p class="note">${h(n)}</p>`)
      .join('\n  ')}`,
    '</header>',
  ].join('\n');
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

const TOOLBAR = `<div class="toolbar">
  <label><input type="checkbox" id="problems-only"> Show only problems</label>
  <button type="button" id="expand-all">Expand all findings</button>
</div>`;

function footer(results: Results): string {
  const format = `Report format <code>${h(results.format)}</code> ${h(results.formatVersion)}`;
  return [
    '<footer>',
    `  <p>${format} (schema: <code>schemas/conformance-report.schema.json</code>).` +
      ' The SHA-256 of this file and of the other reports is in <code>manifest.json</code>.</p>',
    '  <p>The API key never appears in this report: reproductions read it from <code>$PETSTORE_API_KEY</code>.</p>',
    '</footer>',
  ].join('\n');
}

/** `har`: the HAR file of the run (--har), relative to the page, which each exchange links to. */
export function renderHtml(view: ReportView, { har }: { har?: string } = {}): string {
  const { results } = view;
  const r = results.run;
  const label = givenLabel(results.target);
  const title = `${view.level.title}: ${label ?? results.target.baseUrl} · Pet Store conformance`;
  const main = [
    '<main>',
    header(view),
    '',
    '<section class="levels">',
    LEVELS.map((l) => levelCard(results, l)).join('\n'),
    '</section>',
    '',
    findingsSection(view),
    '',
    results.requirements.some((e) => e.outcome !== 'passed') ? TOOLBAR : '',
    '',
    areaSections(results, har),
    '',
    r.coverage ? coverageSection(r.coverage) : '',
    r.soak ? soakSection(r.soak) : '',
    '',
    footer(results),
    '</main>',
  ];
  const generator = `petstore-conformance ${results.suite.version}`;
  return htmlPage({ title, generator, style: STYLE, script: SCRIPT }, main.join('\n'));
}
