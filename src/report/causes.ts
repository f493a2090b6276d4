// Root cause first: which failure explains another (from what checks said of each failing case, never message text), and the order findings are named in.
import type { CaseCause } from '../checks/outcomes.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';
import type { RequirementResult } from '../data/generated/report-types.js';

/** What causes.ts reads of a requirement: its outcome and, when failed, its failing checks' cases. */
export interface CauseInput {
  id: string;
  /** MUST when absent. A MUST is never explained by a SHOULD. */
  level?: RequirementResult['level'];
  outcome: RequirementResult['outcome'];
  /** One per failing case of its failed checks; a failed check that names none counts one own case. */
  cases: readonly CaseCause[];
}

interface Link {
  to: string;
  /** Through a shared exchange (sentBy), not only a rule. */
  shared: boolean;
  /** Only through other rules: the evidence broke them, never this one's own (see causesOf). */
  blocked?: boolean;
}

/**
 * Where one case's evidence points: the one sender that failed, else the first rule it names that
 * failed, else undefined (its own). `explains`: the failures that may explain a violation of its
 * own (of a level at least its own: a MUST finding is never explained by a SHOULD); any failure
 * may block it (a MUST check that relied on a SHOULD behaviour decided nothing where it failed).
 */
function resolve(
  c: CaseCause,
  self: string,
  failed: ReadonlySet<string>,
  explains: ReadonlySet<string>,
): Link | undefined {
  const senders = (c.sentBy ?? []).filter((id) => id !== self && failed.has(id));
  if (senders.length === 1 && explains.has(senders[0] as string)) return { to: senders[0] as string, shared: true };
  const rules = c.rules ?? [];
  // Its own rule named too, or `mine`: broken too, so a violation of its own that a rule explains.
  const mine = c.mine === true || rules.includes(self as RequirementId);
  for (const rule of rules) {
    if (rule === self) return undefined;
    if ((mine ? explains : failed).has(rule)) return { to: rule, shared: false, blocked: !mine };
  }
  return undefined;
}

/** Where a chain of links from `id` ends (itself when it has none; stops at a cycle). */
function rootOf(id: string, links: ReadonlyMap<string, Link>): string {
  const seen = new Set<string>();
  let at = id;
  while (links.has(at) && !seen.has(at)) {
    seen.add(at);
    at = (links.get(at) as Link).to;
  }
  return at;
}

/** The one failure all of a requirement's failing cases point at (`links` given: the one root of those they point at), if there is one. */
function linkOf(
  self: string,
  cases: readonly (Link | undefined)[],
  links?: ReadonlyMap<string, Link>,
): Link | undefined {
  if (cases.length === 0 || cases.some((c) => c === undefined)) return undefined;
  const ends = new Set((cases as Link[]).map((c) => (links ? rootOf(c.to, links) : c.to)));
  const [to] = ends;
  if (ends.size !== 1 || to === undefined || to === self) return undefined;
  return { to, shared: (cases as Link[]).every((c) => c.shared), blocked: (cases as Link[]).every((c) => c.blocked) };
}

/**
 * For each failed requirement grouped under another, the root it is grouped under; `entries` in
 * catalogue order. Checks say, per failing case, whose rule its evidence breaks when that is not
 * their own (a fixture create answered 500 is createPet.minimal's rule; see CaseCause):
 * - A case resolves to the one requirement among `sentBy` that failed (a run-wide rule judged
 *   that check's request: the very same exchange), else to the first of `rules` that failed (most
 *   specific first; the failing requirement itself before any other makes the case its own).
 * - A failure is caused by X when every one of its failing cases resolves to X, or to failures
 *   grouped under X. One case of its own, or cases resolving to several roots, make it a root: no
 *   one failure explains it.
 * - Causes chain to their root (A because of B because of C: A and B are grouped under C). A
 *   cycle (a check failing on an Error rule whose only evidence is that check's own answers) is
 *   broken at a link resting on rules rather than on a shared exchange (the first such in
 *   catalogue order): there the check is the root.
 * - Blocked: every one of its failing cases broke another requirement's rule (its own statement,
 *   not shown false on that evidence, is not violated), none an exchange that failed its own rule.
 * Every failure stays in the reports; a grouped one records its root as `causedBy`, a blocked one
 * as `blockedBy`.
 */
export function causesOf(entries: readonly CauseInput[]): Map<string, { root: string; blocked: boolean }> {
  const failedAt = (level: CauseInput['level']) =>
    new Set(
      entries
        .filter((e) => e.outcome === 'failed' && (level === 'SHOULD' || (e.level ?? 'MUST') === 'MUST'))
        .map((e) => e.id),
    );
  const failed = failedAt('SHOULD');
  const mustFailed = failedAt('MUST');
  const cases = new Map(
    entries
      .filter((e) => failed.has(e.id))
      .map((e) => [
        e.id,
        e.cases.map((c) => resolve(c, e.id, failed, (e.level ?? 'MUST') === 'MUST' ? mustFailed : failed)),
      ]),
  );
  const links = new Map<string, Link>();
  for (const [id, resolved] of cases) {
    const link = linkOf(id, resolved);
    if (link) links.set(id, link);
  }
  // Break cycles: walk each chain; a requirement met twice closes a cycle, cut at its weakest link.
  const order = new Map(entries.map((e, i) => [e.id, i]));
  for (const start of links.keys()) {
    const path: string[] = [];
    let at: string | undefined = start;
    while (at !== undefined && links.has(at) && !path.includes(at)) {
      path.push(at);
      at = links.get(at)?.to;
    }
    if (at === undefined || !path.includes(at)) continue;
    const cycle = path.slice(path.indexOf(at));
    const byRule = cycle.filter((id) => !links.get(id)?.shared);
    const cut = (byRule.length > 0 ? byRule : cycle).sort(
      (a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0),
    )[0] as string;
    links.delete(cut);
  }
  // Then cases pointing at different failures that share one root are explained by it (this adds no cycle: a root is never its own cause).
  for (let changed = true; changed;) {
    changed = false;
    for (const [id, resolved] of cases) {
      const link = links.has(id) ? undefined : linkOf(id, resolved, links);
      if (!link) continue;
      links.set(id, link);
      changed = true;
    }
  }
  return new Map([...links].map(([id, link]) => [id, { root: rootOf(id, links), blocked: link.blocked === true }]));
}

/** What rootsOf reads of a check (src/report/results.ts's CheckInput). */
export interface CauseCheck {
  requirement: { id: string; level: RequirementResult['level'] };
  outcome: RequirementResult['outcome'];
  message?: string;
  causes?: readonly CaseCause[];
  blockedBy?: string;
}

/** Checks grouped by requirement, in the order of the first check of each. */
export function byRequirement<C extends CauseCheck>(checks: readonly C[]): Map<string, C[]> {
  const byId = new Map<string, C[]>();
  for (const c of checks) byId.set(c.requirement.id, [...(byId.get(c.requirement.id) ?? []), c]);
  return byId;
}

/**
 * Root cause first, over a run's checks (catalogue order): for each requirement grouped under
 * another failure, that root, and whether it is blocked by it (see causesOf); and the checks as a
 * verdict takes them, a blocked one's failure turned into "blocked by <root>: …" (skipped). The
 * reports and vitest's adapter both take the checks from here, so both say the same.
 */
export function rootsOf<C extends CauseCheck>(
  checks: readonly C[],
): {
  links: Map<string, { root: string; blocked: boolean }>;
  checks: C[];
} {
  const byId = byRequirement(checks);
  const links = causesOf(
    [...byId.values()].map((list) => ({
      id: (list[0] as C).requirement.id,
      level: (list[0] as C).requirement.level,
      // A failed check makes its requirement failed, whatever the others did.
      outcome: list.some((c) => c.outcome === 'failed') ? 'failed' : 'passed',
      cases: list.filter((c) => c.outcome === 'failed').flatMap((c) => c.causes ?? [{}]),
    })),
  );
  return {
    links,
    checks: checks.map((c) => {
      const link = links.get(c.requirement.id);
      return link?.blocked && c.outcome === 'failed'
        ? {
            ...c,
            outcome: 'skipped',
            message: `blocked by ${link.root}: ${c.message ?? 'failed'}`,
            blockedBy: link.root,
          }
        : c;
    }),
  };
}

/** The failures grouped under `head` (those whose causedBy names it), in catalogue order. */
export function alsoFailed(head: RequirementResult, all: readonly RequirementResult[]): RequirementResult[] {
  return all.filter((e) => e.causedBy === head.id);
}

/** The requirements blocked by `head` (those whose blockedBy names it), in catalogue order. */
export function blockedUnder(head: RequirementResult, all: readonly RequirementResult[]): RequirementResult[] {
  return all.filter((e) => e.blockedBy === head.id);
}

/** The entry a failure is grouped under, when it is among `all`. */
export function causeOf(e: RequirementResult, all: readonly RequirementResult[]): RequirementResult | undefined {
  return e.causedBy === undefined ? undefined : all.find((x) => x.id === e.causedBy);
}

/**
 * One list of findings (violations, undecided or warnings) in the order a reader should meet
 * them: first the roots in it, those explaining the most other failures first (then in catalogue
 * order), each followed by the failures of the list grouped under it; last the failures of the
 * list grouped under a root listed elsewhere (a MUST violation caused by a SHOULD warning).
 */
export function inCauseOrder(
  list: readonly RequirementResult[],
  all: readonly RequirementResult[],
): RequirementResult[] {
  const here = new Set(list.map((e) => e.id));
  const size = (e: RequirementResult) => alsoFailed(e, all).length + blockedUnder(e, all).length;
  const index = new Map(all.map((e, i) => [e.id, i]));
  const at = (e: RequirementResult) => index.get(e.id) ?? 0;
  const heads = list.filter((e) => causeOf(e, all) === undefined).sort((a, b) => size(b) - size(a) || at(a) - at(b));
  const grouped = heads.flatMap((h) => [h, ...alsoFailed(h, all).filter((m) => here.has(m.id))]);
  const elsewhere = list.filter((e) => !grouped.includes(e));
  return [...grouped, ...elsewhere];
}

/**
 * One finding as a report shows it: `cause` when it is grouped under one only a later list shows;
 * `also`, those grouped under it; `blocked`, those it blocked.
 */
export interface ShownFinding {
  entry: RequirementResult;
  cause?: RequirementResult;
  also: RequirementResult[];
  blocked: RequirementResult[];
}

/** After an id in `also`: its level, where it differs from that of the failure it is named under. */
export const levelApart = (also: RequirementResult, under: RequirementResult): string =>
  also.level === under.level ? '' : ` (${also.level})`;

/**
 * What a report shows of one list of findings (in inCauseOrder), after the lists in `before`: a
 * failure grouped under one shown in this list or an earlier one is named only in that one's
 * "also failed because of this"; one whose cause comes in a later list is shown, saying so.
 */
export function shownFindings(
  list: readonly RequirementResult[],
  before: readonly RequirementResult[],
  all: readonly RequirementResult[],
): ShownFinding[] {
  return list.flatMap((entry) => {
    const cause = causeOf(entry, all);
    if (cause && (list.includes(cause) || before.includes(cause))) return [];
    return [{ entry, ...(cause ? { cause } : {}), also: alsoFailed(entry, all), blocked: blockedUnder(entry, all) }];
  });
}
