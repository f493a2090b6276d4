// The settings table: every setting declared once (env name, flag, parser, default, doc); the
// parsers are in values.ts. src/config/config.ts reads it; .env.example, --help and the report derive from it.
import {
  integer,
  boolean,
  baseUrl,
  list,
  instant,
  text,
  requirementSet,
  fileToWrite,
  rate,
  duration,
  oneOf,
  type Setting,
} from './values.js';

import { CURRENT_REQUIREMENT_SET } from '../data/generated/requirement-ids.js';

export { ConfigError, type Env, type Setting } from './values.js';

/** Longest wait a Retry-After header is honoured for; a server asking more is not retried. */
export const RETRY_MAX_WAIT_S = 60;

export const SETTINGS = {
  baseUrl: {
    env: 'PETSTORE_BASE_URL',
    flag: '--base-url',
    arg: 'URL',
    parse: baseUrl,
    default: undefined as string | undefined,
    example: 'https://staging.example.com/v1',
    doc: 'Base address of the server under test, ending in the version segment. Unset: the bundled reference server is started.',
  } satisfies Setting<string | undefined>,
  apiKey: {
    env: 'PETSTORE_API_KEY',
    flag: '--api-key-env',
    arg: 'NAME',
    parse: (raw: string) => raw.trim(),
    default: undefined as string | undefined,
    example: 'change-me',
    doc: 'API key sent as the bearer token. Required with PETSTORE_BASE_URL. Never printed: reports write $PETSTORE_API_KEY.',
  } satisfies Setting<string | undefined>,
  reportDir: {
    env: 'PETSTORE_REPORT_DIR',
    flag: '--report-dir',
    arg: 'DIR',
    parse: text,
    default: 'reports',
    example: 'reports',
    doc: 'Folder the run writes its reports into.',
  } satisfies Setting<string>,
  timeoutMs: {
    env: 'PETSTORE_TIMEOUT_MS',
    flag: '--timeout',
    arg: 'MS',
    parse: integer(1, 600_000),
    default: 10_000,
    example: '10000',
    doc: 'Per-request timeout in milliseconds.',
  } satisfies Setting<number>,
  strict: {
    env: 'PETSTORE_STRICT',
    flag: '--strict',
    parse: boolean,
    default: false as boolean,
    example: '0',
    doc: 'Make SHOULD findings fail the run too, instead of being reported as warnings.',
  } satisfies Setting<boolean>,
  verbose: {
    env: 'PETSTORE_VERBOSE',
    flag: '--verbose',
    parse: boolean,
    default: false as boolean,
    example: '0',
    doc:
      "Print every check as it finishes and each failure's full evidence (request, response, curl line); by default a progress line and one line " +
      'per finding, the evidence in the reports.',
  } satisfies Setting<boolean>,
  reporter: {
    env: 'PETSTORE_REPORTER',
    flag: '--reporter',
    arg: 'NAME',
    parse: oneOf(['summary', 'ndjson']),
    default: 'summary' as 'summary' | 'ndjson',
    example: 'summary',
    doc:
      'What the run prints on stdout: summary (a progress line, then one line per finding) or ndjson (one JSON object a line, one per event: the ' +
      'run started, each requirement decided, the run ended with the verdict; for editors, wrappers and dashboards; the rest goes to stderr).',
  } satisfies Setting<'summary' | 'ndjson'>,
  readOnly: {
    env: 'PETSTORE_READ_ONLY',
    flag: '--read-only',
    parse: boolean,
    default: false as boolean,
    example: '0',
    doc: 'Send no request that could create data (for production and shared stores); checks that must create are reported skipped, with the reason.',
  } satisfies Setting<boolean>,
  maxCreates: {
    env: 'PETSTORE_MAX_CREATES',
    flag: '--max-creates',
    arg: 'N',
    parse: integer(0, 1_000_000),
    default: 300,
    example: '300',
    doc: 'Most pets one run may create (there is no delete operation).',
  } satisfies Setting<number>,
  seed: {
    env: 'PETSTORE_SEED',
    flag: '--seed',
    arg: 'N',
    parse: integer(-(2 ** 31), 2 ** 31 - 1),
    default: undefined as number | undefined,
    example: '',
    doc: 'Seed for every random input; unset picks one and prints it. Replays a run exactly.',
  } satisfies Setting<number | undefined>,
  runs: {
    env: 'PETSTORE_RUNS',
    flag: '--runs',
    arg: 'N',
    parse: integer(1, 100_000),
    default: 50,
    example: '50',
    doc: 'Runs per property-based check. Properties that create pets run fewer when their share of PETSTORE_MAX_CREATES cannot pay for more.',
  } satisfies Setting<number>,
  soakMs: {
    env: 'PETSTORE_SOAK',
    flag: '--soak',
    arg: 'DURATION',
    parse: duration,
    default: undefined as number | undefined,
    example: '',
    doc:
      'After the run, run its properties again, each round with the next seed, until DURATION (30s, 10m, 2h) is spent; the reports say the rounds, ' +
      'the cases and the time since the last new finding. For nightly jobs: creations still count against PETSTORE_MAX_CREATES. Unset: no soak.',
  } satisfies Setting<number | undefined>,
  concurrency: {
    env: 'PETSTORE_CONCURRENCY',
    flag: '--concurrency',
    arg: 'N',
    parse: integer(1, 256),
    default: 16,
    example: '16',
    doc: 'Most requests in flight at once.',
  } satisfies Setting<number>,
  now: {
    env: 'PETSTORE_NOW',
    flag: '--now',
    arg: 'DATE',
    parse: instant,
    default: undefined as Date | undefined,
    example: '',
    doc: "The suite's clock (ISO 8601), for date-dependent checks such as getPet's removal date. Unset: the real clock.",
  } satisfies Setting<Date | undefined>,
  retries: {
    env: 'PETSTORE_RETRIES',
    flag: '--retries',
    arg: 'N',
    parse: integer(0, 10),
    default: 3,
    example: '3',
    doc:
      `Times a 429 or 503 answer with Retry-After is retried, waiting as the header asks (at most ${RETRY_MAX_WAIT_S} s). Retries are reported; ` +
      `only running out of them counts, as "could not decide". Other answers are never retried.`,
  } satisfies Setting<number>,
  rate: {
    env: 'PETSTORE_RATE',
    flag: '--rate',
    arg: 'N[/s|/m]',
    parse: rate,
    default: undefined as number | undefined,
    example: '',
    doc:
      'Most requests per second (N, N/s or N/m), for a gateway whose rate limit is known in advance. Unset: no limit until a 429 or 503 with ' +
      'Retry-After, which pauses every request and slows the run down on its own.',
  } satisfies Setting<number | undefined>,
  only: {
    env: 'PETSTORE_ONLY',
    flag: '--only',
    arg: 'IDS',
    parse: list,
    default: Object.freeze([]) as readonly string[],
    example: '',
    doc: 'Run only these requirement ids or areas (comma-separated, globs allowed, e.g. auth.*,listPets).',
  } satisfies Setting<readonly string[]>,
  skip: {
    env: 'PETSTORE_SKIP',
    flag: '--skip',
    arg: 'IDS',
    parse: list,
    default: Object.freeze([]) as readonly string[],
    example: '',
    doc: 'Leave out these requirement ids or areas (comma-separated, globs allowed).',
  } satisfies Setting<readonly string[]>,
  label: {
    env: 'PETSTORE_LABEL',
    flag: '--label',
    arg: 'TEXT',
    parse: text,
    default: undefined as string | undefined,
    example: '',
    doc: "The implementation's name in the reports and in a matrix of several runs (`matrix`). Unset: the target's host.",
  } satisfies Setting<string | undefined>,
  baseline: {
    env: 'PETSTORE_BASELINE',
    flag: '--baseline',
    arg: 'FILE',
    parse: text,
    default: undefined as string | undefined,
    example: '',
    doc:
      'Known deviations (a file as schemas/baseline.schema.json, or an earlier conformance.json whose failed and undecided requirements are ' +
      'known). They still run and are reported as known; the run fails only on a regression, and an entry whose requirements all pass is reported ' +
      'fixed (fails with --strict or --baseline-strict).',
  } satisfies Setting<string | undefined>,
  baselineStrict: {
    env: 'PETSTORE_BASELINE_STRICT',
    flag: '--baseline-strict',
    parse: boolean,
    default: false as boolean,
    example: '0',
    doc:
      'With --baseline: an entry whose requirements all pass (stale: it would hide their next regression), or whose until date has passed, fails ' +
      'the run too.',
  } satisfies Setting<boolean>,
  requirementSet: {
    env: 'PETSTORE_REQUIREMENT_SET',
    flag: '--requirement-set',
    arg: 'ID',
    parse: requirementSet,
    default: CURRENT_REQUIREMENT_SET,
    example: '',
    doc:
      `The requirement set the verdict is scored against, e.g. one a certificate was issued against: every check runs, and requirements added ` +
      // Not the id itself: .env.example would change with every new set (--help prints the default).
      'after it are reported "not scored". Default: the set this release certifies against, the last.',
  } satisfies Setting<string>,
  har: {
    env: 'PETSTORE_HAR',
    flag: '--har',
    arg: 'FILE',
    parse: fileToWrite,
    default: undefined as string | undefined,
    example: '',
    doc:
      'Write every request the run sends, with its answer and timings, to FILE as a HAR 1.2 archive (opens in browser developer tools and HAR ' +
      'viewers): each entry names the requirement and check that sent it, bodies are cut at 64 KiB, the API key is written $PETSTORE_API_KEY.',
  } satisfies Setting<string | undefined>,
  start: {
    env: 'PETSTORE_START',
    flag: '--start',
    arg: 'CMD',
    parse: text,
    default: undefined as string | undefined,
    example: '',
    doc:
      'A shell command that starts the server under test (e.g. "npm start"). Run in its own process group, waited for until PETSTORE_BASE_URL ' +
      'accepts connections, stopped after the run (SIGTERM, then SIGKILL), also on Ctrl-C. Its output goes to server.log in the report folder. Needs ' +
      'PETSTORE_BASE_URL.',
  } satisfies Setting<string | undefined>,
  startTimeoutMs: {
    env: 'PETSTORE_START_TIMEOUT_MS',
    flag: '--start-timeout',
    arg: 'MS',
    parse: integer(1, 600_000),
    default: 30_000,
    example: '30000',
    doc:
      'How long --start waits for PETSTORE_BASE_URL to accept connections, in milliseconds; the command exiting first, or the wait running out, ' +
      'ends the run with exit code 3.',
  } satisfies Setting<number>,
  // Conventions of the surroundings: no flag (see Setting.flag).
  noColor: {
    env: 'NO_COLOR',
    parse: (raw: string) => raw !== '',
    default: false as boolean,
    blankIsSet: true,
    example: '',
    doc:
      'Any non-empty value (even 0) turns colour off in the terminal summary, as no-color.org has it; colour is used only on a terminal, never in ' +
      'a report file.',
  } satisfies Setting<boolean>,
  stepSummary: {
    env: 'GITHUB_STEP_SUMMARY',
    parse: text,
    default: undefined as string | undefined,
    example: '',
    doc: "Set by GitHub Actions: conformance.md, and the diff command's Markdown, are appended to this file.",
  } satisfies Setting<string | undefined>,
} as const;

export type Settings = typeof SETTINGS;
export type Config = { readonly [K in keyof Settings]: Settings[K]['default'] };
