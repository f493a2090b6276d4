// The command line parsed: flags from the settings table, typo hints, --only/--skip, value sources.
// A flag is applied by setting its setting's variable in the environment main() was handed, so
// loadConfig reads flags, environment and .env in one place, and a server --start runs gets them too.
import { parseArgs } from 'node:util';
import { readDotenv, SETTINGS, type Config } from '../../config/config.js';
import type { Requirement } from '../../checks/requirement.js';

export type Key = keyof typeof SETTINGS;
export type AnySetting = (typeof SETTINGS)[Key] & { arg?: string; flag?: string };
export const settings = Object.entries(SETTINGS) as [Key, AnySetting][];
/** The settings a flag sets; the others (NO_COLOR, GITHUB_STEP_SUMMARY) come from the surroundings. */
export const flagged = settings.filter((e): e is [Key, AnySetting & { flag: string }] => e[1].flag !== undefined);
export const isSwitch = (s: AnySetting) => typeof s.default === 'boolean';
const isList = (s: AnySetting) => Array.isArray(s.default);

/** Commands that print and exit instead of running the suite. */
export const COMMANDS = {
  list: 'Print the requirement catalogue (id, level, section, statement) and exit; with --only/--skip, just the selection.',
  'show-config':
    'Print the settings a run would use and where each comes from (flag, environment, .env, default), and exit. The key is never shown.',
  version: "Print the suite's version and the interface version, and exit.",
  help: 'Print this help and exit.',
} as const;
type Command =
  | keyof typeof COMMANDS
  | 'run'
  | 'diff'
  | 'matrix'
  | 'sign'
  | 'verify'
  | 'replay'
  | 'export'
  | 'certify'
  | 'verify-submission';

/** Bad usage: one line, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Invocation {
  command: Command;
  /** Settings given as flags, as the text their environment variable would hold. */
  flags: Partial<Record<Key, string>>;
  /** --api-key-env: the variable that holds the key. */
  apiKeyEnv?: string;
  /** `diff` and `matrix`: their own arguments, parsed by src/commands/diff.ts and src/commands/matrix/command.ts. */
  args?: string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Flags a user might try for the key itself; never accepted, with the reason. */
const KEY_ITSELF = new Set(['--api-key', '--key', '--token', '--bearer', '--apikey']);

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diagonal = row[j] as number;
      row[j] = next;
    }
  }
  return row[b.length] as number;
}

function allFlags(): string[] {
  return [...flagged.map(([, s]) => s.flag), ...Object.keys(COMMANDS).map((c) => `--${c}`)];
}

function unknownOption(option: string): UsageError {
  const name = option.split('=')[0] as string;
  if (KEY_ITSELF.has(name)) {
    return new UsageError(
      `${name}: the API key is never taken on the command line (it would land in shell history and process lists); export PETSTORE_API_KEY, or name ` +
        `the variable that holds it with --api-key-env NAME`,
    );
  }
  const closest = allFlags()
    .map((f) => [f, distance(name, f)] as const)
    .sort((a, b) => a[1] - b[1])[0];
  const hint = closest && closest[1] <= 3 ? `; did you mean ${closest[0]}?` : '';
  return new UsageError(`unknown option ${name}${hint} (see --help)`);
}

/** Turns node:util's parse errors into one plain line. */
function usageErrorOf(err: { code?: string; message: string }): UsageError {
  const option = /'(-[^' ]+)/.exec(err.message)?.[1] ?? '';
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return unknownOption(option);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      // Not echoed: a stray argument may be a key pasted by mistake.
      return new UsageError('unexpected argument: options start with -- (see --help)');
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(err.message))
        return new UsageError(
          `${option} takes no value (write ${option}, or ${option.replace(/^--/, '--no-')} to turn it off)`,
        );
      if (/ambiguous/.test(err.message))
        return new UsageError(`${option} needs a value; for a value starting with "-" write ${option}=VALUE`);
      return new UsageError(`${option} needs a value (see --help)`);
    default:
      return new UsageError(`${err.message.split('\n')[0]} (see --help)`);
  }
}

/** Parses the command line; throws UsageError or ConfigError (naming the flag) on bad input. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  // Subcommands with positional arguments of their own: `diff OLD.json NEW.json`, `matrix A.json B.json …`.
  if (argv[0] === 'diff') return { command: 'diff', flags: {}, args: argv.slice(1) };
  if (argv[0] === 'matrix') return { command: 'matrix', flags: {}, args: argv.slice(1) };
  if (argv[0] === 'replay' || argv[0] === 'export') return { command: argv[0], flags: {}, args: argv.slice(1) };
  if (argv[0] === 'sign' || argv[0] === 'verify') return { command: argv[0], flags: {}, args: argv.slice(1) };
  if (argv[0] === 'certify' || argv[0] === 'verify-submission')
    return { command: argv[0], flags: {}, args: argv.slice(1) };
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [, s] of flagged)
    options[s.flag.slice(2)] = { type: isSwitch(s) ? 'boolean' : 'string', ...(isList(s) ? { multiple: true } : {}) };
  for (const c of Object.keys(COMMANDS)) options[c] = { type: 'boolean', ...(c === 'help' ? { short: 'h' } : {}) };
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false, allowNegative: true }));
  } catch (err) {
    throw usageErrorOf(err as { code?: string; message: string });
  }
  for (const c of Object.keys(COMMANDS)) if (values[c] === false) throw unknownOption(`--no-${c}`);
  const command = (['help', 'version', 'list', 'show-config'] as const).find((c) => values[c] === true) ?? 'run';
  const inv: Invocation = { command, flags: {} };
  for (const [key, s] of flagged) {
    const value = values[s.flag.slice(2)];
    if (value === undefined) continue;
    if (key === 'apiKey') {
      // Never echo the value: someone may have passed the key itself by mistake.
      if (typeof value !== 'string' || !ENV_NAME.test(value)) {
        throw new UsageError(
          `${s.flag} takes the NAME of an environment variable that holds the key (e.g. ${s.flag} STAGING_PETSTORE_KEY), never the key itself`,
        );
      }
      inv.apiKeyEnv = value;
      continue;
    }
    const raw = Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? (value ? '1' : '0') : value;
    s.parse(raw, s.flag); // validates, naming the flag
    inv.flags[key] = raw;
  }
  return inv;
}

/**
 * Applies flags over the environment (a flag wins over the environment, the environment over
 * .env): each flag sets its setting's variable. The key named by --api-key-env is copied into
 * PETSTORE_API_KEY of this process only.
 */
export function applyFlags(inv: Invocation, env: NodeJS.ProcessEnv): void {
  for (const [key, raw] of Object.entries(inv.flags) as [Key, string][]) env[SETTINGS[key].env] = raw;
  if (inv.apiKeyEnv !== undefined) {
    const key = env[inv.apiKeyEnv] || readDotenv()[inv.apiKeyEnv];
    if (!key)
      throw new UsageError(
        `${SETTINGS.apiKey.flag}: the variable it names is not set or empty (neither in the environment nor in .env)`,
      );
    env[SETTINGS.apiKey.env] = key;
  }
}

/** Where each setting's value comes from, for --show-config. */
export function sources(inv: Invocation, env: NodeJS.ProcessEnv): Record<Key, string> {
  const dotenv = readDotenv();
  const out = {} as Record<Key, string>;
  for (const [key, s] of settings) {
    if (key in inv.flags || (key === 'apiKey' && inv.apiKeyEnv))
      out[key] = key === 'apiKey' ? `${s.flag} ${inv.apiKeyEnv}` : (s.flag ?? '');
    else if (env[s.env]?.trim()) out[key] = 'environment';
    else if (dotenv[s.env]?.trim()) out[key] = '.env';
    else out[key] = 'default';
  }
  return out;
}

export async function loadCatalogue(): Promise<readonly Requirement[]> {
  return (await import('../../../tests/catalogue.js')).catalogue;
}

export async function selectRequirements(
  all: readonly Requirement[],
  config: Pick<Config, 'only' | 'skip'>,
): Promise<Requirement[]> {
  return (await import('../../checks/select.js')).selectRequirements(all, config);
}

/** Every --only / --skip pattern must name something: a typo would silently run the wrong set. */
export async function checkSelection(config: Config, source: Record<Key, string>): Promise<void> {
  if (config.only.length === 0 && config.skip.length === 0) return;
  const catalogue = await loadCatalogue();
  for (const key of ['only', 'skip'] as const) {
    const named =
      source[key] === 'default' ? '' : source[key].startsWith('--') ? SETTINGS[key].flag : SETTINGS[key].env;
    for (const pattern of config[key]) {
      if ((await selectRequirements(catalogue, { only: [pattern], skip: [] })).length === 0) {
        throw new UsageError(`${named}: "${pattern}" matches no requirement id or area (see --list)`);
      }
    }
  }
  if ((await selectRequirements(catalogue, config)).length === 0)
    throw new UsageError('--only and --skip leave no requirement to run (see --list)');
}
