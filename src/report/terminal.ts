// The compact summary printed at the end of every run.
import { givenLabel, isPartial, type RequirementResult, type Results, type Tally } from './results.js';
import { baselineSaid, findingLists, findings, gateOf, notScoredSaid, olderSetSaid, VERDICT_TITLE } from './verdict.js';
import { saidOnce } from './one-cause.js';
import { levelApart, type Shown } from './causes.js';
import { coverageSaid, describeDeployment, describeServerExit, oneLine, soakSaid } from './words.js';

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

function counts(t: Tally, strictLevel: boolean): string {
  const parts = [`${t.passed} passed`];
  if (t.failed) parts.push(strictLevel ? `${t.failed} failed` : `${t.failed} warning${t.failed === 1 ? '' : 's'}`);
  if (t.error) parts.push(`${t.error} undecided`);
  if (t.skipped) parts.push(`${t.skipped} skipped`);
  return `${t.requirements} requirement${t.requirements === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

const SKIPS_SHOWN = 3;

/** Ids after a lead, as many to a line as fit the width, every one of them (later lines indented like the first). */
function wrapped(ids: readonly string[], width: number, lead: string): string[] {
  const indent = ' '.repeat(lead.replace(/\x1b\[\d+m/g, '').length);
  const lines: string[] = [];
  let line = '';
  for (const [i, id] of ids.entries()) {
    const piece = `${id}${i < ids.length - 1 ? ',' : ''}`;
    if (line && indent.length + line.length + 1 + piece.length > width) {
      lines.push(line);
      line = piece;
    } else line = line ? `${line} ${piece}` : piece;
  }
  lines.push(line);
  return lines.map((l, i) => `${i === 0 ? lead : indent}${l}`);
}

export function renderTerminal(
  results: Results,
  { paint = PLAIN, width = 120, reportDir = 'reports' }: { paint?: Paint; width?: number; reportDir?: string } = {},
): string {
  const { known, fixed, notScored } = findings(results);
  const { violations, undecided, warnings, gone, turned } = findingLists(results);
  const r = results.run;
  const label = givenLabel(results.target);
  const verdictPaint =
    results.verdict === 'conformant' ? paint.green : results.verdict === 'nonconformant' ? paint.red : paint.yellow;
  const line = (label: string, value: string) => ` ${paint.dim(label.padEnd(8))} ${value}`;
  const item = (mark: string, e: RequirementResult, tag: string, reason: string | undefined) => {
    const head = ` ${mark} ${e.id}${tag} `;
    return `${head}${paint.dim(oneLine(reason, Math.max(40, width - head.length)))}`;
  };
  const out = [
    '',
    paint.bold(` Pet Store conformance (interface ${results.interface.version}, suite ${results.suite.version})`),
    line(
      'target',
      `${label ? `${paint.bold(label)} · ` : ''}${results.target.baseUrl}${results.target.embedded ? ' (bundled reference server)' : ''}`,
    ),
    line('seed', `${r.seed ?? 'none'}${r.replay ? paint.dim(`  replay: ${r.replay}`) : ''}`),
    line('MUST', counts(results.counts.MUST, true)),
    line('SHOULD', counts(results.counts.SHOULD, r.strict)),
    line(
      'verdict',
      `${paint.bold(verdictPaint(VERDICT_TITLE[results.verdict].toUpperCase()))}: ${results.verdictReason}`,
    ),
  ];
  // Root cause first (src/report/causes.ts): a failure another one explains is named under that
  // one, in its "also failed because of this" line, unless that one comes only in a later list.
  const finding = (mark: string, { entry: e, cause, also, blocked }: Shown, tag: string) => {
    out.push(item(mark, e, `${tag}${cause ? ` (because of ${cause.id}, below)` : ''}`, e.message));
    for (const [ids, said] of [
      [also, '      also failed because of this: '],
      [blocked, '      blocked by this (not violated themselves): '],
    ] as const)
      if (ids.length)
        out.push(
          ...wrapped(
            ids.map((m) => `${m.id}${levelApart(m, e)}`),
            width,
            paint.dim(said),
          ),
        );
  };
  // What failed on a poisoned target's failing answers: one item (the verdict names the turn).
  if (turned)
    out.push(
      ...wrapped(
        turned.entries.map((e) => `${e.id}${e.level === 'SHOULD' ? ' (SHOULD)' : ''}`),
        width,
        ` ${paint.red('✘')} ${paint.dim(`${saidOnce(turned, results)}: `)}`,
      ),
    );
  for (const s of violations.shown) finding(paint.red('✘'), s, s.entry.level === 'SHOULD' ? ' (SHOULD, strict)' : '');
  for (const s of undecided.shown) finding(paint.yellow('?'), s, ' (could not decide)');
  // A backend that fell over mid-run, or a target that stopped answering, is said once (the verdict
  // says it when MUSTs are left), not once per requirement it left undecided.
  if (gone && !results.verdictReason.includes(gone.said))
    out.push(` ${paint.yellow('?')} ${gone.said}: ${gone.entries.length} requirement(s) could not be decided`);
  // The request it fell on, to send again by hand: the developer's one-line reproduction.
  if (gone?.reproduce?.[0]) out.push(line('fell on', gone.reproduce[0]));
  for (const s of warnings.shown)
    finding(paint.yellow('⚠'), s, ` (SHOULD, warning${s.entry.outcome === 'error' ? ', could not check' : ''})`);
  // --baseline: known deviations apart from the findings (with the baseline's reason), then the gate.
  for (const e of known)
    out.push(
      item(
        paint.dim('≈'),
        e,
        ` (known ${e.level} ${e.outcome === 'failed' ? 'failure' : 'undecided'}, baseline)`,
        baselineSaid(e),
      ),
    );
  for (const e of fixed) out.push(item(paint.yellow('⚠'), e, ' (fixed: remove it from the baseline)', baselineSaid(e)));
  if (r.baseline) {
    const gate = gateOf(results);
    out.push(
      line(
        'baseline',
        `${r.baseline.path}: ${gate.passed ? paint.green('gate passed') : paint.red('gate FAILED')}: ${gate.reason}`,
      ),
    );
    for (const x of r.baseline.expired)
      out.push(paint.dim(` - baseline entry ${x.id} expired on ${x.until ?? '?'}: counted as not in the baseline`));
  }
  // --requirement-set older than this release's: what was added since ran, and is said apart.
  const older = olderSetSaid(results);
  if (older) out.push(line('set', older));
  for (const e of notScored) if (e.outcome !== 'passed') out.push(item(paint.dim('○'), e, '', notScoredSaid(e)));
  // A skipped MUST is not a pass: say why, one line each (the reports list them all).
  const skipped = results.requirements.filter((e) => e.outcome === 'skipped' && e.level === 'MUST');
  for (const e of skipped.slice(0, SKIPS_SHOWN)) out.push(item(paint.dim('-'), e, ' (skipped)', e.skipReason));
  if (skipped.length > SKIPS_SHOWN)
    out.push(
      paint.dim(
        ` - ${skipped.length - SKIPS_SHOWN} more MUST requirements skipped (reasons in ${reportDir}/conformance.md)`,
      ),
    );
  const serverExit = describeServerExit(r.server);
  if (serverExit) out.push(paint.red(` ! ${oneLine(serverExit, width * 2)}`));
  if (r.interrupted) out.push(paint.yellow(' ! the run was interrupted: unfinished checks count as undecided'));
  if (isPartial(results)) out.push(paint.yellow(' ! partial run (--only/--skip): the verdict covers only what ran'));
  for (const e of r.errors) out.push(paint.red(` ! suite error: ${oneLine(e, width - 16)}`));
  // Findings about the deployment, not the implementation: no requirement is judged on them.
  for (const d of r.deployment ?? []) out.push(line('deployment', oneLine(describeDeployment(d), width * 2)));
  if (r.coverage) out.push(line('covered', oneLine(coverageSaid(r.coverage), width * 2)));
  if (r.soak) out.push(line('soaked', oneLine(soakSaid(r.soak), width * 2)));
  out.push(line('created', `${results.createdPets.count} pets (ids in ${reportDir}/${results.createdPets.ledger})`));
  out.push(
    line('reports', `${reportDir}/conformance.html, conformance.md, conformance.json, junit.xml, manifest.json`),
  );
  // The summary gives each finding's first reason; where the rest is.
  const listed = violations.entries.length + undecided.entries.length + warnings.entries.length + known.length;
  if (listed + (gone?.entries.length ?? 0) + (turned?.entries.length ?? 0) > 0) {
    out.push(
      line('evidence', `requests, responses and curl lines in ${reportDir}/conformance.html (or run with --verbose)`),
    );
  }
  out.push('');
  return out.join('\n');
}
