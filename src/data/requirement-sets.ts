// The requirement sets (generated from the id registry): which ids a set scores, which came later.
import { createHash } from 'node:crypto';
import { REQUIREMENT_SETS, type Exclusion } from './generated/requirement-ids.js';

export type { Exclusion };

function indexOf(setId: string): number {
  const at = REQUIREMENT_SETS.findIndex((s) => s.id === setId);
  if (at === -1) throw new Error(`no requirement set ${setId}`);
  return at;
}

/** The ids a requirement set scores: its own and those of every set before it. */
export const requirementSetIds = (setId: string): string[] =>
  REQUIREMENT_SETS.slice(0, indexOf(setId) + 1).flatMap((s) => [...s.adds]);

/** The ids the sets after `setId` added, each with the set that added it. */
export const addedAfter = (setId: string): Map<string, string> =>
  new Map(REQUIREMENT_SETS.slice(indexOf(setId) + 1).flatMap((s) => s.adds.map((id) => [id, s.id] as const)));

/**
 * How many sets a certification may be issued against: the current one and the one before it, so a
 * vendor certified just before a release has the time of one release to renew (as Kubernetes
 * accepts its current version and the ones just before).
 */
export const SUPPORTED_SETS = 2;

/** The day a set was frozen, read from its id (`1.0.0+2026.11.26` → `2026-11-26`). */
export function setDay(setId: string): string | null {
  const m = /\+(\d{4})\.(\d{2})\.(\d{2})$/.exec(setId);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/**
 * When a run may be certified against a set: from the day it was frozen until the day the set
 * that ended its support was (null: still supported). Undefined for a set this suite does not know.
 */
export function setValidity(setId: string): { from: string; until: string | null } | undefined {
  const at = REQUIREMENT_SETS.findIndex((s) => s.id === setId);
  const from = at === -1 ? null : setDay(setId);
  if (from === null) return undefined;
  const ender = REQUIREMENT_SETS[at + SUPPORTED_SETS];
  return { from, until: ender ? setDay(ender.id) : null };
}

/** The exclusions a set carries (added by its patch releases), in the order they were added. */
export const exclusionsOf = (setId: string): readonly Exclusion[] => REQUIREMENT_SETS[indexOf(setId)]?.exclusions ?? [];

/** The SHA-256 of an exclusion list (one "id issue date" line each, sorted), as a set's record holds it. */
export const exclusionsSha256 = (list: readonly Exclusion[]): string =>
  createHash('sha256')
    .update(
      list
        .map((e) => `${e.id} ${e.issue} ${e.date}`)
        .sort()
        .join('\n'),
    )
    .digest('hex');

/**
 * What is wrong with a set's exclusions: an id the set does not score (a patch release changes no
 * id, it only excludes), one excluded twice, or a recorded SHA-256 that is not the list's.
 */
export function exclusionProblems(setId: string, list: readonly Exclusion[], recorded: string | undefined): string[] {
  const ids = new Set(requirementSetIds(setId));
  const problems = list
    .filter((e) => !ids.has(e.id))
    .map((e) => `${setId}: ${e.id} is not one of the set's requirements`);
  const seen = new Set<string>();
  for (const e of list)
    if (seen.has(e.id)) problems.push(`${setId}: ${e.id} is excluded twice`);
    else seen.add(e.id);
  if (list.length && recorded !== exclusionsSha256(list))
    problems.push(`${setId}: the exclusions' sha256 in its record is not the list's (a patch release records it anew)`);
  return problems;
}
