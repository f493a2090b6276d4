// Replay: each failed (or undecided) requirement of a report, its failed checks run again with the
// report's seed and clock, so they send the requests the findings recorded (a create before the get
// that read it, with the new ids) and are judged by their own assertions: no second copy of any
// rule. A failed property sends only the case its report recorded (CheckResult.cases), not its inputs.
import type { RunConfig } from '../config/config.js';
import type { Check } from '../checks/requirement.js';
import { matches } from '../checks/select.js';
import type { CheckInput, RequirementResult, Results } from '../report/results.js';
import { oneLine } from '../report/words.js';
import { ChecksRunner } from './runner.js';
import { PLACEHOLDER, PREFIX_PLACEHOLDER } from '../wire/redact.js';
import type { ApiRequest, SentRequest } from '../wire/requests.js';

export type ReplayVerdict = 'FIXED' | 'STILL FAILING' | 'COULD NOT REPLAY';

export interface ReplayedRequirement {
  id: string;
  verdict: ReplayVerdict;
  /** STILL FAILING: the new answer, one line; COULD NOT REPLAY: why. */
  detail?: string;
}

export interface Replay {
  requirements: ReplayedRequirement[];
  /** Requests the replay sent (each retry counts). */
  requests: number;
}

/** Said with every replay: a check passing again on its recorded case proves nothing of the others. */
export const NOT_A_VERDICT = 'a FIXED replay is not a verdict: the whole run decides';

const undecided = (o: string) => o === 'failed' || o === 'error';

/**
 * Replays `results` against `config`'s target, with the report's seed, the requirements
 * --only and --skip keep: every check of theirs that failed or could not decide is run again.
 */
export async function replayReport(results: Results, catalogue: readonly Check[], config: RunConfig): Promise<Replay> {
  const kept = (id: string) =>
    (config.only.length === 0 || config.only.some((p) => matches(id, p))) && !config.skip.some((p) => matches(id, p));
  const failed = results.requirements.filter((r) => undecided(r.outcome) && kept(r.id));
  const byName = new Map(catalogue.map((c) => [c.name, c]));
  const rerun = new Set<Check>();
  const missing = new Map<string, string>();
  // A run-wide rule's checks are replaced by ones that send its findings' requests too.
  const replaced = new Map<Check, Check>();
  for (const r of failed) {
    const names = r.checks.filter((c) => undecided(c.outcome)).map((c) => c.name);
    const found = names.flatMap((n) => byName.get(n) ?? []);
    if (found.length === 0 || found.length < names.length) {
      missing.set(r.id, `this suite has no check named ${names.find((n) => !byName.has(n)) ?? r.id}`);
      continue;
    }
    for (const check of found) {
      if (check.observer) replaced.set(check, withRecorded(check, r, results.target.baseUrl, config.apiKey));
      rerun.add(replaced.get(check) ?? check);
    }
  }
  const replaying = new Map(
    failed.flatMap((r) => r.checks.flatMap((c) => (c.cases ? [[c.name, c.cases] as const] : []))),
  );
  // The report's seed (its inputs, its pets' names) and clock, unless another clock is asked for:
  // what a check expects of a date depends on it.
  const now = config.now ?? results.run.clock ?? undefined;
  const replayConfig: RunConfig = { ...config, seed: results.run.seed ?? config.seed, now, replaying };
  const run =
    rerun.size === 0
      ? undefined
      : await new ChecksRunner(
          catalogue.map((c) => replaced.get(c) ?? c),
          replayConfig,
          {},
          (c) => rerun.has(c),
        ).run();
  const replayed = new Map(
    failed.map((r): [string, ReplayedRequirement] => {
      const why = missing.get(r.id);
      if (why !== undefined) return [r.id, { id: r.id, verdict: 'COULD NOT REPLAY', detail: why }];
      return [r.id, verdictOf(r.id, run?.checks.filter((c) => c.requirement.id === r.id) ?? [])];
    }),
  );
  return { requirements: failed.map((r) => throughCause(r, replayed)), requests: run?.requests ?? 0 };
}

/**
 * A failure the report files under another requirement (causedBy: that one's evidence explains it)
 * stands while its cause still fails, though its own checks pass alone: the cause's answers made it.
 */
function throughCause(r: RequirementResult, replayed: ReadonlyMap<string, ReplayedRequirement>): ReplayedRequirement {
  const own = replayed.get(r.id) as ReplayedRequirement;
  const cause = r.causedBy === undefined ? undefined : replayed.get(r.causedBy);
  if (own.verdict !== 'FIXED' || cause?.verdict !== 'STILL FAILING') return own;
  return {
    id: r.id,
    verdict: 'STILL FAILING',
    detail: `through ${cause.id}, which still fails (the report files this failure under it)`,
  };
}

/** Headers the client writes itself; traceparent named a span of the run, not of the replay. */
const NOT_RESENT = new Set(['host', 'content-length', 'connection', 'traceparent', 'transfer-encoding']);
const CUT_BODY = /… \(\d+ chars\)$/;

/** The report's placeholders for the key (src/wire/redact.ts), the key again. */
const withKey = (text: string, key: string) =>
  text.replaceAll(PREFIX_PLACEHOLDER, key.slice(0, -1)).replaceAll(PLACEHOLDER, key);

/** A recorded request as the client sends it again, below `base` (the report's base URL); undefined when it cannot be. */
function resent({ method, url, headers, body }: SentRequest, base: string, key: string): ApiRequest | undefined {
  if (!url.startsWith(base) || (body !== undefined && CUT_BODY.test(body))) return undefined;
  const { authorization, ...rest } = headers;
  return {
    method,
    // The path and query as they went on the wire: the client encodes only `query`'s pairs.
    path: withKey(url.slice(base.replace(/\/+$/, '').length), key),
    ...(body === undefined ? {} : { body: { raw: withKey(body, key) } }),
    auth: authorization === undefined ? 'none' : { authorization: withKey(authorization, key) },
    headers: {
      // A body sent without a Content-Type goes again without one (the client's default is JSON).
      ...(body === undefined ? {} : { 'content-type': '' }),
      ...Object.fromEntries(Object.entries(rest).filter(([k]) => !NOT_RESENT.has(k))),
    },
  };
}

/**
 * A rule over every answer of the run judges answers other checks drew: its replay sends its
 * findings' requests again, beside its own cases, and its observer judges them as in the run.
 */
function withRecorded(check: Check, r: RequirementResult, base: string, key: string): Check {
  const again = (r.evidence ?? []).flatMap((e) => resent(e.request, base, key) ?? []);
  return {
    ...check,
    check: async (ctx) => {
      await Promise.all(again.map((req) => ctx.api.send(req)));
      await check.check(ctx);
    },
  };
}

/** How a requirement's checks ended again, in the replay's words: a proven failure first. */
function verdictOf(id: string, checks: readonly CheckInput[]): ReplayedRequirement {
  const failed = checks.find((c) => c.outcome === 'failed');
  if (failed) return { id, verdict: 'STILL FAILING', detail: oneLine(failed.message) };
  const other = checks.find((c) => c.outcome !== 'passed');
  if (!other) return { id, verdict: 'FIXED' };
  return { id, verdict: 'COULD NOT REPLAY', detail: oneLine(other.message) || `its check was ${other.outcome}` };
}

/** The lines a replay prints: one per requirement, then what it does not prove. */
export function replayLines(replay: Replay, target: string): string[] {
  const lines = replay.requirements.map((r) => `${r.id} ${r.verdict}${r.detail ? `: ${r.detail}` : ''}`);
  const fixed = replay.requirements.filter((r) => r.verdict === 'FIXED').length;
  return [
    `replayed ${replay.requirements.length} requirement(s) against ${target}: ${fixed} fixed, ${replay.requests} requests`,
    ...lines,
    `note: ${NOT_A_VERDICT}`,
  ];
}
