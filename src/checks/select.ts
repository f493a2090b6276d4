// --only / --skip: requirement ids or areas, with `*` globs.
import type { Config } from '../config/config.js';
import { areaOf, type Requirement } from './requirement.js';

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
