// conformance.md: short enough for a pull-request comment or a GitHub job summary.
import { givenLabel, LEVELS, type RequirementResult, type Verdict } from './results.js';
import { coverageSaid, describeDeployment, describeRetries, oneLine, soakSaid, networkSaid } from './words.js';
import { capital, SAID, type Finding, type FindingSection, type Named, type ReportView } from './view.js';

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

/** At most MAX_LISTED items of a list, then how many more. */
function listed<T>(items: readonly T[], lines: (item: T) => string[]): string[] {
  const out = items.slice(0, MAX_LISTED).flatMap(lines);
  if (items.length > MAX_LISTED) out.push(`- … and ${items.length - MAX_LISTED} more (see conformance.html)`);
  return out;
}

/** A requirement, what it says, and the first line of why it is listed. */
const item = (e: RequirementResult, reason: string | undefined) =>
  `- ${code(e.id)} ${md(e.statement)}: ${code(oneLine(reason, 180))}`;

const ids = (list: readonly Named[]) => list.map((m) => `${code(m.id)}${m.apart}`).join(', ');

/**
 * One finding, and under it (root cause first) the one it failed because of, when only a later
 * section shows that one, and those it explains.
 */
function finding(f: Finding): string[] {
  return [
    item(f.entry, f.reason),
    ...(f.cause ? [`  - failed because of ${code(f.cause)}, below`] : []),
    ...(f.also.length ? [`  - ${SAID.also}: ${ids(f.also)}`] : []),
    ...(f.blocked.length ? [`  - ${SAID.blocked}: ${ids(f.blocked)}`] : []),
  ];
}

const section = (title: string, lines: string[]) => (lines.length ? ['', title, '', ...lines] : []);

/**
 * A list of findings, led by the requirements one cause explains (Once): one line, their ids; or,
 * when which they are depends on timing, last and folded, so the story above reads the same every run.
 */
function findingSection({ heading, findings, once }: FindingSection): string[] {
  if (once?.folded)
    return [
      ...(findings.length ? section(`### ${heading}`, listed(findings, finding)) : ['', `### ${heading}`]),
      ...details(`${md(capital(once.lead))} (${md(once.folded)})`, [ids(once.entries)]),
    ];
  const lead = once
    ? [`- ${md(once.lead)}: ${ids(once.entries)}`, ...once.reproduce.map((curl) => `  - ${SAID.again}: ${code(curl)}`)]
    : [];
  return section(`### ${heading}`, [...lead, ...listed(findings, finding)]);
}

function heading({ results, level }: ReportView): string[] {
  const r = results.run;
  const label = givenLabel(results.target);
  const commit = results.suite.commit ? ` (\`${results.suite.commit.slice(0, 12)}\`)` : '';
  const target = `${label ? `**${md(label)}** ` : ''}${code(results.target.baseUrl)}`;
  const facts = [
    `Target ${target}${results.target.embedded ? ` ${SAID.embedded}` : ''}`,
    `interface ${results.interface.version}`,
    `suite ${results.suite.version}${commit}`,
    ...(r.requirementSet ? [`requirement set ${r.requirementSet.id}`] : []),
    `seed \`${r.seed ?? 'none'}\``,
    r.finishedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
    `${(r.durationMs / 1000).toFixed(1)} s`,
    ...(r.strict ? ['strict'] : []),
    ...(r.readOnly ? ['read-only'] : []),
  ];
  return [
    `## ${ICON[results.verdict]} Pet Store conformance: ${level.title}`,
    '',
    `**${md(capital(results.verdictReason))}**`,
    '',
    ...(level.said ? [`Level **${level.title.toUpperCase()}**: ${md(level.said)}`, ''] : []),
    facts.join(' · '),
    '',
    '| Level | Requirements | Passed | Failed | Could not decide | Skipped |',
    '|---|---:|---:|---:|---:|---:|',
    ...LEVELS.map((l) => {
      const t = results.counts[l];
      return `| ${l} | ${t.requirements} | ${t.passed} | ${t.failed} | ${t.error} | ${t.skipped} |`;
    }),
  ];
}

/** --baseline: the gate, the known deviations and the fixed ones apart, the expired entries. */
function baseline({ results, gate, known, fixed }: ReportView): string[] {
  const b = results.run.baseline;
  if (!b || !gate) return [];
  const passed = gate.passed ? '✅ gate passed' : '❌ gate failed';
  const out = ['', `### Baseline ${code(b.path)}: ${passed}`, '', md(capital(gate.reason))];
  if (known.length)
    out.push('', `#### Known deviations (${known.length}; still run, not regressions)`, '', ...listed(known, finding));
  if (fixed.length) out.push('', `#### ${SAID.fixed} (${fixed.length})`, '', ...listed(fixed, finding));
  if (b.expired.length) out.push('', ...b.expired.map((x) => `> ${capital(SAID.expired(code(x.id), x.until))}.`));
  return out;
}

/** A list folded away, with its count. */
function details(summary: string, lines: string[]): string[] {
  return ['', `<details><summary>${summary}</summary>`, '', ...lines, '', '</details>'];
}

/** Not scored, skipped, passed with cases not run, sent again: the lists after the findings. */
function apart(view: ReportView): string[] {
  const { results, older, notScored, skipped } = view;
  const out: string[] = [];
  if (older) out.push('', `### Not scored (${notScored.length}): ${md(older)}`, '', ...listed(notScored, finding));
  if (skipped.length) out.push(...details(`Skipped (${skipped.length})`, listed(skipped, finding)));
  const partly = results.requirements.filter((e) => e.outcome === 'passed' && e.note);
  const noted = (e: RequirementResult) => [item(e, e.note)];
  if (partly.length) out.push(...details(`Passed, with cases not run (${partly.length})`, listed(partly, noted)));
  const retried = results.requirements.filter((e) => e.retries);
  const again = (e: RequirementResult) => [item(e, e.retries && describeRetries(e.retries))];
  if (retried.length) out.push(...details(`Retried or resent (${retried.length})`, listed(retried, again)));
  return out;
}

/** What the reader should know about the run itself, each a quoted line. */
function notes({ notes: n }: ReportView): string[] {
  const said = [n.interrupted, n.partial, n.score && `About the suite: ${n.score}.`, n.infrastructure, n.serverExit];
  const lines = [
    ...said.filter((x): x is string => Boolean(x)).map(md),
    ...n.errors.slice(0, 5).map((e) => `Suite error: ${md(oneLine(e, 200))}`),
  ];
  return lines.length ? ['', ...lines.map((l) => `> ${l}`)] : [];
}

function footer({ results }: ReportView): string[] {
  const r = results.run;
  return [
    ...(r.coverage ? ['', `Coverage: ${md(coverageSaid(r.coverage))}.`] : []),
    ...(r.soak ? ['', `Soak (--soak): ${md(soakSaid(r.soak))}.`] : []),
    ...(r.network ? ['', `Network: ${md(networkSaid(r.network, r.requests))}.`] : []),
    '',
    `${results.createdPets.count} pets created (ids in \`${results.createdPets.ledger}\`). ` +
      `Replay: ${code(r.replay ?? 'npx petstore-conformance')}. Evidence and reproductions: \`conformance.html\`.`,
    '',
  ];
}

export function renderMarkdown(view: ReportView): string {
  const { results } = view;
  const count = results.requirements.length;
  const notTested = [
    '',
    `No check ran: each of the ${count} requirements is not tested, for the reason above (\`conformance.json\` lists them).`,
  ];
  const deployment = (results.run.deployment ?? []).map((d) => `- ${md(describeDeployment(d))}`);
  return [
    ...heading(view),
    ...findingSection(view.violations),
    ...findingSection(view.undecided),
    ...(results.verdict === 'not-tested' ? notTested : []),
    ...findingSection(view.warnings),
    ...section('### The deployment, not the implementation (no requirement judged on these)', deployment),
    ...baseline(view),
    ...apart(view),
    ...notes(view),
    ...footer(view),
  ].join('\n');
}
