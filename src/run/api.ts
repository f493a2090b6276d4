// The programmatic API: `import { runConformance } from 'petstore-conformance'`. One run of the
// catalogue against a base URL or a server given in-process, resolving to the results tree of
// conformance.json (typed from its schema); report files only when `reportDir` is given.
import { loadConfig, resolveRunConfig, SETTINGS, type Config } from '../config/config.js';
import { ConformanceReporter } from '../report/reporter.js';
import { RunEvents, type RunEvent } from '../report/events.js';
import { redact, registerSecret } from '../wire/redact.js';
import type { Results } from '../report/results.js';
import { checks } from '../../tests/catalogue.js';
import { ChecksRunner } from './runner.js';
import { serveInProcess, type InProcessTarget } from './serve.js';
import { replayReport, type Replay } from './replay.js';

export type { FetchHandler, InProcessTarget } from './serve.js';
export { NOT_A_VERDICT, type Replay, type ReplayedRequirement, type ReplayVerdict } from './replay.js';
export { failedRequirements, formatFindings, type FailedRequirement } from '../report/findings.js';
export type { RequirementDecided, RunEnded, RunEvent, RunStarted } from '../report/events.js';
export type {
  CheckResult,
  RequirementResult,
  Results,
  RunBaseline,
  RunRetries,
  Tally,
  Verdict,
} from '../data/generated/report-types.js';

/** The settings a run takes from code, named as in the settings table (src/config/settings.ts). */
type SettingName =
  | 'seed'
  | 'runs'
  | 'only'
  | 'skip'
  | 'strict'
  | 'readOnly'
  | 'reportDir'
  | 'timeoutMs'
  | 'concurrency'
  | 'maxCreates'
  | 'now'
  | 'retries'
  | 'rate'
  | 'label'
  | 'baseline'
  | 'baselineStrict'
  | 'requirementSet'
  | 'har';

export type ConformanceOptions = {
  /**
   * The server under test: its base URL (ending in the version segment, e.g.
   * `https://staging.example.com/v1`), or, served by the suite on a loopback port for the run, a
   * Node `http.Server`, a request listener (`(req, res)`: an Express app), or a fetch-style
   * handler (`(request) => Response`, or an object with such a `fetch`, e.g. a Hono app).
   */
  target: string | URL | InProcessTarget;
  /** The key the server accepts, sent as the bearer token; reports write `$PETSTORE_API_KEY`. */
  apiKey: string;
  /** Where an in-process target's operations live (default `/v1`). */
  basePath?: string;
  /** Report files (conformance.json, junit.xml, ...) are written only when this is given. */
  reportDir?: string;
  /** Handed each event as it happens, as `--reporter ndjson` prints them (docs/reports.md): the last one carries the verdict. */
  onEvent?: (event: RunEvent) => void;
} & Partial<Pick<Config, Exclude<SettingName, 'reportDir'>>>;

/** An option's value as the settings table reads it from the environment, then parsed there. */
function raw(value: unknown): string {
  if (Array.isArray(value)) return value.join(',');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** The run's configuration: the table's defaults, each option given parsed as its setting (no environment, no .env). */
function configOf(options: ConformanceOptions, baseUrl: string): Config {
  const config: Record<string, unknown> = { ...loadConfig({}, { dotenv: false }) };
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || !(key in SETTINGS) || key === 'apiKey') continue;
    config[key] = SETTINGS[key as keyof typeof SETTINGS].parse(raw(value), key);
  }
  config.baseUrl = SETTINGS.baseUrl.parse(baseUrl, 'target');
  config.apiKey = options.apiKey;
  return Object.freeze(config) as Config;
}

/**
 * Runs every selected requirement once against the target and resolves to the results (its
 * `verdict`: `conformant`, `nonconformant` or `inconclusive`). Prints nothing.
 */
export async function runConformance(options: ConformanceOptions): Promise<Results> {
  if (!options.apiKey) throw new TypeError('runConformance: apiKey is required');
  registerSecret(options.apiKey);
  const inProcess =
    typeof options.target === 'string' || options.target instanceof URL
      ? undefined
      : await serveInProcess(options.target);
  try {
    const baseUrl = inProcess
      ? `${inProcess.origin}${(options.basePath ?? '/v1').replace(/\/+$/, '')}`
      : String(options.target);
    const config = configOf(options, baseUrl);
    const run = resolveRunConfig(config, {
      baseUrl,
      apiKey: options.apiKey,
      embedded: false,
      inProcess: inProcess !== undefined,
    });
    const startedAt = new Date();
    const events = options.onEvent && new RunEvents(options.onEvent);
    const outcome = await new ChecksRunner(checks, run, {
      planned: (_n, selected) => events?.started({ target: redact(run.baseUrl), seed: run.seed }, selected),
      finished: (_c, input) => events?.finished(input),
    }).run();
    const reporter = new ConformanceReporter(config, { write: options.reportDir !== undefined, print: false });
    const results = reporter.writeRun(outcome, { runConfig: run, startedAt });
    events?.end(results);
    return results;
  } finally {
    await inProcess?.close();
  }
}

/**
 * Runs again, with the report's seed, the checks that failed or could not decide in `results`, against
 * `target` (default the report's): each failed requirement FIXED, STILL FAILING or COULD NOT REPLAY.
 * A FIXED replay is not a verdict (NOT_A_VERDICT): the whole run decides.
 */
export async function replay(
  results: Results,
  options: Omit<ConformanceOptions, 'target' | 'reportDir' | 'onEvent' | 'seed'> & {
    target?: ConformanceOptions['target'];
  },
): Promise<Replay> {
  if (!options.apiKey) throw new TypeError('replay: apiKey is required');
  registerSecret(options.apiKey);
  const target = options.target ?? results.target.baseUrl;
  const inProcess = typeof target === 'string' || target instanceof URL ? undefined : await serveInProcess(target);
  try {
    const baseUrl = inProcess
      ? `${inProcess.origin}${(options.basePath ?? '/v1').replace(/\/+$/, '')}`
      : String(target);
    const config = configOf({ ...options, target: baseUrl }, baseUrl);
    const run = resolveRunConfig(config, { baseUrl, apiKey: options.apiKey, embedded: false, inProcess: !!inProcess });
    return await replayReport(results, checks, run);
  } finally {
    await inProcess?.close();
  }
}
