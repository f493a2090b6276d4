// `petstore-conformance diff OLD.json NEW.json [--md FILE]`: what changed from one run to the next,
// for the release manager reading a pull request. Both files are validated against the published
// report schema. Exit 1 when NEW has a MUST failure OLD had not, else 0.
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { firstError, readJsonFile, schemaValidators } from '../report/baseline.js';
import { loadSetting } from '../config/config.js';
import type { Level } from '../checks/requirement.js';
import { code, md } from '../report/markdown.js';
import { LEVELS, type RequirementResult, type Results } from '../report/results.js';
import { oneLine } from '../report/words.js';
import { VERDICT_TITLE } from '../report/verdict.js';

/** Bad usage or a file that is no report: one line, exit 2. */
export class DiffError extends Error {
  override name = 'DiffError';
}

const failing = (e: RequirementResult | undefined) => e?.outcome === 'failed' || e?.outcome === 'error';

export interface ReportDiff {
  old: Results;
  new: Results;
  /** Failing (failed or undecided) in NEW, not in OLD, by level. */
  newlyFailing: Record<Level, RequirementResult[]>;
  /** Failing in OLD, passed in NEW (the OLD entry, for its reason). */
  fixed: RequirementResult[];
  /** Failing in both (the NEW entry). */
  stillFailing: RequirementResult[];
  /** Failing in both, with another outcome or another first reason. */
  changedEvidence: { old: RequirementResult; new: RequirementResult }[];
  /** Requirements only NEW ran (a newer suite, another selection), and only OLD ran. */
  added: RequirementResult[];
  removed: RequirementResult[];
  /** Said plainly: the runs are not like for like (targets, suite versions, selections). */
  differences: string[];
  /** MUST requirements that failed in NEW and not in OLD: these make the exit code 1. */
  regressions: RequirementResult[];
}

/** Reads a conformance.json and validates it against schemas/conformance-report.schema.json. */
export function loadReport(path: string): Results {
  const fail = (problem: string) => new DiffError(`diff: ${path}: ${problem}`);
  const { value } = readJsonFile(path, fail);
  const { report } = schemaValidators();
  if (!report(value))
    throw fail(`not a valid conformance.json (schemas/conformance-report.schema.json): ${firstError(report.errors)}`);
  return value as Results;
}

export function diffReports(older: Results, newer: Results): ReportDiff {
  const before = new Map(older.requirements.map((e) => [e.id, e]));
  const after = new Map(newer.requirements.map((e) => [e.id, e]));
  const both = newer.requirements.filter((e) => before.has(e.id));
  const newlyFailing = { MUST: [], SHOULD: [] } as Record<Level, RequirementResult[]>;
  for (const e of both) if (failing(e) && !failing(before.get(e.id))) newlyFailing[e.level].push(e);
  const stillFailing = both.filter((e) => failing(e) && failing(before.get(e.id)));
  const changedEvidence = stillFailing.flatMap((e) => {
    const was = before.get(e.id) as RequirementResult;
    return was.outcome !== e.outcome || oneLine(was.message) !== oneLine(e.message) ? [{ old: was, new: e }] : [];
  });
  const added = newer.requirements.filter((e) => !before.has(e.id));
  const removed = older.requirements.filter((e) => !after.has(e.id));
  const differences: string[] = [];
  if (older.target.baseUrl !== newer.target.baseUrl)
    differences.push(`different targets: ${older.target.baseUrl} then ${newer.target.baseUrl}`);
  if (older.suite.version !== newer.suite.version)
    differences.push(`different suite versions: ${older.suite.version} then ${newer.suite.version}`);
  const selection = (r: Results) =>
    [
      r.run.selection.only.length ? `only ${r.run.selection.only.join(',')}` : '',
      r.run.selection.skip.length ? `skip ${r.run.selection.skip.join(',')}` : '',
    ]
      .filter(Boolean)
      .join(' ') || 'everything';
  if (selection(older) !== selection(newer))
    differences.push(`different selections: ${selection(older)} then ${selection(newer)}`);
  if (older.run.strict !== newer.run.strict)
    differences.push(`strict mode ${older.run.strict ? 'on' : 'off'} then ${newer.run.strict ? 'on' : 'off'}`);
  const regressions = newer.requirements.filter(
    (e) => e.level === 'MUST' && e.outcome === 'failed' && before.get(e.id)?.outcome !== 'failed',
  );
  return {
    old: older,
    new: newer,
    newlyFailing,
    fixed: both
      .filter((e) => e.outcome === 'passed' && failing(before.get(e.id)))
      .map((e) => before.get(e.id) as RequirementResult),
    stillFailing,
    changedEvidence,
    added,
    removed,
    differences,
    regressions,
  };
}

const how = (e: RequirementResult) => (e.outcome === 'error' ? 'could not be decided' : e.outcome);
const when = (r: Results) => r.run.finishedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

/** The sections of a diff, each line an id and its first reason; shared by the terminal and Markdown. */
function sections(d: ReportDiff): { title: string; lines: { id: string; level: Level; text: string }[] }[] {
  const line = (e: RequirementResult, text: string) => ({ id: e.id, level: e.level, text });
  return [
    ...LEVELS.map((level) => ({
      title: `Newly failing, ${level}`,
      lines: d.newlyFailing[level].map((e) => line(e, `${how(e)}: ${oneLine(e.message, 180)}`)),
    })),
    { title: 'Fixed', lines: d.fixed.map((e) => line(e, `passes now; was: ${oneLine(e.message, 160)}`)) },
    { title: 'Still failing', lines: d.stillFailing.map((e) => line(e, `${how(e)}: ${oneLine(e.message, 180)}`)) },
    {
      title: 'Changed evidence',
      lines: d.changedEvidence.map((c) =>
        line(
          c.new,
          `now ${how(c.new)}: ${oneLine(c.new.message, 120)}; was ${how(c.old)}: ${oneLine(c.old.message, 120)}`,
        ),
      ),
    },
    {
      title: 'Requirements added',
      lines: d.added.map((e) =>
        line(
          e,
          `${e.outcome === 'error' ? 'could not be decided' : e.outcome}${failing(e) ? `: ${oneLine(e.message, 160)}` : ''}`,
        ),
      ),
    },
    { title: 'Requirements removed', lines: d.removed.map((e) => line(e, `not in the new run (was ${how(e)})`)) },
  ];
}

function headline(d: ReportDiff): string {
  const n = d.regressions.length;
  return n > 0
    ? `${n} new MUST failure${n === 1 ? '' : 's'}: ${d.regressions.map((e) => e.id).join(', ')}`
    : 'no new MUST failure';
}

export function renderDiffText(d: ReportDiff): string {
  const out = [
    `Pet Store conformance: ${headline(d)}`,
    `  old  ${when(d.old)}  ${VERDICT_TITLE[d.old.verdict]}  ${d.old.target.baseUrl}  suite ${d.old.suite.version}`,
    `  new  ${when(d.new)}  ${VERDICT_TITLE[d.new.verdict]}  ${d.new.target.baseUrl}  suite ${d.new.suite.version}`,
    ...d.differences.map((x) => `  ! not like for like: ${x}`),
  ];
  for (const s of sections(d)) {
    if (s.lines.length === 0) continue;
    out.push('', `${s.title} (${s.lines.length})`, ...s.lines.map((l) => `  ${l.id} (${l.level}) ${l.text}`));
  }
  return `${out.join('\n')}\n`;
}

export function renderDiffMarkdown(d: ReportDiff): string {
  const out = [
    `## ${d.regressions.length ? '❌' : '✅'} Pet Store conformance: ${md(headline(d))}`,
    '',
    '| Run | Finished | Verdict | Target | Suite |',
    '|---|---|---|---|---|',
    ...(['old', 'new'] as const).map(
      (k) =>
        `| ${k} | ${when(d[k])} | ${VERDICT_TITLE[d[k].verdict]} | ${code(d[k].target.baseUrl)} | ${md(d[k].suite.version)} |`,
    ),
  ];
  if (d.differences.length) out.push('', ...d.differences.map((x) => `> **Not like for like:** ${md(x)}.`));
  for (const s of sections(d)) {
    if (s.lines.length === 0) continue;
    out.push(
      '',
      `### ${s.title} (${s.lines.length})`,
      '',
      ...s.lines.map((l) => `- ${code(l.id)} ${l.level}: ${md(l.text)}`),
    );
  }
  out.push('');
  return out.join('\n');
}

/** The command: returns the exit code (DiffError, exit 2, for bad usage or files). */
export async function diffCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { md: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new DiffError(
      `diff: ${oneLine((err as Error).message, 160)} (usage: petstore-conformance diff OLD.json NEW.json [--md FILE])`,
    );
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(
      'Usage: petstore-conformance diff OLD.json NEW.json [--md FILE]\n\nWhat changed between two runs: newly failing by level, fixed, still failing, ' +
        'changed evidence, requirements added or removed. The Markdown goes to --md FILE and is appended to $GITHUB_STEP_SUMMARY when set. Exit 1 ' +
        'when NEW has a MUST failure OLD had not, else 0; 2 for a file that is not a valid conformance.json.',
    );
    return 0;
  }
  if (positionals.length !== 2)
    throw new DiffError(
      `diff takes two reports, OLD.json and NEW.json; got ${positionals.length} (usage: petstore-conformance diff OLD.json NEW.json [--md FILE])`,
    );
  const d = diffReports(loadReport(positionals[0] as string), loadReport(positionals[1] as string));
  process.stdout.write(renderDiffText(d));
  const markdown = renderDiffMarkdown(d);
  if (values.md) writeFileSync(values.md, markdown);
  // This setting alone: a bad value of another setting does not concern a diff.
  const summary = loadSetting('stepSummary', env);
  if (summary) appendFileSync(summary, `${markdown}\n`);
  return d.regressions.length > 0 ? 1 : 0;
}
