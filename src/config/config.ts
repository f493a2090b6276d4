// The one place configuration is read: the environment and .env, validated by the settings table
// (src/config/settings.ts), resolved into what a run uses.
import { randomBytes, randomInt } from 'node:crypto';
import { config as loadDotenv } from 'dotenv';
import { ConfigError, SETTINGS, type Config, type Env, type Setting, type Settings } from './settings.js';
import type { PropertyCase } from '../data/generated/report-types.js';

export { ConfigError, RETRY_MAX_WAIT_S, SETTINGS, type Config } from './settings.js';

/**
 * Reads and validates configuration. `.env` (in the working directory) fills in what the
 * environment does not set. Throws ConfigError naming the first bad variable.
 */
export function loadConfig(env: Env = process.env, { dotenv = true } = {}): Config {
  const merged: Record<string, string | undefined> = { ...env };
  if (dotenv) for (const [k, v] of Object.entries(readDotenv())) merged[k] ??= v;
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(SETTINGS) as [keyof Settings, Setting<unknown>][])
    out[key] = valueOf(s, merged[s.env]);
  if (out.baseUrl !== undefined && !out.apiKey) {
    throw new ConfigError('PETSTORE_API_KEY', 'must be set when PETSTORE_BASE_URL is set');
  }
  return Object.freeze(out) as Config;
}

function valueOf(s: Setting<unknown>, raw: string | undefined): unknown {
  return raw === undefined || (!s.blankIsSet && raw.trim() === '') ? s.default : s.parse(raw, s.env);
}

/**
 * One setting alone, read as loadConfig reads it: for a command that needs no other (diff), so
 * that a bad value of another setting cannot stop it.
 */
export function loadSetting<K extends keyof Settings>(key: K, env: Env, { dotenv = true } = {}): Config[K] {
  const s: Setting<unknown> = SETTINGS[key];
  return valueOf(s, env[s.env] ?? (dotenv ? readDotenv()[s.env] : undefined)) as Config[K];
}

/**
 * The forward-proxy variables, lower case first as undici's EnvHttpProxyAgent reads them. No rows
 * of the table: undici's agent reads them itself (so .env does not set them), NO_PROXY included;
 * the suite reads them only to name the proxy when it is the one failing (src/wire/transport.ts).
 */
export function proxyEnv(env: Env = process.env): Env {
  const names = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY'];
  return Object.freeze(Object.fromEntries(names.filter((n) => env[n] !== undefined).map((n) => [n, env[n]])));
}

/** The variables `.env` in the working directory sets (empty when there is none). */
export function readDotenv(): Record<string, string> {
  const fromFile: Record<string, string> = {};
  loadDotenv({ processEnv: fromFile, quiet: true });
  return fromFile;
}

/** What a run actually used: the target is resolved and the seed fixed, so it can be replayed. */
export interface RunConfig extends Omit<Config, 'baseUrl' | 'apiKey' | 'seed' | 'now'> {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly seed: number;
  /** ISO 8601; the suite's clock when PETSTORE_NOW is set, else absent. */
  readonly now: string | undefined;
  /** True when the bundled reference server is the target. */
  readonly embedded: boolean;
  /** The target is served in this process (runConformance): reached directly, never through a proxy. */
  readonly inProcess?: boolean;
  /** W3C Trace Context trace id of the run (32 hex digits): every check's request carries it in `traceparent`. */
  readonly traceId: string;
  /**
   * `replay`: each check's failing property cases as its report recorded them, by check name: its
   * properties send those alone instead of their inputs (src/checks/property.ts).
   */
  readonly replaying?: ReadonlyMap<string, readonly PropertyCase[]>;
}

export function resolveRunConfig(
  config: Config,
  target: { baseUrl: string; apiKey: string; embedded: boolean; inProcess?: boolean },
): RunConfig {
  return Object.freeze({
    ...config,
    ...target,
    seed: config.seed ?? randomInt(-(2 ** 31), 2 ** 31 - 1),
    now: config.now?.toISOString(),
    // Not from the seed: two runs with one seed are two traces in the server's logs.
    traceId: randomBytes(16).toString('hex'),
  });
}

/** The suite's clock: PETSTORE_NOW when set, else the real time. */
export function clock(config: Pick<RunConfig, 'now'>): Date {
  return config.now ? new Date(config.now) : new Date();
}

/** Lines of .env.example, derived from SETTINGS (a self-test keeps the file in step). */
export function envExample(): string {
  const lines = ['# petstore-conformance configuration. Copy to .env; the environment wins over this file.', ''];
  const settings: Setting<unknown>[] = Object.values(SETTINGS);
  const entry = (s: Setting<unknown>) => lines.push(`# ${s.doc}`, `# ${s.env}=${s.example}`, '');
  settings.filter((s) => s.flag).forEach(entry);
  lines.push('# Conventions of the surroundings (CI, terminal): read the same way, with no flag.', '');
  settings.filter((s) => !s.flag).forEach(entry);
  return lines.join('\n');
}
