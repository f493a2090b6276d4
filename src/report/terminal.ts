// The compact summary printed at the end of every run.
import { givenLabel, type Tally } from './results.js';
import { VERDICT_TITLE } from './verdict.js';
import { coverageSaid, describeDeployment, oneLine, soakSaid, networkSaid } from './words.js';
import { SAID, type Finding, type Named, type Once, type ReportView } from './view.js';

export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const ansi = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
export const COLORS: Paint = {
  red: ansi(31, 39),
  green: ansi(32, 39),
  yellow: ansi(33, 39),
  bold: ansi(1, 22),
  dim: ansi(2, 22),
};
export const PLAIN: Paint = { red: (s) => s, green: (s) => s, yellow: (s) => s, bold: (s) => s, dim: (s) => s };

/** Where the ids of a lead longer than half the width go on, under it: a finding's own lists' indent. */
const LONG_LEAD_INDENT = 6;

/**
 * Ids after a lead, as many to a line as fit the width, every one of them: later lines indented
 * like the first, or by LONG_LEAD_INDENT under a long lead (not a column of one id per line).
 */
function wrapped(ids: readonly string[], width: number, lead: string): string[] {
  const leadWidth = lead.replace(/\x1b\[\d+m/g, '').length;
  const indent = ' '.repeat(leadWidth > width / 2 ? LONG_LEAD_INDENT : leadWidth);
  const lines: string[] = [];
  let line = '';
  let room = width - leadWidth;
  for (const [i, id] of ids.entries()) {
    const piece = `${id}${i < ids.length - 1 ? ',' : ''}`;
    if (line && line.length + 1 + piece.length > room) {
      lines.push(line);
      line = piece;
      room = width - indent.length;
    } else line = line ? `${line} ${piece}` : piece;
  }
  lines.push(line);
  return lines.map((l, i) => `${i === 0 ? lead : indent}${l}`);
}

interface Options {
  paint?: Paint;
  width?: number;
  reportDir?: string;
}

/** How the summary is written: its paint, its width, the report folder it points to, whether each finding shows its curl line. */
interface Out {
  paint: Paint;
  width: number;
  reportDir: string;
  reproduce: boolean;
  line(label: string, value: string): string;
}

/** How each list marks its findings, and the tag after the id. */
function markOf(f: Finding, paint: Paint): [string, string] {
  const e = f.entry;
  switch (f.kind) {
    case 'violation':
      return [paint.red('✘'), f.level === 'SHOULD' ? ' (SHOULD, strict)' : ''];
    case 'undecided':
      return [paint.yellow('?'), ' (could not decide)'];
    case 'warning':
      return [paint.yellow('⚠'), ` (SHOULD, warning${e.outcome === 'error' ? ', could not check' : ''})`];
    case 'known':
      return [paint.dim('≈'), ` (known ${f.level} ${e.outcome === 'failed' ? 'failure' : 'undecided'}, baseline)`];
    case 'fixed':
      return [paint.yellow('⚠'), ` (${SAID.fixedOne})`];
    case 'notScored':
      return [paint.dim('○'), ''];
    case 'skipped':
      return [paint.dim('-'), ' (skipped)'];
  }
}

/**
 * One finding: its mark, id and first reason on a line; under it, those it explains. Root cause
 * first (src/report/causes.ts): a failure another one explains is named under that one, unless
 * that one comes only in a later list.
 */
function finding(f: Finding, { paint, width, reproduce }: Out): string[] {
  const [mark, tag] = markOf(f, paint);
  const head = ` ${mark} ${f.id}${tag}${f.cause ? ` (because of ${f.cause}, below)` : ''} `;
  const lines = [`${head}${paint.dim(oneLine(f.reason, Math.max(40, width - head.length)))}`];
  // A finding from code has no report folder beside it: its first exchange's curl line under it.
  if (reproduce && f.entry.reproduce && f.entry.outcome !== 'passed')
    lines.push(`      ${SAID.reproduce}: ${f.entry.reproduce}`);
  for (const [ids, said] of [
    [f.also, `      ${SAID.also}: `],
    [f.blocked, `      ${SAID.blocked}: `],
  ] as const)
    if (ids.length) lines.push(...wrapped(ids.map(idOf), width, paint.dim(said)));
  return lines;
}

const idOf = (n: Named) => `${n.id}${n.apart}`;

function counts(t: Tally, strictLevel: boolean): string {
  const parts = [`${t.passed} passed`];
  if (t.failed) parts.push(strictLevel ? `${t.failed} failed` : `${t.failed} warning${t.failed === 1 ? '' : 's'}`);
  if (t.error) parts.push(`${t.error} undecided`);
  if (t.skipped) parts.push(`${t.skipped} skipped`);
  return `${t.requirements} requirement${t.requirements === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function heading({ results, level }: ReportView, { paint, line }: Out): string[] {
  const r = results.run;
  const label = givenLabel(results.target);
  const verdictPaint =
    results.verdict === 'conformant' ? paint.green : results.verdict === 'nonconformant' ? paint.red : paint.yellow;
  const target = `${label ? `${paint.bold(label)} · ` : ''}${results.target.baseUrl}`;
  const verdict = paint.bold(verdictPaint(VERDICT_TITLE[results.verdict].toUpperCase()));
  return [
    '',
    paint.bold(` Pet Store conformance (interface ${results.interface.version}, suite ${results.suite.version})`),
    line('target', `${target}${results.target.embedded ? ` ${SAID.embedded}` : ''}`),
    line('seed', `${r.seed ?? 'none'}${r.replay ? paint.dim(`  replay: ${r.replay}`) : ''}`),
    line('MUST', counts(results.counts.MUST, true)),
    line('SHOULD', counts(results.counts.SHOULD, r.strict)),
    line('verdict', `${verdict}: ${results.verdictReason}`),
    line('level', `${paint.bold(verdictPaint(level.title.toUpperCase()))}${level.said ? `: ${level.said}` : ''}`),
  ];
}

/**
 * What failed on a poisoned target's failing answers: one item, after the violations (the verdict
 * names the turn). Marked as a violation only when it holds failures; blocked ones are skipped.
 */
function turnedItem(turned: Once | null, { paint, width }: Out): string[] {
  if (!turned) return [];
  const mark = turned.counted > 0 ? paint.red('✘') : paint.dim('-');
  return wrapped(turned.entries.map(idOf), width, ` ${mark} ${paint.dim(`${turned.lead}: `)}`);
}

/**
 * A backend that fell over mid-run, or a target that stopped answering, is said once (the verdict
 * says it when MUSTs are left), not once per requirement it left undecided; then the request it
 * fell on, to send again by hand: the developer's one-line reproduction.
 */
function goneItem(gone: Once | null, { paint, line }: Out): string[] {
  if (!gone) return [];
  const said = gone.inVerdict
    ? []
    : [` ${paint.yellow('?')} ${gone.said}: ${gone.entries.length} requirement(s) could not be decided`];
  return [...said, ...(gone.reproduce[0] ? [line('fell on', gone.reproduce[0])] : [])];
}

const SKIPS_SHOWN = 3;

/** --baseline: the gate; the older set scored against; what was not scored; the skipped MUSTs. */
function apart(view: ReportView, out: Out): string[] {
  const { paint, line } = out;
  const r = view.results.run;
  const lines: string[] = [];
  if (r.baseline && view.gate) {
    const passed = view.gate.passed ? paint.green('gate passed') : paint.red('gate FAILED');
    lines.push(line('baseline', `${r.baseline.path}: ${passed}: ${view.gate.reason}`));
    for (const x of r.baseline.expired) lines.push(paint.dim(` - ${SAID.expired(x.id, x.until)}`));
  }
  // --requirement-set older than this release's: what was added since ran, and is said apart.
  if (view.older) lines.push(line('set', view.older));
  for (const f of view.notScored) if (f.entry.outcome !== 'passed') lines.push(...finding(f, out));
  // A skipped MUST is not a pass: say why, one line each (the reports list them all), unless the
  // turned target's item above named it already (blocked by the request that broke the target).
  const named = new Set(view.violations.once?.entries.map((n) => n.id));
  const skipped = view.skipped.filter((f) => f.level === 'MUST' && !named.has(f.id));
  for (const f of skipped.slice(0, SKIPS_SHOWN)) lines.push(...finding(f, out));
  if (skipped.length > SKIPS_SHOWN) {
    const more = skipped.length - SKIPS_SHOWN;
    lines.push(paint.dim(` - ${more} more MUST requirements skipped (reasons in ${out.reportDir}/conformance.md)`));
  }
  return lines;
}

/** The run's own trouble, then what it found about the deployment and covered. */
function trouble(view: ReportView, { paint, width, line }: Out): string[] {
  const { results, notes } = view;
  const r = results.run;
  const lines: string[] = [];
  if (notes.serverExit) lines.push(paint.red(` ! ${oneLine(notes.serverExit, width * 2)}`));
  if (notes.interrupted) lines.push(paint.yellow(' ! the run was interrupted: unfinished checks count as undecided'));
  if (notes.partial) lines.push(paint.yellow(' ! partial run (--only/--skip): the verdict covers only what ran'));
  for (const e of notes.errors) lines.push(paint.red(` ! suite error: ${oneLine(e, width - 16)}`));
  // Findings about the deployment, not the implementation: no requirement is judged on them.
  for (const d of r.deployment ?? []) lines.push(line('deployment', oneLine(describeDeployment(d), width * 2)));
  if (r.coverage) lines.push(line('covered', oneLine(coverageSaid(r.coverage), width * 2)));
  if (r.soak) lines.push(line('soaked', oneLine(soakSaid(r.soak), width * 2)));
  if (r.network) lines.push(line('network', oneLine(networkSaid(r.network, r.requests), width * 2)));
  return lines;
}

/** The pets created and where the reports are. */
function footer(view: ReportView, { line, reportDir }: Out): string[] {
  const { results } = view;
  const lines: string[] = [];
  const created = results.createdPets;
  lines.push(line('created', `${created.count} pets (ids in ${reportDir}/${created.ledger})`));
  const files = 'conformance.html, conformance.md, conformance.json, junit.xml, badge.svg, badge.json, manifest.json';
  lines.push(line('reports', `${reportDir}/${files}`));
  // The summary gives each finding's first reason; where the rest is.
  const { violations: v, undecided: u, warnings: w } = view;
  const listed = [v, u, w].reduce((n, s) => n + s.count + (s.once?.counted ?? 0), view.known.length);
  if (listed > 0) {
    const where = `requests, responses and curl lines in ${reportDir}/conformance.html (or run with --verbose)`;
    lines.push(line('evidence', where));
  }
  return lines;
}

/** The heading, the findings (root cause first) and the run's own trouble: the summary less its files. */
function findingLines(view: ReportView, out: Out): string[] {
  const all = (list: readonly Finding[]) => list.flatMap((f) => finding(f, out));
  return [
    ...heading(view, out),
    ...all(view.violations.findings),
    ...turnedItem(view.violations.once, out),
    ...all(view.undecided.findings),
    ...goneItem(view.undecided.once, out),
    ...all(view.warnings.findings),
    // --baseline: known deviations apart from the findings (with the baseline's reason), then the gate.
    ...all(view.known),
    ...all(view.fixed),
    ...apart(view, out),
    ...trouble(view, out),
  ];
}

function outOf({ paint = PLAIN, width = 120, reportDir = 'reports' }: Options, reproduce: boolean): Out {
  const line = (label: string, value: string) => ` ${paint.dim(label.padEnd(8))} ${value}`;
  return { paint, width, reportDir, reproduce, line };
}

export function renderTerminal(view: ReportView, options: Options = {}): string {
  const out = outOf(options, false);
  return [...findingLines(view, out), ...footer(view, out), ''].join('\n');
}

/**
 * The summary's lines for a test's failure message (formatFindings): the same lines, each finding
 * with its curl line under it, and no report files named (a run from code may write none).
 */
export function renderFindings(view: ReportView, options: Omit<Options, 'reportDir'> = {}): string {
  return findingLines(view, outOf(options, true)).join('\n').replace(/^\n/, '');
}
