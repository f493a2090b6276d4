// --only / --skip: requirement ids or areas, with `*` globs.
import type { Config } from '../config/config.js';
import { areaOf, type Check, type Requirement } from './requirement.js';

/** Does an id fall under a pattern (an id, an area, an id prefix, or a glob with `*`)? Also used by --baseline. */
export function matches(id: string, pattern: string): boolean {
  if (!pattern.includes('*')) return id === pattern || areaOf(id) === pattern || id.startsWith(`${pattern}.`);
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(id);
}

export function selectRequirements<R extends Requirement>(
  all: readonly R[],
  config: Pick<Config, 'only' | 'skip'>,
): R[] {
  return all.filter(
    (r) =>
      (config.only.length === 0 || config.only.some((p) => matches(r.id, p))) &&
      !config.skip.some((p) => matches(r.id, p)),
  );
}

/**
 * The checks a run starts, grouped by area in the catalogue's order (as the reports and vitest's
 * describe blocks list them), each requirement's own check before its properties.
 */
export function selectChecks(all: readonly Check[], config: Pick<Config, 'only' | 'skip'>): Check[] {
  const ids = new Set(
    selectRequirements(
      all.map((c) => c.requirement),
      config,
    ).map((r) => r.id),
  );
  const selected = all.filter((c) => ids.has(c.requirement.id));
  const areas = [...new Set(selected.map((c) => areaOf(c.requirement.id)))];
  return areas.flatMap((area) => selected.filter((c) => areaOf(c.requirement.id) === area));
}
