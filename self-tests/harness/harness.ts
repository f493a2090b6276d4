// Runs the whole conformance catalogue in-process against a server built from the reference
// handler with one fault or variant applied, and returns the outcome of every requirement.
import { randomBytes } from 'node:crypto';
import { resolveRunConfig, loadConfig, type RunConfig } from '../../src/config/config.js';
import { createReferenceHandler, type Handler } from '../../src/reference-server/handler.js';
import { serve } from '../../src/reference-server/http.js';
import { POPULATION_PLAN } from '../../src/checks/budget.js';
import { stringifyJson } from '../../src/wire/json.js';
import { worse, type CheckKind, type Outcome } from '../../src/checks/requirement.js';
import type { RequirementId } from '../../src/data/generated/requirement-ids.js';
import { ChecksRunner, type ChecksRun } from '../../src/run/runner.js';
import type { RunCoverage, RunSoak, TargetLost, TargetPoisoned } from '../../src/report/results.js';
import { checks } from '../../tests/catalogue.js';
import type { ServerSetup, Wrap } from './faults-kit.js';

export interface HarnessRun {
  /** Per requirement, the worst outcome of its checks. */
  outcomes: Map<string, Outcome>;
  /** Every check's outcome, in catalogue order (what a report is built from, see results-of.ts). */
  checks: { id: string; name: string; kind: CheckKind; outcome: Outcome }[];
  requests: number;
  ms: number;
  /** A target that stopped answering, or turned failing, as the run found it (see TargetWatch). */
  targetLost?: TargetLost | null;
  targetPoisoned?: TargetPoisoned | null;
  /** The catalogued inputs sent and not (see src/run/coverage.ts). */
  coverage?: RunCoverage;
  /** --soak's rounds, when the config asked for them (see src/run/soak.ts). */
  soak?: RunSoak;
}

export interface RunOptions extends Omit<ServerSetup, 'wrap'> {
  basePath?: string;
  /** Run only the checks of these requirement ids (default: the whole catalogue). */
  only?: readonly string[];
  /** With `only`: the checks of these requirements run too (see Fault.alongside). */
  alongside?: readonly string[];
  /** Serves the handler (default: the reference server's node:http front), e.g. behind socket-level behaviour. */
  serveWith?: (handler: Handler) => Promise<{ origin: string; close(): Promise<void> }>;
  /**
   * The store already holds the population the list checks share (POPULATION_PLAN), written by
   * someone else before the server was broken (default: for a whole-catalogue run). As on a
   * shared staging server, the run then creates none of it: a whole run sends some 100 POSTs
   * fewer, each on a connection of its own. A run of some requirements populates the store itself.
   */
  populated?: boolean;
}

/** Writes POPULATION_PLAN's pets into the reference handler's store directly (no HTTP). */
/**
 * One key per process: the redaction registry keeps every key it is given, so a key per run would
 * make each redaction scan hundreds of them in a matrix child. Each run has a server of its own.
 */
const apiKey = `harness-${randomBytes(9).toString('hex')}`;

async function populate(handler: Handler, apiKey: string, basePath: string): Promise<void> {
  const statuses = Object.entries(POPULATION_PLAN).flatMap(([status, n]) => Array<string>(n).fill(status));
  for (const [i, status] of statuses.entries()) {
    const res = await handler({
      method: 'POST',
      url: `${basePath}/pets`,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: stringifyJson({ name: `someone else's pet ${i}`, categoryId: i % 13, status }),
    });
    if (res.status !== 201) throw new Error(`populating: pet ${i} was answered ${res.status} ${res.body}`);
  }
}

/** The seed of every harness run that sets none. */
export const HARNESS_SEED = 42;

export async function runCatalogueAgainst(
  wrap: Wrap,
  {
    options = {},
    config = {},
    basePath: base = '/v1',
    prepare,
    only,
    alongside = [],
    serveWith = serve,
    populated = !only,
  }: RunOptions = {},
): Promise<HarnessRun> {
  const basePath = (options.basePath ?? base).replace(/\/+$/, '');
  const reference = createReferenceHandler({ apiKey, ...options, basePath });
  if (populated) await populate(reference, apiKey, basePath);
  const handler = wrap(reference, apiKey);
  await prepare?.({ handler, apiKey, basePath });
  const server = await serveWith(handler);
  const target = resolveRunConfig(loadConfig({}, { dotenv: false }), {
    baseUrl: `${server.origin}${basePath}`,
    apiKey,
    embedded: true,
  });
  const runConfig: RunConfig = Object.freeze({ ...target, seed: HARNESS_SEED, timeoutMs: 10_000, ...config });
  const started = performance.now();
  // The command line's runner: the same order of checks, the run-wide rules last.
  const runner = new ChecksRunner(checks, runConfig, {}, (c) =>
    only ? only.includes(c.requirement.id) || alongside.includes(c.requirement.id) : true,
  );
  let run: ChecksRun;
  try {
    run = await runner.run();
  } finally {
    await server.close();
  }
  const outcomes = new Map<string, Outcome>();
  const ran = run.checks.map((c) => {
    const outcome: Outcome = {
      outcome: c.outcome,
      ...(c.message === undefined ? {} : { message: c.message }),
      ...(c.note === undefined ? {} : { note: c.note }),
      evidence: [...c.evidence],
      durationMs: c.durationMs,
      ...(c.causes ? { causes: [...c.causes] } : {}),
      ...(c.blockedBy ? { blockedBy: c.blockedBy as RequirementId } : {}),
    };
    const prior = outcomes.get(c.requirement.id);
    if (!prior || worse(outcome.outcome, prior.outcome) !== prior.outcome) outcomes.set(c.requirement.id, outcome);
    return { id: c.requirement.id, name: c.name, kind: c.kind, outcome };
  });
  return {
    outcomes,
    checks: ran,
    requests: run.requests,
    ms: Math.round(performance.now() - started),
    targetLost: run.targetLost,
    targetPoisoned: run.targetPoisoned,
    coverage: run.coverage,
    ...(run.soak ? { soak: run.soak } : {}),
  };
}

/** Runs the catalogue (or only some requirements) against a fault's or variant's server. */
export const runSetup = (
  { wrap, ...rest }: ServerSetup & Pick<RunOptions, 'alongside' | 'populated'>,
  only?: readonly string[],
): Promise<HarnessRun> => runCatalogueAgainst(wrap, { ...rest, ...(only ? { only } : {}) });

/** Requirement ids whose outcome is failed or error. */
export function failing(run: HarnessRun): string[] {
  return [...run.outcomes]
    .filter(([, o]) => o.outcome === 'failed' || o.outcome === 'error')
    .map(([id]) => id)
    .sort();
}

/** Maps items with at most `limit` calls of `fn` in flight; results keep the items' order. */
export async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
