// conformance.md: short enough for a pull-request comment or a GitHub job summary.
import { givenLabel, isPartial, LEVELS, type RequirementResult, type Results, type Verdict } from './results.js';
import {
  baselineSaid,
  findingLists,
  findings,
  gateOf,
  notScoredSaid,
  olderSetSaid,
  VERDICT_TITLE,
  type FindingList,
} from './verdict.js';
import { saidOnce, type SaidOnce } from './one-cause.js';
import { levelApart, type Shown } from './causes.js';
import {
  describeDeployment,
  describeRetries,
  describeRunRetries,
  describeScore,
  describeServerExit,
  oneLine,
  coverageSaid,
  soakSaid,
} from './words.js';

const ICON: Readonly<Record<Verdict, string>> = {
  conformant: '✅',
  nonconformant: '❌',
  inconclusive: '⚠️',
  'not-tested': '⛔',
};

/** Markdown-inert text inside a line: characters that could start inline markup are escaped. */
export function md(text: string): string {
  return text.replace(/[\\`*_[\]<>|~&]/g, '\\$&').replace(/\r?\n/g, ' ');
}

/** Literal text as an inline code span: the fence is longer than any run of backticks inside. */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const line = text.replace(/\r?\n/g, ' ');
  const pad = /^[` ]|[` ]$/.test(line) ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

const MAX_LISTED = 25;

function list(
  entries: readonly RequirementResult[],
  reason: (e: RequirementResult) => string | undefined,
  after: (e: RequirementResult) => string[] = () => [],
): string[] {
  const lines = entries
    .slice(0, MAX_LISTED)
    .flatMap((e) => [`- ${code(e.id)} ${md(e.statement)}: ${code(oneLine(reason(e), 180))}`, ...after(e)]);
  if (entries.length > MAX_LISTED) lines.push(`- … and ${entries.length - MAX_LISTED} more (see conformance.html)`);
  return lines;
}

/**
 * A list of findings in root-cause order (see findingLists): a failure another explains is named
 * under it ("also failed because of this"), unless that one is listed only in a later section.
 */
function causeList({ shown }: FindingList): string[] {
  const under = (e: RequirementResult) => {
    const { cause, also, blocked } = shown.find((s) => s.entry === e) as Shown;
    const ids = (list: RequirementResult[]) => list.map((m) => `${code(m.id)}${levelApart(m, e)}`).join(', ');
    return [
      ...(cause ? [`  - failed because of ${code(cause.id)}, below`] : []),
      ...(also.length ? [`  - also failed because of this: ${ids(also)}`] : []),
      ...(blocked.length ? [`  - blocked by this (not violated themselves): ${ids(blocked)}`] : []),
    ];
  };
  return list(
    shown.map((s) => s.entry),
    (e) => e.message,
    under,
  );
}

export function renderMarkdown(results: Results): string {
  const { known, fixed, notScored } = findings(results);
  const { violations, undecided, warnings, gone, turned } = findingLists(results);
  const notTested = results.verdict === 'not-tested';
  const r = results.run;
  const label = givenLabel(results.target);
  const commit = results.suite.commit ? ` (\`${results.suite.commit.slice(0, 12)}\`)` : '';
  const out = [
    `## ${ICON[results.verdict]} Pet Store conformance: ${VERDICT_TITLE[results.verdict]}`,
    '',
    `**${md(results.verdictReason.charAt(0).toUpperCase() + results.verdictReason.slice(1))}**`,
    '',
    `Target ${label ? `**${md(label)}** ` : ''}${code(results.target.baseUrl)}${results.target.embedded ? ' (bundled reference server)' : ''} · interface ${results.interface.version} · suite ${results.suite.version}${commit}${r.requirementSet ? ` · requirement set ${r.requirementSet.id}` : ''} · seed \`${r.seed ?? 'none'}\` · ${r.finishedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} · ${(r.durationMs / 1000).toFixed(1)} s${r.strict ? ' · strict' : ''}${r.readOnly ? ' · read-only' : ''}`,
    '',
    '| Level | Requirements | Passed | Failed | Could not decide | Skipped |',
    '|---|---:|---:|---:|---:|---:|',
    ...LEVELS.map((l) => {
      const t = results.counts[l];
      return `| ${l} | ${t.requirements} | ${t.passed} | ${t.failed} | ${t.error} | ${t.skipped} |`;
    }),
  ];
  const levels = r.strict ? 'MUST and SHOULD' : 'MUST';
  const section = (title: string, lines: string[]) => (lines.length ? ['', title, '', ...lines] : []);
  // Requirements one cause explains (SaidOnce): one line, their ids, not one line each.
  const once = (o: SaidOnce | null) =>
    o
      ? [
          `- ${md(saidOnce(o, results))}: ${o.entries.map((e) => `${code(e.id)}${e.level === 'SHOULD' ? ' (SHOULD)' : ''}`).join(', ')}`,
          ...(o.reproduce ?? []).map((curl) => `  - what it fell on, again: ${code(curl)}`),
        ]
      : [];
  out.push(...section(`### Violations (${levels})`, [...once(turned), ...causeList(violations)]));
  out.push(...section('### Could not be decided', [...once(gone), ...causeList(undecided)]));
  if (notTested)
    out.push(
      '',
      `No check ran: each of the ${results.requirements.length} requirements is not tested, for the reason above (\`conformance.json\` lists them).`,
    );
  out.push(...section('### Warnings (SHOULD, do not fail the run)', causeList(warnings)));
  out.push(
    ...section(
      '### The deployment, not the implementation (no requirement judged on these)',
      (r.deployment ?? []).map((d) => `- ${md(describeDeployment(d))}`),
    ),
  );
  if (r.baseline) {
    const gate = gateOf(results);
    out.push(
      '',
      `### Baseline ${code(r.baseline.path)}: ${gate.passed ? '✅ gate passed' : '❌ gate failed'}`,
      '',
      md(gate.reason.charAt(0).toUpperCase() + gate.reason.slice(1)),
    );
    if (known.length)
      out.push(
        '',
        `#### Known deviations (${known.length}; still run, not regressions)`,
        '',
        ...list(known, baselineSaid),
      );
    if (fixed.length)
      out.push('', `#### Fixed: remove them from the baseline (${fixed.length})`, '', ...list(fixed, baselineSaid));
    if (r.baseline.expired.length)
      out.push(
        '',
        ...r.baseline.expired.map(
          (x) => `> Baseline entry ${code(x.id)} expired on ${x.until ?? '?'}: counted as not in the baseline.`,
        ),
      );
  }
  const older = olderSetSaid(results);
  if (older) out.push('', `### Not scored (${notScored.length}): ${md(older)}`, '', ...list(notScored, notScoredSaid));
  const skipped = results.requirements.filter((e) => e.outcome === 'skipped');
  if (skipped.length) {
    out.push(
      '',
      `<details><summary>Skipped (${skipped.length})</summary>`,
      '',
      ...list(skipped, (e) => e.skipReason),
      '',
      '</details>',
    );
  }
  const partly = results.requirements.filter((e) => e.outcome === 'passed' && e.note);
  if (partly.length) {
    out.push(
      '',
      `<details><summary>Passed, with cases not run (${partly.length})</summary>`,
      '',
      ...list(partly, (e) => e.note),
      '',
      '</details>',
    );
  }
  const retried = results.requirements.filter((e) => e.retries);
  if (retried.length) {
    out.push(
      '',
      `<details><summary>Retried or resent (${retried.length})</summary>`,
      '',
      ...list(retried, (e) => e.retries && describeRetries(e.retries)),
      '',
      '</details>',
    );
  }
  const notes: string[] = [];
  if (r.interrupted) notes.push('The run was interrupted: checks that had not finished are reported as undecided.');
  if (isPartial(results)) {
    const sel = [
      r.selection.only.length ? `only ${r.selection.only.join(', ')}` : '',
      r.selection.skip.length ? `skipping ${r.selection.skip.join(', ')}` : '',
    ];
    notes.push(
      `Partial run (${md(sel.filter(Boolean).join('; '))}): the verdict covers only the requirements that ran.`,
    );
  }
  if (results.suite.score) notes.push(`About the suite: ${md(describeScore(results.suite.score))}.`);
  const infrastructure = describeRunRetries(r.retries);
  if (infrastructure) notes.push(`Requests sent again (the infrastructure, not findings): ${md(infrastructure)}.`);
  const serverExit = describeServerExit(r.server);
  if (serverExit) notes.push(md(serverExit));
  for (const e of r.errors.slice(0, 5)) notes.push(`Suite error: ${md(oneLine(e, 200))}`);
  if (notes.length) out.push('', ...notes.map((n) => `> ${n}`));
  if (r.coverage) out.push('', `Coverage: ${md(coverageSaid(r.coverage))}.`);
  if (r.soak) out.push('', `Soak (--soak): ${md(soakSaid(r.soak))}.`);
  out.push(
    '',
    `${results.createdPets.count} pets created (ids in \`${results.createdPets.ledger}\`). ` +
      `Replay: ${code(r.replay ?? 'npx petstore-conformance')}. Evidence and reproductions: \`conformance.html\`.`,
    '',
  );
  return out.join('\n');
}
