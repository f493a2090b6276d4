// A requirement is data: id, level, section, statement, and its check. The same list runs
// under vitest, in the broken-server harness and in the reports.
import type { RequirementId } from '../data/generated/requirement-ids.js';
import type { RunContext } from './context.js';
import { TransportError, WriteBlocked } from '../wire/requests.js';
import { requestOnly } from '../wire/evidence.js';
import { Blocked, Skip, Violation, type CaseCause, type Outcome } from './outcomes.js';
import type { CheckKind, CheckRef, RunObserver } from './observer.js';
import { redactMessage, quoted } from '../wire/redact.js';
import { joined, msg } from './message.js';
import type { PropertyCase } from '../data/generated/report-types.js';

/** How a check ended, with a failed property's cases (see RunContext.caseFound), which `replay` sends again. */
export type CheckOutcome = Outcome & { cases?: PropertyCase[] };

// The outcome vocabulary lives below the run context and the assertions; checks get it from here too.
export {
  because,
  Blocked,
  OUTCOMES,
  Skip,
  Violation,
  worse,
  type CaseCause,
  type Outcome,
  type OutcomeKind,
} from './outcomes.js';
export type { RequirementId } from '../data/generated/requirement-ids.js';
export { senderOf, type AnswerFrom, type CheckKind, type CheckRef, type RunObserver } from './observer.js';

/** MUST: the interface says it. SHOULD: an HTTP standard it relies on, or sound practice, says it. */
export type Level = 'MUST' | 'SHOULD';

export interface Requirement {
  /** Stable, never reused: `<area>.<topic>[.<detail>]`; in self-tests/catalogue/requirement-ids.json. */
  id: RequirementId;
  level: Level;
  /** Heading of the interface document it comes from, e.g. "Endpoints › List all animals". */
  section: string;
  /** One line, in our own words, of what a conforming server does. */
  statement: string;
  check: (ctx: RunContext) => Promise<void>;
  /**
   * A rule over every answer of the run (the Error rules, the list rules): made once per run it is
   * selected in; the run context hands it every answer, and the runner has it judge them all after
   * every check, its own included, has ended, and only when its own check passed.
   */
  observer?: (ctx: RunContext) => RunObserver;
  /**
   * It sends what may crash or poison a fragile server (malformed URIs, huge or deeply nested
   * bodies, numbers beyond int64): the runner starts it, and its properties, after every ordinary
   * check and the run-wide rules' own cases, so a target that falls on it was judged on the rest.
   */
  fragile?: true;
  /** Its properties: further checks of it over generated inputs (tests/properties/). */
  properties?: readonly Property[];
  /** The catalogued inputs its check sends on every run (tests/leniencies/), for the run's coverage. */
  inputs?: readonly CatalogueInput[];
}

/**
 * One value the suite sends on every run, whatever the seed, because it is known to matter: what a
 * mainstream parser forgives (tests/leniencies/) or a constant a generator draws from.
 */
export interface CatalogueInput {
  /** Stable: `<operation>.<channel>.<slug>`, e.g. listPets.limit.hex. */
  id: string;
  operation: 'listPets' | 'getPet' | 'createPet' | 'every';
  /** Where it goes: limit, status, petId, body, a body field, authorization. */
  channel: string;
  /** In plain words. */
  what: string;
  /** The parsers, coercers and validators that accept it, each with the option that does. */
  acceptedBy: readonly string[];
  /** The requirement that judges the answer. */
  requirement: RequirementId;
  /** MUST: the requirement is false on an answer forgiving it; SHOULD: a SHOULD asks for the 400; allowed: an open reading. */
  level: Level | 'allowed';
}

/** A further check of the requirement that carries it: a property over generated inputs. */
export interface Property {
  /** One line: what holds for every generated input. */
  title: string;
  check: (ctx: RunContext) => Promise<void>;
}

/** One runnable test: a requirement's own check, or one of its properties. */
export interface Check {
  requirement: Requirement;
  /** The requirement's own check, or a property of it (generated inputs). */
  kind: CheckKind;
  /** Test name; always starts with the requirement id. */
  name: string;
  check: (ctx: RunContext) => Promise<void>;
  /** The requirement's observer, on its own check (not on its properties). */
  observer?: (ctx: RunContext) => RunObserver;
  /** The requirement's fragile, on its own check and its properties. */
  fragile?: true;
}

/** Flattens requirements into tests: each one's own check, then the properties each carries. */
export function checksOf(requirements: readonly Requirement[]): Check[] {
  const own: Check[] = requirements.map((r) => ({
    requirement: r,
    kind: 'requirement',
    name: `${r.id} ${r.statement}`,
    check: r.check,
    ...(r.observer ? { observer: r.observer } : {}),
    ...(r.fragile ? { fragile: r.fragile } : {}),
  }));
  const properties: Check[] = requirements.flatMap((r) =>
    (r.properties ?? []).map((p) => ({
      requirement: r,
      kind: 'property' as const,
      name: `${r.id} (property) ${p.title}`,
      check: p.check,
      ...(r.fragile ? { fragile: true as const } : {}),
    })),
  );
  return [...own, ...properties];
}

export function areaOf(id: string): string {
  return id.split('.')[0] ?? id;
}

/**
 * Runs one check in a context of its own (RunContext.forCheck: its id, kind and name attribute its
 * requests to it; `late`: started once the ordinary checks had ended) and turns how it ended into
 * an outcome.
 */
export async function execute(
  req: Pick<Check, 'check'> & Partial<Pick<Check, 'requirement' | 'kind' | 'name'>>,
  ctx: RunContext,
  late = false,
): Promise<CheckOutcome> {
  const started = performance.now();
  const done = (o: Omit<CheckOutcome, 'durationMs'>): CheckOutcome => ({
    ...o,
    ...(o.message === undefined ? {} : { message: redactMessage(o.message) }),
    durationMs: Math.round(performance.now() - started),
  });
  let own: RunContext | undefined;
  try {
    // A bare context (a unit test's) runs the check as it is.
    const id = req.requirement?.id;
    const ref: CheckRef = {
      ...(id ? { id } : {}),
      kind: req.kind ?? 'requirement',
      name: req.name ?? 'a check',
    };
    const bare: string[] = [];
    own =
      ctx.forCheck?.(ref, late) ??
      ({ note: (text: string) => bare.push(text), notes: bare, cases: [] } as unknown as RunContext);
    await req.check(own);
    const { notes } = own;
    return done({
      outcome: 'passed',
      ...(notes.length > 0 ? { note: redactMessage([...new Set(notes)].join('; ')) } : {}),
      evidence: [],
    });
  } catch (err) {
    if (err instanceof Skip || err instanceof WriteBlocked)
      return done({
        outcome: 'skipped',
        message: err.message,
        evidence: [],
        ...(err instanceof Blocked ? { blockedBy: err.by } : {}),
      });
    if (err instanceof Violation) {
      const causes = err.causes.map((c) => resolvePets(c, ctx, req.requirement?.id));
      return done({
        outcome: 'failed',
        message: err.message,
        evidence: err.evidence,
        ...(causes.some((c) => Object.keys(c).length > 0) ? { causes } : {}),
        ...(own?.cases.length ? { cases: [...own.cases] } : {}),
      });
    }
    if (err instanceof TransportError) {
      return done({
        outcome: 'error',
        message: `could not decide: ${quoted(err.message)}`,
        evidence: [requestOnly(err.request)],
      });
    }
    const e = err instanceof Error ? err : new Error(String(err));
    const where = e.stack
      ?.split('\n')
      .find((l) => l.includes('/tests/') || l.includes('/src/'))
      ?.trim();
    return done({
      outcome: 'error',
      message: `suite error: ${quoted(e.message)}${where ? ` (${where})` : ''}`,
      evidence: [],
    });
  }
}

/**
 * A rule over the run's verdict (RunObserver.judge), after its own check ended with `own`: the
 * verdict's outcome when the own cases passed, else theirs (a rule whose own cases failed judges
 * nothing more).
 */
export async function judgeRun(check: Check, observer: RunObserver, ctx: RunContext, own: Outcome): Promise<Outcome> {
  if (own.outcome !== 'passed') return own;
  const { requirement, kind, name } = check;
  const judged = await execute(
    {
      requirement,
      kind,
      name,
      check: async (c) => {
        const note = observer.judge();
        if (note) c.note(note);
      },
    },
    ctx,
  );
  const note = [own.note, judged.note].filter(Boolean).join('; ');
  return { ...judged, ...(note ? { note } : {}), durationMs: own.durationMs + judged.durationMs };
}

/**
 * A case about pets (invalid list items) names first the requirements whose checks created them,
 * when this run did; not the running one's (its own other check's failure on that pet names its cause).
 */
function resolvePets({ pets, ...cause }: CaseCause, ctx: RunContext, self: RequirementId | undefined): CaseCause {
  if (!pets?.length) return cause;
  const creators = pets.flatMap((id) => ctx.creatorOf?.(id) ?? []).filter((id) => id !== self);
  return { ...cause, rules: [...new Set([...creators, ...(cause.rules ?? [])])] };
}

/**
 * Runs one case per item concurrently and reports every violation, not just the first,
 * so a failure names each operation or input that broke the rule. A proven violation stands
 * whatever else happened. A case that cannot run here (read-only mode, write budget: Skip or
 * WriteBlocked) leaves the others to decide: the check passes noting the cases left out, and is
 * skipped only when no case ran. A case lost to the network (TransportError: no answer) is a note
 * too while the cases that were decided are at least as many; when more were lost than decided,
 * what remains cannot clear the rule and the check could not decide.
 */
export async function eachCase<T>(
  ctx: Pick<RunContext, 'note'>,
  items: readonly T[],
  run: (item: T) => Promise<void>,
  { oneAtATime = false }: { oneAtATime?: boolean } = {},
): Promise<void> {
  const results = oneAtATime ? await inTurn(items, run) : await Promise.allSettled(items.map(run));
  const violations: Violation[] = [];
  const notRun: Error[] = [];
  const lost: TransportError[] = [];
  for (const r of results) {
    if (r.status === 'fulfilled') continue;
    if (r.reason instanceof Violation) violations.push(r.reason);
    else if (r.reason instanceof Skip || r.reason instanceof WriteBlocked) notRun.push(r.reason);
    else if (r.reason instanceof TransportError) lost.push(r.reason);
    else throw r.reason;
  }
  if (violations.length === 1) throw violations[0] as Violation;
  if (violations.length > 1) {
    throw new Violation(
      msg`${violations.length} of ${items.length} cases failed:\n${joined(
        violations.map((v) => msg`- ${v.message}`),
        msg`\n`,
      )}`,
      violations.flatMap((v) => v.evidence),
      violations.flatMap((v) => v.causes),
    );
  }
  const decided = items.length - notRun.length - lost.length;
  if (lost.length > decided) throw lost[0] as TransportError;
  if (lost.length > 0) {
    const why = [...new Set(lost.map((e) => quoted(e.message)))].join('; ');
    ctx.note?.(
      `${lost.length} of ${items.length} cases got no answer from the service and were left out, decided on the ${decided} others (${why})`,
    );
  }
  if (notRun.length > 0) {
    if (notRun.length === items.length) throw notRun[0] as Error;
    const reasons = [...new Set(notRun.map((e) => e.message))];
    const readOnly = 'read-only mode: ';
    ctx.note?.(
      reasons.every((m) => m.startsWith(readOnly))
        ? `${notRun.length} of ${items.length} cases not run in read-only mode (${reasons.map((m) => m.slice(readOnly.length)).join('; ')})`
        : `${notRun.length} of ${items.length} cases not run (${reasons.join('; ')})`,
    );
  }
}

/** Each item's run after the one before has ended, settled as Promise.allSettled settles them. */
async function inTurn<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<PromiseSettledResult<void>[]> {
  const results: PromiseSettledResult<void>[] = [];
  for (const item of items) {
    try {
      results.push({ status: 'fulfilled', value: await run(item) });
    } catch (reason) {
      results.push({ status: 'rejected', reason });
    }
  }
  return results;
}
