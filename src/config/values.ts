// What a setting is, and the parsers of its values: each takes the raw text of a variable or flag
// and gives the value, or a ConfigError that names the variable and says what was expected.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { REQUIREMENT_SETS } from '../data/generated/requirement-ids.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface Setting<T> {
  env: string;
  /**
   * The command-line flag. Absent for a convention of the surroundings (set by CI or the user's
   * terminal, e.g. NO_COLOR): read from the environment and .env like the rest, shown by
   * --show-config and in .env.example, but no flag of the suite's own.
   */
  flag?: string;
  doc: string;
  /** Shown in .env.example and --help. */
  example: string;
  /** Placeholder for the flag's value in --help (boolean settings take none). */
  arg?: string;
  parse: (raw: string, env: string) => T;
  default: T;
  /** A value of white space alone is a value, not "unset" (NO_COLOR: any non-empty value counts). */
  blankIsSet?: true;
}

export function integer(min: number, max: number) {
  return (raw: string, env: string): number => {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(env, `expected a whole number, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(env, `expected a number from ${min} to ${max}, got ${raw}`);
    return n;
  };
}

export function boolean(raw: string, env: string): boolean {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new ConfigError(env, `expected 1 or 0 (true/false), got "${raw}"`);
}

export function baseUrl(raw: string, env: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(env, `not a valid URL: "${raw}" (expected e.g. https://staging.example.com/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(env, `must use http or https, got "${url.protocol.replace(':', '')}"`);
  }
  if (url.search || url.hash) throw new ConfigError(env, `must not carry a query or fragment: "${raw}"`);
  if (url.username || url.password) throw new ConfigError(env, 'must not carry credentials; use PETSTORE_API_KEY');
  return url.href.replace(/\/+$/, '');
}

export function list(raw: string): readonly string[] {
  return Object.freeze(raw.split(/[\s,]+/).filter(Boolean));
}

export function instant(raw: string, env: string): Date | undefined {
  const d = new Date(raw.trim());
  if (Number.isNaN(d.getTime())) throw new ConfigError(env, `expected an ISO 8601 date or time, got "${raw}"`);
  return d;
}

export const text = (raw: string) => raw;

export function requirementSet(raw: string, env: string): string {
  const id = raw.trim();
  if (!REQUIREMENT_SETS.some((s) => s.id === id))
    throw new ConfigError(
      env,
      `no requirement set "${raw}"; the sets are ${REQUIREMENT_SETS.map((s) => s.id).join(', ')}`,
    );
  return id;
}

/** A file the run will write (--har): not a folder, and its folder writable or creatable. Nothing is written here. */
export function fileToWrite(raw: string, env: string): string {
  const path = resolve(raw.trim());
  if (existsSync(path) && statSync(path).isDirectory())
    throw new ConfigError(env, `"${raw}" is a folder; name a file, e.g. reports/run.har`);
  let folder = dirname(path);
  while (!existsSync(folder)) folder = dirname(folder);
  try {
    if (!statSync(folder).isDirectory()) throw new Error('not a folder');
    accessSync(folder, constants.W_OK);
  } catch {
    throw new ConfigError(env, `cannot write "${raw}": ${folder} is not a folder this process may write in`);
  }
  return raw.trim();
}

/** A request rate `N`, `N/s` or `N/m`, in requests per second. */
export function rate(raw: string, env: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(?:\/\s*(s|m))?$/i.exec(raw.trim());
  const n = m ? Number(m[1]) / (m[2]?.toLowerCase() === 'm' ? 60 : 1) : NaN;
  if (!(n > 0)) throw new ConfigError(env, `expected a rate such as 20, 20/s or 600/m, above 0, got "${raw}"`);
  return n;
}

/** A duration `N` (seconds), `Nms`, `Ns`, `Nm` or `Nh`, in milliseconds. */
export function duration(raw: string, env: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/i.exec(raw.trim());
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(m?.[2] ?? 's').toLowerCase() as 'ms' | 's' | 'm' | 'h'];
  const n = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!(n > 0 && n <= 7 * 24 * 3_600_000))
    throw new ConfigError(env, `expected a duration such as 30s, 10m or 2h (up to a week), above 0, got "${raw}"`);
  return n;
}

/** One of a few words (lower case), e.g. --reporter's. */
export function oneOf<const T extends string>(words: readonly T[]) {
  return (raw: string, env: string): T => {
    const word = raw.trim().toLowerCase();
    if (!(words as readonly string[]).includes(word))
      throw new ConfigError(env, `expected one of ${words.join(', ')}, got "${raw}"`);
    return word as T;
  };
}
