// The command line. Its flags and --help are derived from the settings table in src/config.ts;
// a flag is applied by setting the setting's environment variable in this process, so the
// global setup (which reads configuration through loadConfig like everything else) sees it.
// Order: parse flags (exit 2), validate configuration (exit 2), probe the target once (exit 3),
// then run vitest's conformance project in this process (exit 0 or 1).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, readDotenv, SETTINGS, type Config } from './config.js';
import type { Requirement } from './requirement.js';
import type { Reporter, Vitest } from 'vitest/node';
// The client, the catalogue, the reporters and vitest are imported when needed, so that --help,
// --version and bad usage answer at once.

export const EXIT = { conformant: 0, violations: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

const root = fileURLToPath(new URL('..', import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, new URL('..', import.meta.url)), 'utf8')) as Record<string, unknown>;
export const SUITE_VERSION = String(readJson('package.json').version);
export const INTERFACE_VERSION = String((readJson('schemas/openapi.json').info as { version: string }).version);

type Key = keyof typeof SETTINGS;
type AnySetting = (typeof SETTINGS)[Key] & { arg?: string };
const settings = Object.entries(SETTINGS) as [Key, AnySetting][];
const isSwitch = (s: AnySetting) => typeof s.default === 'boolean';
const isList = (s: AnySetting) => Array.isArray(s.default);

/** Commands that print and exit instead of running the suite. */
const COMMANDS = {
  list: 'Print the requirement catalogue (id, level, section, statement) and exit; with --only/--skip, just the selection.',
  'show-config': 'Print the settings a run would use and where each comes from (flag, environment, .env, default), and exit. The key is never shown.',
  version: "Print the suite's version and the interface version, and exit.",
  help: 'Print this help and exit.',
} as const;
type Command = keyof typeof COMMANDS | 'run';

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
      const next = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = row[j] as number;
      row[j] = next;
    }
  }
  return row[b.length] as number;
}

function allFlags(): string[] {
  return [...settings.map(([, s]) => s.flag), ...Object.keys(COMMANDS).map((c) => `--${c}`)];
}

function unknownOption(option: string): UsageError {
  const name = option.split('=')[0] as string;
  if (KEY_ITSELF.has(name)) {
    return new UsageError(
      `${name}: the API key is never taken on the command line (it would land in shell history and process lists); export PETSTORE_API_KEY, or name the variable that holds it with --api-key-env NAME`,
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
      if (/does not take an argument/.test(err.message)) return new UsageError(`${option} takes no value (write ${option}, or ${option.replace(/^--/, '--no-')} to turn it off)`);
      if (/ambiguous/.test(err.message)) return new UsageError(`${option} needs a value; for a value starting with "-" write ${option}=VALUE`);
      return new UsageError(`${option} needs a value (see --help)`);
    default:
      return new UsageError(`${err.message.split('\n')[0]} (see --help)`);
  }
}

/** Parses the command line; throws UsageError or ConfigError (naming the flag) on bad input. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [, s] of settings) options[s.flag.slice(2)] = { type: isSwitch(s) ? 'boolean' : 'string', ...(isList(s) ? { multiple: true } : {}) };
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
  for (const [key, s] of settings) {
    const value = values[s.flag.slice(2)];
    if (value === undefined) continue;
    if (key === 'apiKey') {
      // Never echo the value: someone may have passed the key itself by mistake.
      if (typeof value !== 'string' || !ENV_NAME.test(value)) {
        throw new UsageError(`${s.flag} takes the NAME of an environment variable that holds the key (e.g. ${s.flag} STAGING_PETSTORE_KEY), never the key itself`);
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
export function applyFlags(inv: Invocation, env: NodeJS.ProcessEnv = process.env): void {
  for (const [key, raw] of Object.entries(inv.flags) as [Key, string][]) env[SETTINGS[key].env] = raw;
  if (inv.apiKeyEnv !== undefined) {
    const key = env[inv.apiKeyEnv] || readDotenv()[inv.apiKeyEnv];
    if (!key) throw new UsageError(`${SETTINGS.apiKey.flag}: the variable it names is not set or empty (neither in the environment nor in .env)`);
    env[SETTINGS.apiKey.env] = key;
  }
}

/** Where each setting's value comes from, for --show-config. */
export function sources(inv: Invocation, env: NodeJS.ProcessEnv = process.env): Record<Key, string> {
  const dotenv = readDotenv();
  const out = {} as Record<Key, string>;
  for (const [key, s] of settings) {
    if (key in inv.flags || (key === 'apiKey' && inv.apiKeyEnv)) out[key] = key === 'apiKey' ? `${s.flag} ${inv.apiKeyEnv}` : s.flag;
    else if (env[s.env]?.trim()) out[key] = 'environment';
    else if (dotenv[s.env]?.trim()) out[key] = '.env';
    else out[key] = 'default';
  }
  return out;
}

async function loadCatalogue(): Promise<readonly Requirement[]> {
  return (await import('../tests/catalogue.js')).catalogue;
}

async function selectRequirements(all: readonly Requirement[], config: Pick<Config, 'only' | 'skip'>): Promise<Requirement[]> {
  return (await import('./select.js')).selectRequirements(all, config);
}

/** Every --only / --skip pattern must name something: a typo would silently run the wrong set. */
async function checkSelection(config: Config, source: Record<Key, string>): Promise<void> {
  if (config.only.length === 0 && config.skip.length === 0) return;
  const catalogue = await loadCatalogue();
  for (const key of ['only', 'skip'] as const) {
    const named = source[key] === 'default' ? '' : source[key].startsWith('--') ? SETTINGS[key].flag : SETTINGS[key].env;
    for (const pattern of config[key]) {
      if ((await selectRequirements(catalogue, { only: [pattern], skip: [] })).length === 0) {
        throw new UsageError(`${named}: "${pattern}" matches no requirement id or area (see --list)`);
      }
    }
  }
  if ((await selectRequirements(catalogue, config)).length === 0) throw new UsageError('--only and --skip leave no requirement to run (see --list)');
}

const WIDTH = 100;

function wrap(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** An option's entry: the flag in a column, its explanation wrapped beside it. */
function entry(flag: string, text: string): string {
  const col = 24;
  const [first = '', ...rest] = wrap(text, col);
  const head = flag.length >= col - 2 ? `  ${flag}\n${' '.repeat(col)}${first}` : `  ${flag.padEnd(col - 2)}${first}`;
  return [head, ...rest.map((l) => `${' '.repeat(col)}${l}`)].join('\n');
}

function shownDefault(s: AnySetting): string {
  if (s.default === undefined || (Array.isArray(s.default) && s.default.length === 0)) return '';
  if (typeof s.default === 'boolean') return s.default ? 'on' : 'off';
  return String(s.default);
}

export function helpText(): string {
  const options = settings.map(([key, s]) => {
    if (key === 'apiKey') {
      return entry(
        `${s.flag} ${s.arg ?? 'NAME'}`,
        `Read the API key from the environment variable NAME instead of ${s.env}. The key itself is never accepted on the command line, where it would land in shell history and process lists. [${s.env}: ${s.doc}]`,
      );
    }
    const flag = isSwitch(s) ? `${s.flag.replace(/^--/, '--[no-]')}` : `${s.flag} ${s.arg ?? 'VALUE'}`;
    const def = shownDefault(s);
    return entry(flag, `${s.doc} [${s.env}${isSwitch(s) ? "=1" : ''}${def ? `; default ${def}` : ''}]`);
  });
  const commands = Object.entries(COMMANDS).map(([c, doc]) => entry(c === 'help' ? '-h, --help' : `--${c}`, doc));
  const section = (title: string, lines: string[]) => [title, ...lines, ''].join('\n');
  const para = (text: string) => wrap(text, 2).map((l) => `  ${l}`);
  return [
    `petstore-conformance ${SUITE_VERSION}: the conformance test suite for the Pet Store Service Interface ${INTERFACE_VERSION}`,
    '',
    ...wrap(
      'Checks an HTTP server against the interface, requirement by requirement: each has a stable id, a level (MUST or SHOULD) and the section of the interface it comes from. With no options it tests its own bundled reference server, so it works straight after install.',
      0,
    ),
    '',
    section('Usage', ['  npx petstore-conformance [options]']),
    section('Test your server', [
      "  export PETSTORE_API_KEY='...'     # the key comes from the environment, never the command line",
      '  npx petstore-conformance --base-url https://staging.example.com/v1',
    ]),
    section('Options', [
      ...para('Each option can also be set with the environment variable in brackets, or in a .env file in the current directory (see .env.example). A flag wins over the environment, the environment over .env.'),
      '',
      ...options,
      '',
      ...commands,
    ]),
    section('Exit codes', [
      '  0  conformant: no MUST requirement failed (SHOULD findings are printed as warnings)',
      '  1  not conformant: a MUST requirement failed or could not be decided; with --strict, a SHOULD too',
      '  2  bad usage or configuration: one line names the flag or variable; nothing was sent',
      '  3  the target could not be reached: one probe (GET <base-url>/pets without a key) runs first,',
      '     and one line says why: DNS, connection refused, TLS, timeout (the reports say it too)',
      '  130  interrupted (Ctrl-C; 143 for SIGTERM): the checks stop and the reports keep what was',
      '       decided, marked interrupted; unfinished checks count as undecided',
    ]),
    section('What a run leaves', [
      ...para('Reports in the report folder (--report-dir): conformance.html to read, conformance.json, conformance.md (also appended to $GITHUB_STEP_SUMMARY when set) and junit.xml, the ids of every pet the run created in created-pets.json (there is no delete operation), and manifest.json with their SHA-256 sums.'),
      ...para('Pets the suite creates carry the run tag in their name: "pcs-" and the seed in base 36, e.g. "pcs-k3x9z1 pet 12"; the tag is printed when the run starts. With --read-only nothing is created, and checks that must create are reported skipped, with the reason.'),
    ]),
    section('Network', [
      ...para('HTTP_PROXY, HTTPS_PROXY and NO_PROXY are honoured. For an HTTPS target whose certificate comes from a private CA, set NODE_EXTRA_CA_CERTS=/path/to/ca.pem. Redirects are never followed: a 3xx is reported with its Location. A 429 or 503 with Retry-After is retried (--retries); no other answer is.'),
    ]),
    section('Examples', [
      '  npx petstore-conformance --list --only auth                  # what the auth checks are',
      '  npx petstore-conformance --base-url https://prod.example.com/v1 --read-only',
      '  npx petstore-conformance --base-url "$URL" --api-key-env STAGING_KEY --only listPets,getPet',
      '  npx petstore-conformance --skip "createPet.*" --strict',
      '  npx petstore-conformance --seed 1234                         # replay a run exactly',
    ]),
    'CI recipes (GitHub Actions, sharding by area, certifying an implementation): README.md.',
  ].join('\n');
}

function formatValue(key: Key, value: unknown): string {
  if (key === 'apiKey') return value ? '(set; never shown)' : '(unset)';
  if (value === undefined) return key === 'baseUrl' ? '(unset: the bundled reference server)' : key === 'seed' ? '(unset: picked at random and printed)' : '(unset)';
  if (Array.isArray(value)) return value.length ? value.join(',') : '(none)';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}

export function showConfig(config: Config, source: Record<Key, string>): string {
  return table([
    ['VARIABLE', 'FLAG', 'VALUE', 'FROM'],
    ...settings.map(([key, s]) => [s.env, s.flag, formatValue(key, config[key]), source[key]]),
  ]);
}

export function catalogueListing(requirements: readonly Requirement[]): string {
  const must = requirements.filter((r) => r.level === 'MUST').length;
  return [
    table([['ID', 'LEVEL', 'SECTION', 'STATEMENT'], ...requirements.map((r) => [r.id, r.level, r.section, r.statement])]),
    '',
    `${requirements.length} requirements: ${must} MUST, ${requirements.length - must} SHOULD`,
  ].join('\n');
}

/** One probe before the run, so an unreachable target is one clear line instead of every check erroring. */
async function probe(config: Config & { baseUrl: string }): Promise<string | undefined> {
  const { Client, RetriesExhausted, TransportError } = await import('./client.js');
  const client = new Client({ baseUrl: config.baseUrl, apiKey: config.apiKey ?? '', timeoutMs: config.timeoutMs, concurrency: 1 });
  try {
    await client.send({ method: 'GET', path: '/pets', auth: 'none' });
    return undefined;
  } catch (err) {
    if (err instanceof RetriesExhausted) return undefined; // a 429 or 503 is an answer: the target is there
    if (err instanceof TransportError) return err.message;
    throw err;
  } finally {
    await client.close();
  }
}

/** How long an interrupted run may take to wind down before its reports are written from what is decided. */
const INTERRUPT_GRACE_MS = 1_200;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** 128 + the signal's number, as shells report a process ended by it. */
const exitCodeFor = (signal: NodeJS.Signals) => 128 + (signal === 'SIGINT' ? 2 : 15);

/**
 * Ctrl-C (SIGINT) or SIGTERM during a run: stop the checks (running ones have their requests
 * aborted, pending ones do not start), write the reports from what was decided, marked
 * interrupted, and exit 130 (143 for SIGTERM). Vitest's own handler would exit at once with no
 * report, so it is taken off for the run. Should the run not wind down within the grace period,
 * the reports are written from what is decided and the process exits; a second Ctrl-C quits at once.
 */
class Interrupts implements Reporter {
  signal: NodeJS.Signals | undefined;
  private vitest: Vitest | undefined;
  private readonly before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));

  constructor(private readonly writeNow: () => void) {
    for (const s of SIGNALS) process.on(s, this.handle);
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    for (const s of SIGNALS) for (const l of process.listeners(s)) if (l !== this.handle && !this.before.get(s)?.has(l)) process.off(s, l);
    if (this.signal) void vitest.cancelCurrentRun('keyboard-input'); // the signal came while vitest was starting
  }

  private readonly handle = (signal: NodeJS.Signals): void => {
    if (this.signal) process.exit(exitCodeFor(this.signal));
    this.signal = signal;
    console.error(`petstore-conformance: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}; stopping the checks and writing what was decided (Ctrl-C again quits at once)`);
    void this.vitest?.cancelCurrentRun('keyboard-input');
    setTimeout(() => {
      this.writeNow();
      process.exit(exitCodeFor(signal));
    }, INTERRUPT_GRACE_MS).unref();
  };

  dispose(): void {
    for (const s of SIGNALS) process.off(s, this.handle);
  }
}

async function runSuite(config: Config): Promise<number> {
  const { startVitest } = await import('vitest/node');
  const { conformanceReporters, ConformanceReporter } = await import('./report/index.js');
  const reporters = conformanceReporters(config);
  const interrupts = new Interrupts(() => reporters.forEach((r) => r instanceof ConformanceReporter && r.writeInterrupted()));
  // Unset, not 0: should a signal slip past the handlers above, vitest's own sets 130.
  process.exitCode = undefined;
  try {
    const vitest = await startVitest('test', [], {
      root,
      project: ['conformance'],
      watch: false,
      run: true,
      reporters: ['default', ...reporters, interrupts],
    });
    await vitest.close();
    if (interrupts.signal) return exitCodeFor(interrupts.signal);
    const failed = (process.exitCode !== undefined && process.exitCode !== 0) || vitest.state.getCountOfFailedTests() > 0;
    return failed ? EXIT.violations : EXIT.conformant;
  } finally {
    interrupts.dispose();
  }
}

/** No check can run: the reports still say why, each selected requirement undecided with the reason. */
async function reportUnreachable(config: Config, reason: string): Promise<void> {
  const { conformanceReporters, ConformanceReporter } = await import('./report/index.js');
  const requirements = await selectRequirements(await loadCatalogue(), config);
  for (const r of conformanceReporters(config)) if (r instanceof ConformanceReporter) r.writeUnreachable(requirements, reason);
}

/** The whole command: returns the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const say = (line: string) => console.error(`petstore-conformance: ${line}`);
  try {
    const inv = parseCommandLine(argv);
    if (inv.command === 'help') {
      console.log(helpText());
      return EXIT.conformant;
    }
    if (inv.command === 'version') {
      console.log(`petstore-conformance ${SUITE_VERSION} (Pet Store Service Interface ${INTERFACE_VERSION}; Node.js ${process.version})`);
      return EXIT.conformant;
    }
    applyFlags(inv, env);
    const config = loadConfig(env);
    const source = sources(inv, env);
    await checkSelection(config, source);
    if (inv.command === 'show-config') {
      console.log(showConfig(config, source));
      return EXIT.conformant;
    }
    if (inv.command === 'list') {
      console.log(catalogueListing(await selectRequirements(await loadCatalogue(), config)));
      return EXIT.conformant;
    }
    if (config.baseUrl) {
      const reason = await probe({ ...config, baseUrl: config.baseUrl });
      if (reason) {
        say(`cannot reach ${config.baseUrl}: ${reason}`);
        await reportUnreachable(config, `cannot reach ${config.baseUrl}: ${reason}`).catch((err: unknown) =>
          say(`the reports could not be written: ${err instanceof Error ? err.message : String(err)}`),
        );
        return EXIT.unreachable;
      }
    }
    return await runSuite(config);
  } catch (err) {
    if (err instanceof UsageError) {
      say(err.message);
      return EXIT.usage;
    }
    if (err instanceof ConfigError) {
      say(`configuration error: ${err.message}`);
      return EXIT.usage;
    }
    throw err;
  }
}
