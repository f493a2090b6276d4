// Runs the whole conformance catalogue in-process against a server built from the reference
// handler with one fault or variant applied, and returns the outcome of every requirement.
import { randomBytes } from 'node:crypto';
import { resolveRunConfig, loadConfig, type RunConfig } from '../../src/config.js';
import { createReferenceHandler, type ReferenceOptions } from '../../src/reference-server/handler.js';
import { serve } from '../../src/reference-server/http.js';
import { execute, worse, type Outcome } from '../../src/requirement.js';
import { RunContext } from '../../src/run.js';
import { checks } from '../../tests/catalogue.js';
import type { Wrap } from './faults-kit.js';

export interface HarnessRun {
  outcomes: Map<string, Outcome>;
  requests: number;
  ms: number;
}

export async function runCatalogueAgainst(
  wrap: Wrap,
  { options = {}, config = {}, basePath = '/v1' }: { options?: Partial<ReferenceOptions>; config?: Partial<RunConfig>; basePath?: string } = {},
): Promise<HarnessRun> {
  const apiKey = `harness-${randomBytes(9).toString('hex')}`;
  const server = await serve(wrap(createReferenceHandler({ apiKey, basePath, ...options }), apiKey));
  const base = resolveRunConfig(loadConfig({}, { dotenv: false }), { baseUrl: `${server.origin}${basePath}`, apiKey, embedded: true });
  const runConfig: RunConfig = Object.freeze({ ...base, seed: 42, timeoutMs: 5_000, ...config });
  const ctx = new RunContext(runConfig);
  const started = performance.now();
  const outcomes = new Map<string, Outcome>();
  try {
    await Promise.all(
      checks.map(async (c) => {
        const outcome = await execute(c, ctx);
        const prior = outcomes.get(c.requirement.id);
        if (!prior || worse(outcome.outcome, prior.outcome) !== prior.outcome) outcomes.set(c.requirement.id, outcome);
      }),
    );
  } finally {
    await ctx.close();
    await server.close();
  }
  return { outcomes, requests: ctx.api.requestCount, ms: Math.round(performance.now() - started) };
}

/** Requirement ids whose outcome is failed or error. */
export function failing(run: HarnessRun): string[] {
  return [...run.outcomes].filter(([, o]) => o.outcome === 'failed' || o.outcome === 'error').map(([id]) => id).sort();
}
