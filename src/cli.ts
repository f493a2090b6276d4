// The command line. Its flags and --help are derived from the settings table in src/config.ts;
// a flag is applied by setting the setting's environment variable in this process, so the
// global setup (which reads configuration through loadConfig like everything else) sees it.
// Order: parse flags (exit 2), validate configuration (exit 2), probe the target and send one
// authenticated preflight request (exit 3, reports "not tested"), then run vitest's conformance
// project in this process (exit 0 or 1).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STATUS_CODES } from 'node:http';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, readDotenv, SETTINGS, type Config } from './config.js';
import type { Exchange } from './evidence.js';
import { redactMessage, wire } from './redact.js';
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
type AnySetting = (typeof SETTINGS)[Key] & { arg?: string; flag?: string };
const settings = Object.entries(SETTINGS) as [Key, AnySetting][];
/** The settings a flag sets; the others (NO_COLOR, GITHUB_STEP_SUMMARY) come from the surroundings. */
const flagged = settings.filter((e): e is [Key, AnySetting & { flag: string }] => e[1].flag !== undefined);
const isSwitch = (s: AnySetting) => typeof s.default === 'boolean';
const isList = (s: AnySetting) => Array.isArray(s.default);

/** Commands that print and exit instead of running the suite. */
const COMMANDS = {
  list: 'Print the requirement catalogue (id, level, section, statement) and exit; with --only/--skip, just the selection.',
  'show-config': 'Print the settings a run would use and where each comes from (flag, environment, .env, default), and exit. The key is never shown.',
  version: "Print the suite's version and the interface version, and exit.",
  help: 'Print this help and exit.',
} as const;
type Command = keyof typeof COMMANDS | 'run' | 'diff';

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
  /** `diff`: its own arguments (OLD.json NEW.json [--md FILE]), parsed by src/diff.ts. */
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
      const next = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
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
  // The one subcommand, with positional arguments of its own: `diff OLD.json NEW.json`.
  if (argv[0] === 'diff') return { command: 'diff', flags: {}, args: argv.slice(1) };
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [, s] of flagged) options[s.flag.slice(2)] = { type: isSwitch(s) ? 'boolean' : 'string', ...(isList(s) ? { multiple: true } : {}) };
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
export function applyFlags(inv: Invocation, env: NodeJS.ProcessEnv): void {
  for (const [key, raw] of Object.entries(inv.flags) as [Key, string][]) env[SETTINGS[key].env] = raw;
  if (inv.apiKeyEnv !== undefined) {
    const key = env[inv.apiKeyEnv] || readDotenv()[inv.apiKeyEnv];
    if (!key) throw new UsageError(`${SETTINGS.apiKey.flag}: the variable it names is not set or empty (neither in the environment nor in .env)`);
    env[SETTINGS.apiKey.env] = key;
  }
}

/** Where each setting's value comes from, for --show-config. */
export function sources(inv: Invocation, env: NodeJS.ProcessEnv): Record<Key, string> {
  const dotenv = readDotenv();
  const out = {} as Record<Key, string>;
  for (const [key, s] of settings) {
    if (key in inv.flags || (key === 'apiKey' && inv.apiKeyEnv)) out[key] = key === 'apiKey' ? `${s.flag} ${inv.apiKeyEnv}` : (s.flag ?? '');
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
  const options = flagged.map(([key, s]) => {
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
    section('Usage', [
      '  npx petstore-conformance [options]',
      '  npx petstore-conformance diff OLD.json NEW.json [--md FILE]   # what changed between two runs',
    ]),
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
    section('Set by the surroundings (no flag; read from the environment or .env)', settings.filter(([, s]) => !s.flag).map(([, s]) => entry(s.env, s.doc))),
      '  1  not conformant: a MUST requirement failed or could not be decided; with --strict, a SHOULD too.',
      '     With --baseline: only a regression (a failure not in the baseline) fails; with --strict also',
      '     a baseline entry that now passes (fixed). diff: NEW has a MUST failure OLD had not',
      '  2  bad usage or configuration: one line names the flag or variable; nothing was sent',
      '  3  not tested: before any check, GET <base-url>/pets without a key, then with it (?limit=1);',
      '     one line says what is wrong and the reports say "not tested": unreachable (DNS, connection',
      '     refused, TLS, timeout), the key refused (401/403), a base URL without its version segment',
      '     (404), a page that is not JSON (a login page or proxy in front), a failing service or gateway',
      '     (5xx). Only these two requests stop a run; later failures are judged by the checks',
      '  130  interrupted (Ctrl-C; 143 for SIGTERM): the checks stop and the reports keep what was',
      '       decided, marked interrupted; unfinished checks count as undecided',
    ]),
    section('What a run leaves', [
      ...para('On the terminal: a progress line while checks run (only when output is a terminal), then the summary with one line per failed or warned requirement giving its first reason, and a command that replays the run. The full evidence (requests, responses, curl lines) is in the reports, or printed as well with --verbose.'),
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
    ...settings.map(([key, s]) => [s.env, s.flag ?? '-', formatValue(key, config[key]), source[key]]),
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

/** Why the target cannot be tested, in one line, with the exchange that showed it. */
interface Diagnosis {
  reason: string;
  evidence: Exchange[];
}

type ClientApi = typeof import('./client.js');
type Answer = Awaited<ReturnType<InstanceType<ClientApi['Client']>['send']>>;

const contentType = (res: Answer) => {
  const type = res.headers['content-type']?.split(';')[0]?.trim();
  return type ? wire(type) : 'no Content-Type';
};

/**
 * A 502, 503 or 504, or a 5xx that is not JSON: what a gateway or proxy answers when the service
 * behind it is down. The service's own JSON 5xx is not this (see preflight).
 */
function failingService(res: Answer, baseUrl: string): string | undefined {
  if (res.status < 500 || res.status > 599) return undefined;
  if (![502, 503, 504].includes(res.status) && res.jsonError === undefined) return undefined;
  const server = /^[^\s/(]+/.exec(res.headers.server ?? '')?.[0];
  return `the service behind ${wire(baseUrl)} is failing (${res.status} ${STATUS_CODES[res.status] ?? ''}${server ? ` from ${wire(server)}` : ''})`.replace(' )', ')');
}

/**
 * Ctrl-C before the checks start (the probe, the preflight, writing the reports of a run that
 * could not start): the requests in flight are aborted, and the reports are written from what was
 * decided, marked interrupted. A second Ctrl-C quits at once. runSuite's own handler takes over
 * once the checks start.
 */
class EarlyInterrupts {
  signal: NodeJS.Signals | undefined;
  private readonly clients = new Set<{ abort(): void }>();
  /** Once the checks run, runSuite's handler acts; this one only notes a signal it may miss. */
  private passive = false;

  constructor() {
    for (const s of SIGNALS) process.on(s, this.handle);
  }

  watch<C extends { abort(): void }>(client: C): C {
    this.clients.add(client);
    if (this.signal) client.abort();
    return client;
  }

  standBy(): void {
    this.passive = true;
  }

  private readonly handle = (signal: NodeJS.Signals): void => {
    if (this.passive) {
      this.signal ??= signal;
      return;
    }
    if (this.signal) process.exit(exitCodeFor(this.signal));
    this.signal = signal;
    console.error(`petstore-conformance: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}; writing what was decided (Ctrl-C again quits at once)`);
    for (const c of this.clients) c.abort();
  };

  dispose(): void {
    for (const s of SIGNALS) process.off(s, this.handle);
  }
}

/**
 * Before any check: one unauthenticated GET {base}/pets (the probe: is anything there?), then one
 * authenticated GET {base}/pets?limit=1 (the preflight: is this the service, with this key?). A
 * mistake in the setup is one clear line instead of every check failing for the same reason.
 * Only these two requests decide; whatever the target does later is judged by the checks.
 */
async function preflight(config: Config & { baseUrl: string }, keyVariable: string, interrupts: EarlyInterrupts): Promise<Diagnosis | undefined> {
  const { Client, RetriesExhausted, TransportError } = await import('./client.js');
  const { exchangeOf } = await import('./evidence.js');
  const base = config.baseUrl.replace(/\/+$/, '');
  const client = interrupts.watch(new Client({ baseUrl: base, apiKey: config.apiKey ?? '', timeoutMs: config.timeoutMs, concurrency: 1 }));
  /**
   * The answer; undefined for a 429 or 503 with Retry-After (a rate limit: the run honours it, so
   * it is nothing to diagnose); the transport's reason when there is no answer.
   */
  const send = async (req: Parameters<typeof client.send>[0]): Promise<Answer | string | undefined> => {
    try {
      return await client.send(req);
    } catch (err) {
      if (err instanceof RetriesExhausted) return undefined;
      if (err instanceof TransportError) return err.message;
      throw err;
    }
  };
  try {
    const probe = await send({ method: 'GET', path: '/pets', auth: 'none' });
    if (typeof probe === 'string') return { reason: `cannot reach ${wire(base)}: ${probe}`, evidence: [] };
    const down = probe && failingService(probe, base);
    if (probe && down) return { reason: down, evidence: [exchangeOf(probe)] };

    const res = await send({ method: 'GET', path: '/pets', query: [['limit', '1']] });
    // No answer to the key, though the probe got one: the checks will say what happens (time-outs, resets).
    if (res === undefined || typeof res === 'string') return undefined;
    const evidence = [exchangeOf(res)];
    const where = `GET ${wire(new URL(res.request.url).pathname)}`;
    if (res.status === 401 || res.status === 403) {
      return { reason: `the server refused the API key (${res.status} on ${where} with the key): check ${keyVariable}`, evidence };
    }
    if (res.status === 404) {
      if (/\/v\d+$/.test(new URL(base).pathname)) {
        return { reason: `GET ${wire(`${base}/pets`)} answered 404: nothing serves the pets collection under this base URL, which must be where the interface's paths start (e.g. https://staging.example.com/v1)`, evidence };
      }
      const versioned = await send({ method: 'GET', path: '/v1/pets', query: [['limit', '1']] });
      const hint = typeof versioned === 'object' && versioned.status !== 404 ? ` (GET ${wire(`${base}/v1/pets`)} answers ${versioned.status})` : '';
      return { reason: `GET ${wire(`${base}/pets`)} answered 404: the base URL must end with the version segment, e.g. ${wire(`${base}/v1`)}${hint}`, evidence };
    }
    const failing = failingService(res, base);
    if (failing) return { reason: failing, evidence };
    if (res.status >= 500) return { reason: `the server is failing (${res.status} on ${where})`, evidence };
    if (res.status >= 200 && res.status < 300 && res.jsonError !== undefined && !/json/i.test(contentType(res))) {
      return {
        reason: `${where} answered ${res.status} with ${contentType(res)}, not JSON: a login page or a proxy in front of the service? The base URL must reach the service itself`,
        evidence,
      };
    }
    return undefined;
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
  const { conformanceReporters, ConformanceReporter, ProgressReporter } = await import('./report/index.js');
  const reporters = conformanceReporters(config);
  // vitest's line per check and every failure's evidence only with --verbose; by default a
  // progress line, then the summary (one line per finding; the evidence is in the reports).
  const progress = config.verbose ? 'default' : new ProgressReporter();
  const interrupts = new Interrupts(() => reporters.forEach((r) => r instanceof ConformanceReporter && r.writeInterrupted()));
  // Unset, not 0: should a signal slip past the handlers above, vitest's own sets 130.
  process.exitCode = undefined;
  try {
    const vitest = await startVitest('test', [], {
      root,
      project: ['conformance'],
      watch: false,
      run: true,
      reporters: [progress, ...reporters, interrupts],
    });
    await vitest.close();
    if (interrupts.signal) return exitCodeFor(interrupts.signal);
    if (config.baseline) {
      // With a baseline, the gate decides: known deviations fail no test of the release.
      const { gateOf } = await import('./report/verdict.js');
      const results = reporters.find((r): r is InstanceType<typeof ConformanceReporter> => r instanceof ConformanceReporter)?.results;
      if (results) return gateOf(results).passed ? EXIT.conformant : EXIT.violations;
    }
    const failed = (process.exitCode !== undefined && process.exitCode !== 0) || vitest.state.getCountOfFailedTests() > 0;
    return failed ? EXIT.violations : EXIT.conformant;
  } finally {
    interrupts.dispose();
  }
}

/**
 * No check ran: the reports still say why, each selected requirement undecided with the reason;
 * the verdict is not-tested, or inconclusive and marked interrupted after Ctrl-C.
 */
async function reportNotRun(config: Config, reason: string, options: { interrupted?: boolean; evidence?: Exchange[] } = {}): Promise<void> {
  const { conformanceReporters, ConformanceReporter } = await import('./report/index.js');
  const requirements = await selectRequirements(await loadCatalogue(), config);
  for (const r of conformanceReporters(config)) if (r instanceof ConformanceReporter) r.writeUnreachable(requirements, reason, options);
}

/** The whole command: returns the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const say = (line: string) => console.error(`petstore-conformance: ${line}`);
  try {
    const inv = parseCommandLine(argv);
    if (inv.command === 'diff') return await (await import('./diff.js')).diffCommand(inv.args ?? [], env);
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
    if (config.baseline) {
      // Validated before anything is sent: a bad file or an id that names nothing is one line, exit 2.
      const { loadBaseline } = await import('./baseline.js');
      loadBaseline(config.baseline, { ids: (await loadCatalogue()).map((r) => r.id), now: config.now ?? new Date() });
    }
    const interrupts = new EarlyInterrupts();
    // Reports are written synchronously: a signal that came meanwhile is read when the event loop
    // next polls, so the check phase after it is the second one from here.
    const nextTurn = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    try {
      if (config.baseUrl) {
        // Needed by the run and by the reports of a run that cannot start: loaded while the probe waits.
        const reporting = import('./report/index.js');
        reporting.catch(() => {}); // a failure to load surfaces where it is awaited
        const diagnosis = await preflight({ ...config, baseUrl: config.baseUrl }, inv.apiKeyEnv ?? SETTINGS.apiKey.env, interrupts);
        const write = (reason: string, options: Parameters<typeof reportNotRun>[2]) =>
          reportNotRun(config, reason, options).catch((err: unknown) => say(`the reports could not be written: ${err instanceof Error ? err.message : String(err)}`));
        if (interrupts.signal) {
          await write('the run was interrupted before the checks started (during the reachability probe or the preflight)', { interrupted: true });
          return exitCodeFor(interrupts.signal);
        }
        if (diagnosis) {
          say(redactMessage(diagnosis.reason));
          await write(diagnosis.reason, { evidence: diagnosis.evidence });
          await nextTurn();
          // Ctrl-C while the reports were written: they are whole; the exit says it was interrupted.
          return interrupts.signal ? exitCodeFor(interrupts.signal) : EXIT.unreachable;
        }
      }
      interrupts.standBy();
      const code = await runSuite(config);
      await nextTurn();
      return interrupts.signal ? exitCodeFor(interrupts.signal) : code;
    } finally {
      interrupts.dispose();
    }
  } catch (err) {
    if (err instanceof UsageError) {
      say(err.message);
      return EXIT.usage;
    }
    if (err instanceof ConfigError) {
      say(`configuration error: ${err.message}`);
      return EXIT.usage;
    }
    if (err instanceof Error && (err.name === 'BaselineError' || err.name === 'DiffError')) {
      say(err.message);
      return EXIT.usage;
    }
    throw err;
  }
}
