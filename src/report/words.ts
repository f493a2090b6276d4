// Findings in words: a message's one-line reason, and the retries and pacing of a run.
import type { Retries } from '../wire/requests.js';
import type { DeploymentFinding, Results, RunRetries, RunServer, SuiteScore } from '../data/generated/report-types.js';

/**
 * The one-line reason: the first line of a message, cut to `max` characters. A summary line
 * such as "2 of 12 cases failed:" is joined with the first case, so the line says what broke.
 */
export function oneLine(message: string | undefined, max = 200): string {
  const lines = (message ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let line = lines[0] ?? '';
  if (line.endsWith(':') && lines[1]) line = `${line} ${lines[1].replace(/^- /, '')}${lines.length > 2 ? ' …' : ''}`;
  if (line.length <= max) return line;
  // A line cut short keeps both what was expected and what came back: each part is cut on its own.
  const at = line.indexOf('; got ');
  if (at < 0) return cut(line, max);
  const got = Math.min(line.length - at, Math.max(Math.floor(max * 0.4), max - at));
  return `${cut(line.slice(0, at), max - got)}${cut(line.slice(at), got)}`;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text);

/** "1 requirement", "2 requirements". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Retries in words, e.g. "429 ×3, 503 ×1 with Retry-After, 3 retried after 2.0 s of waits asked;
 * 1 resent after a stale connection". Undefined when there were none.
 */
export function describeRetries(r: Retries): string | undefined {
  const parts: string[] = [];
  const statuses = Object.entries(r.statuses).map(([status, n]) => `${status} ×${n}`);
  const waits = r.retryAfterMs > 0 ? ` after ${(r.retryAfterMs / 1000).toFixed(1)} s of waits asked` : '';
  if (statuses.length > 0)
    parts.push(
      `${statuses.join(', ')} with Retry-After, ${r.count > 0 ? `${r.count} retried${waits}` : 'none retried'}`,
    );
  if (r.resent > 0) parts.push(`${r.resent} resent after a stale connection`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** The run's retries and the pauses and slowdown they caused, in words; undefined when there were none. */
export function describeRunRetries(r: RunRetries | null | undefined): string | undefined {
  if (!r) return undefined;
  const parts = [describeRetries(r)];
  if (r.pacing.pausedMs > 0) parts.push(`every request paused ${(r.pacing.pausedMs / 1000).toFixed(1)} s in all`);
  if (r.pacing.slowestRate !== undefined) parts.push(`the pace slowed to ~${r.pacing.slowestRate} req/s`);
  const said = parts.filter(Boolean);
  return said.length > 0 ? said.join('; ') : undefined;
}

/** --start's server when it exited while the checks ran: how, the requests it left unanswered, its last lines. */
export function describeServerExit(server: RunServer | undefined): string | undefined {
  const exited = server?.exited;
  if (!server || !exited) return undefined;
  const how = exited.signal ? `signal ${exited.signal}` : `code ${exited.code ?? '?'}`;
  const shown = exited.unanswered.slice(0, 3).join(', ');
  const more = exited.unanswered.length > 3 ? ` and ${exited.unanswered.length - 3} more` : '';
  const after = exited.unanswered.length ? `, leaving ${shown}${more} unanswered` : '';
  const last = exited.lastLines.slice(-3).join(' | ');
  const gone = 'every check after that met a server that was gone';
  const where = `all its output in ${server.log}; started with --start ${server.command}`;
  return `the server under test exited with ${how} during the run${after}; ${gone}. Its last lines: ${last || '(none)'} (${where})`;
}

/** A deployment finding in words: what the gateway in front answered itself, and what that means for its clients. */
export function describeDeployment(d: DeploymentFinding): string {
  const seen = "clients of this deployment see it, not the service's Error body";
  return `the gateway in front answers ${d.request} itself (${d.answer}, its own page, ${plural(d.answers, 'answer')}): ${seen}`;
}

/** What the suite itself can see, in words: its own score against its broken and conforming servers. */
export function describeScore(s: SuiteScore): string {
  const caught = `this suite catches ${s.caught} of its ${s.faults} seeded faults`;
  return `${caught} and passes ${s.passing} of its ${s.variants} conforming variants, the same with each of ${s.seeds} seeds`;
}

/** What a run covered, in one line: "sent 92 of 92 catalogued inputs; not sent: 2 (read-only mode)". */
export function coverageSaid(c: NonNullable<Results['run']['coverage']>): string {
  const what = "what mainstream parsers forgive, the generators' constants";
  const sent = `sent ${c.sent} of ${plural(c.catalogued, 'catalogued input')} (${what}), whatever the seed`;
  if (c.notSent.length === 0) return sent;
  // By the reason's head: "read-only mode", "write budget spent", "not selected (--only, --skip)".
  const why = new Map<string, number>();
  const count = (text: string, c: string) => text.split(c).length - 1;
  for (const n of c.notSent) {
    let head = n.why.replace(/^\d+ of \d+ cases not run (in )?\(?/, '').split(/[:;]/)[0] ?? n.why;
    // Parentheses the cut left unbalanced: "read-only mode (x" ends before its own, "spent)" loses the prefix's.
    if (count(head, '(') > count(head, ')')) head = head.slice(0, head.lastIndexOf('(')).trimEnd();
    else if (count(head, ')') > count(head, '(')) head = head.slice(0, head.lastIndexOf(')'));
    why.set(head, (why.get(head) ?? 0) + 1);
  }
  return `${sent}; not sent: ${[...why].map(([w, n]) => `${n}, ${w}`).join('; ')}`;
}

/** The network of a run in one line: "1,650 requests on 640 new connections (HTTP/1.1); answered in: listPets 3 ms median, 9 ms p95; …". */
export function networkSaid(n: NonNullable<Results['run']['network']>, requests?: number | null): string {
  const sent = requests == null ? '' : `${plural(requests, 'request')} `;
  const ahead = n.connections?.unusedAhead
    ? `, ${n.connections.unusedAhead} of them opened ahead and closed unused`
    : '';
  const on = n.connections ? `on ${plural(n.connections.opened, 'new connection')}${ahead}` : 'through a proxy';
  const ops = Object.entries(n.latency).map(
    ([op, l]) => `${op} ${Math.round(l.medianMs)} ms median, ${Math.round(l.p95Ms)} ms p95`,
  );
  const trace = n.traceId ? `; trace id ${n.traceId}` : '';
  return `${sent}${on} (${n.protocol})${ops.length ? `; answered in: ${ops.join('; ')}` : ''}${trace}`;
}

/** --soak in one line: "30.2 s of 30 s, 12 rounds (seeds 6 to 17), 2,340 cases; no new finding in 30.2 s". */
export function soakSaid(s: NonNullable<Results['run']['soak']>): string {
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const seeds = s.seeds ? ` (seeds ${s.seeds.first} to ${s.seeds.last})` : '';
  const ran = `${secs(s.spentMs)} of ${secs(s.askedMs)} asked, ${plural(s.rounds, 'round')}${seeds}, ${plural(s.cases, 'case')}`;
  const each = s.findings.map((f) => `${f.requirement} in round ${f.round}, seed ${f.seed}`).join('; ');
  const found = s.findings.length
    ? `${plural(s.findings.length, 'new finding')} (${each}), none in the last ${secs(s.sinceLastFindingMs)}`
    : `no new finding in ${secs(s.sinceLastFindingMs)}`;
  const stopped = s.stopped.filter((x) => x.reason !== 'failed').length;
  const early = `; ${plural(stopped, 'property', 'properties')} stopped early (reasons in conformance.json)`;
  return `${ran}; ${found}${stopped ? early : ''}`;
}
