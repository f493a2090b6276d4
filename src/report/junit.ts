// junit.xml for CI systems: one testsuite per area, one testcase per requirement, named
// `<id> <statement>`. A violation is a <failure>, an undecided check an <error>, a skip <skipped>.
// A SHOULD finding outside strict mode does not fail the build, so its testcase passes and
// carries the finding as a `warning` property and in <system-out>, where CI viewers show it.
import type { Exchange } from '../wire/evidence.js';
import { byArea, type RequirementResult, type Results } from './results.js';
import { blocks, reportLevel, unscoredWhy } from './verdict.js';
import { coverageSaid, oneLine, soakSaid, networkSaid } from './words.js';

/** Text safe in XML 1.0: escaped, with characters XML cannot carry replaced by U+FFFD. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function exchangeText(e: Exchange): string {
  const lines = [`> ${e.request.method} ${e.request.url}`];
  for (const [k, v] of Object.entries(e.request.headers)) lines.push(`> ${k}: ${v}`);
  if (e.request.body !== undefined) lines.push('>', e.request.body);
  if (e.response) {
    lines.push(`< ${e.response.status}`);
    for (const [k, v] of Object.entries(e.response.headers)) lines.push(`< ${k}: ${v}`);
    if (e.response.body) lines.push('<', e.response.body);
  } else {
    lines.push('< (no response)');
  }
  return lines.join('\n');
}

/** The full story of a failure: message, each exchange, the reproduction. */
export function failureText(e: RequirementResult): string {
  const parts = [e.message ?? e.outcome];
  for (const ex of e.evidence ?? []) parts.push(exchangeText(ex), `Reproduce with: ${ex.reproduce}`);
  if (e.evidenceOmitted) parts.push(`(${e.evidenceOmitted} more exchanges omitted)`);
  return parts.join('\n\n');
}

function testcase(e: RequirementResult, strict: boolean, classname: string): string {
  const open = `    <testcase name="${xml(`${e.id} ${e.statement}`)}" classname="${xml(classname)}" time="${seconds(e.durationMs)}"`;
  const props = [`level=${e.level}`, `section=${e.section}`, `outcome=${e.outcome}`];
  if (e.outcome === 'passed' && e.note) props.push(`note=${oneLine(e.note)}`);
  // Root cause first: the failure whose evidence explains this one (src/report/causes.ts).
  if (e.causedBy) props.push(`causedBy=${e.causedBy}`);
  if (e.blockedBy) props.push(`blockedBy=${e.blockedBy}`);
  let body = '';
  // A known deviation, or a requirement outside the set scored against, fails no build.
  const known = e.baseline?.status === 'known' || e.notScored !== undefined;
  if (e.baseline)
    props.push(`baseline=${e.baseline.status}: ${e.baseline.reason}${e.baseline.link ? ` (${e.baseline.link})` : ''}`);
  if (e.baseline?.status === 'fixed')
    body = `      <system-out>${xml(`FIXED: remove ${e.baseline.entry} from the baseline (${e.baseline.reason})`)}</system-out>\n`;
  if (e.notScored) props.push(`notScored=${unscoredWhy(e)}`);
  if (e.notScored && (e.outcome === 'failed' || e.outcome === 'error')) {
    body = `      <system-out>${xml(`NOT SCORED (${unscoredWhy(e)}): ${failureText(e)}`)}</system-out>\n`;
  } else if (e.baseline?.status === 'known') {
    // The testcase passes and says it in <system-out>, as a warning does.
    body = `      <system-out>${xml(`KNOWN DEVIATION (baseline: ${e.baseline?.reason ?? ''}): ${failureText(e)}`)}</system-out>\n`;
  } else if (e.outcome === 'skipped') body = `      <skipped message="${xml(oneLine(e.skipReason))}"/>\n`;
  if (!known && (e.outcome === 'failed' || e.outcome === 'error') && blocks(e.level, strict)) {
    const tag = e.outcome === 'failed' ? 'failure' : 'error';
    const type = e.outcome === 'failed' ? `${e.level} violated` : 'could not be decided';
    body = `      <${tag} message="${xml(oneLine(e.message))}" type="${xml(type)}">${xml(failureText(e))}</${tag}>\n`;
  } else if (!known && (e.outcome === 'failed' || e.outcome === 'error')) {
    const what = e.outcome === 'failed' ? 'SHOULD not met' : 'SHOULD could not be checked';
    props.push(`warning=${what}: ${oneLine(e.message)}`);
    body = `      <system-out>${xml(`WARNING (${what}): ${failureText(e)}`)}</system-out>\n`;
  }
  const properties = props.map((p) => {
    const i = p.indexOf('=');
    return `        <property name="${xml(p.slice(0, i))}" value="${xml(p.slice(i + 1))}"/>\n`;
  });
  return `${open}>\n      <properties>\n${properties.join('')}      </properties>\n${body}    </testcase>\n`;
}

export function renderJunit(results: Results): string {
  const strict = results.run.strict;
  const count = (entries: readonly RequirementResult[], suiteErrors = 0) => {
    const open = entries.filter((e) => e.baseline?.status !== 'known' && !e.notScored);
    const failures = open.filter((e) => e.outcome === 'failed' && blocks(e.level, strict)).length;
    const errors = open.filter((e) => e.outcome === 'error' && blocks(e.level, strict)).length + suiteErrors;
    const skipped = entries.filter((e) => e.outcome === 'skipped').length;
    const time = seconds(entries.reduce((s, e) => s + e.durationMs, 0));
    return `tests="${entries.length + suiteErrors}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}"`;
  };
  const runProps: [string, string][] = [
    ['verdict', results.verdict],
    ['verdictReason', results.verdictReason],
    ['conformanceLevel', reportLevel(results)],
    ['target', results.target.baseUrl],
    ['label', results.target.label ?? ''],
    ['interfaceVersion', results.interface.version],
    ['suiteVersion', results.suite.version],
    ['seed', String(results.run.seed ?? '')],
    ['requirementSet', results.run.requirementSet?.id ?? ''],
    ['strict', String(results.run.strict)],
    ...(results.run.coverage ? [['coverage', coverageSaid(results.run.coverage)] as [string, string]] : []),
    ...(results.run.soak ? [['soak', soakSaid(results.run.soak)] as [string, string]] : []),
    ...(results.run.network
      ? [['network', networkSaid(results.run.network, results.run.requests)] as [string, string]]
      : []),
  ];
  const suites = byArea(results).map(({ area, title, entries }) => {
    const props = runProps.map(([k, v]) => `      <property name="${xml(k)}" value="${xml(v)}"/>\n`).join('');
    return (
      `  <testsuite name="${xml(title)}" ${count(entries)} timestamp="${results.run.startedAt}">\n` +
      `    <properties>\n${props}    </properties>\n` +
      entries.map((e) => testcase(e, strict, `petstore-conformance.${area}`)).join('') +
      `  </testsuite>\n`
    );
  });
  const runErrors = results.run.errors.length
    ? `  <testsuite name="suite errors" tests="${results.run.errors.length}" failures="0" errors="${results.run.errors.length}" skipped="0" time="0">\n` +
      results.run.errors
        .map(
          (m, i) =>
            `    <testcase name="suite error ${i + 1}" classname="petstore-conformance"><error message="${xml(oneLine(m))}">${xml(m)}</error></testcase>\n`,
        )
        .join('') +
      `  </testsuite>\n`
    : '';
  const name = `petstore-conformance ${xml(results.target.baseUrl)}: ${results.verdict}`;
  const counted = count(results.requirements, results.run.errors.length);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="${name}" ${counted} timestamp="${results.run.startedAt}">\n` +
    suites.join('') +
    runErrors +
    `</testsuites>\n`
  );
}
