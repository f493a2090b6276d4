// The requirement sets (generated from the id registry): which ids a set scores, which came later.
import { REQUIREMENT_SETS } from './generated/requirement-ids.js';

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
