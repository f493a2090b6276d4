// Retries are evidence of the infrastructure: a 429 or 503 with Retry-After that was retried, a
// request given up on, a GET resent after a stale connection. conformance.json records them per
// requirement (the check that sent each request) and per run, with the pacing, and validates.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { afterEach, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import { loadConfig, resolveRunConfig, type RunConfig } from '../../src/config/config.js';
import { createReferenceHandler, errorResponse, type Handler } from '../../src/reference-server/handler.js';
import { serve } from '../../src/reference-server/http.js';
import type { Results } from '../../src/report/results.js';
import { execute } from '../../src/checks/requirement.js';
import { RunContext } from '../../src/checks/context.js';
import { keepAliveServer } from './infra-servers.js';
import { CHILD_TIMEOUT, referenceServer, root, runBin, targetEnv, tempDir } from '../net-kit.js';

const addFormats = ajvFormats.default as unknown as typeof ajvFormats.default.default;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(
  JSON.parse(readFileSync(join(root, 'schemas/conformance-report.schema.json'), 'utf8')) as object,
);

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

/**
 * The first send of every getPet request is turned away: /pets/abc with 429 and a 1 s wait,
 * /pets/true with 503, the rest with 429 and no wait. Other requests (the probe, the preflight,
 * listPets) go through.
 */
const limitGetPet = (inner: Handler): Handler => {
  const seen = new Set<string>();
  return (req) => {
    if (req.method !== 'GET' || !req.url.startsWith('/v1/pets/') || seen.has(req.url)) return inner(req);
    seen.add(req.url);
    if (req.url === '/v1/pets/true') return errorResponse(503, 'unavailable', 'try again', { 'retry-after': '0' });
    return errorResponse(429, 'rate_limited', 'slow down', { 'retry-after': req.url === '/v1/pets/abc' ? '1' : '0' });
  };
};

describe('retries in conformance.json', () => {
  test(
    'a run through a rate limit records its retries under the requirement whose check sent them, and in the run with the pacing',
    CHILD_TIMEOUT,
    async () => {
      const server = await referenceServer({ wrap: limitGetPet });
      closers.push(server);
      const cwd = tempDir('retries');
      const run = await runBin(['--only', 'getPet.malformed-id,listPets.ok', '--now', '2025-01-01T00:00:00Z'], {
        env: targetEnv(server),
        cwd,
      });
      expect(run.code, run.out).toBe(EXIT.conformant);
      const report = JSON.parse(readFileSync(join(cwd, 'reports', 'conformance.json'), 'utf8')) as Results;
      expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
      const entry = (id: string) => report.requirements.find((e) => e.id === id);
      // Five malformed ids, each turned away once: 1.5, abc and the two beyond int64 with 429, true with
      // 503; and the catalogue's eight forms of an existing pet's id (tests/leniencies/path.ts) with 429.
      expect(entry('getPet.malformed-id')?.retries).toEqual({
        count: 13,
        statuses: { 429: 12, 503: 1 },
        retryAfterMs: 1000,
        resent: 0,
      });
      expect(entry('listPets.ok')?.outcome).toBe('passed');
      expect(entry('listPets.ok')?.retries).toBeUndefined();
      const { pacing, ...totals } = report.run.retries ?? { pacing: undefined };
      expect(totals).toEqual({ count: 13, statuses: { 429: 12, 503: 1 }, retryAfterMs: 1000, resent: 0 });
      expect(pacing?.limited).toBe(13);
      expect(pacing?.pausedMs).toBeGreaterThanOrEqual(900);
      const markdown = readFileSync(join(cwd, 'reports', 'conformance.md'), 'utf8');
      expect(markdown).toContain('Retried or resent (1)');
      expect(markdown).toMatch(
        /`getPet\.malformed-id`.*429 ×12, 503 ×1 with Retry-After, 13 retried after 1\.0 s of waits asked/,
      );
      expect(markdown).toMatch(
        /Requests sent again \(the infrastructure, not findings\): 429 ×12, 503 ×1 with Retry-After, 13 retried/,
      );
      const html = readFileSync(join(cwd, 'reports', 'conformance.html'), 'utf8');
      expect(html).toMatch(/Sent again: 429 ×12, 503 ×1 with Retry-After, 13 retried after 1\.0 s of waits asked/);
    },
  );
});

/** A run context against `origin`, as the CLI would build it, with `config` over it. */
function context(origin: string, config: Partial<RunConfig> = {}): RunContext {
  const target = resolveRunConfig(loadConfig({}, { dotenv: false }), {
    baseUrl: `${origin}/v1`,
    apiKey: 'retry-evidence-key',
    embedded: true,
  });
  const ctx = new RunContext(Object.freeze({ ...target, seed: 7, timeoutMs: 5_000, ...config }));
  closers.push(ctx);
  return ctx;
}

describe('what the run context records per check', () => {
  test('a request given up on (retries off) is recorded with the answer that turned it away, under its check only', async () => {
    const reference = createReferenceHandler({ apiKey: 'retry-evidence-key' });
    const server = await serve((req) =>
      req.url.includes('limit=7')
        ? errorResponse(429, 'rate_limited', 'slow down', { 'retry-after': '0' })
        : reference(req),
    );
    closers.push(server);
    const ctx = context(server.origin, { retries: 0 });
    const limited = await execute(
      { name: 'limited', check: async (c) => void (await c.api.listPets([['limit', '7']])) },
      ctx,
    );
    const fine = await execute(
      { name: 'fine', check: async (c) => void (await c.api.listPets([['limit', '3']])) },
      ctx,
    );
    expect(limited.outcome).toBe('error');
    expect(fine.outcome).toBe('passed');
    expect(ctx.retriesOf('limited')).toEqual({ count: 0, statuses: { 429: 1 }, retryAfterMs: 0, resent: 0 });
    expect(ctx.retriesOf('fine')).toBeUndefined();
    expect(ctx.retries).toEqual({ count: 0, statuses: { 429: 1 }, retryAfterMs: 0, resent: 0 });
  });

  test('GETs resent after a stale keep-alive connection are recorded under the check that sent them', async () => {
    const server = await keepAliveServer(createReferenceHandler({ apiKey: 'retry-evidence-key' }), {
      afterEach: true,
      finLagMs: 5,
    });
    closers.push(server);
    const ctx = context(server.origin, { concurrency: 8 });
    let resent = 0;
    const outcome = await execute(
      {
        name: 'many gets',
        check: async (c) => {
          const answers = await Promise.all(Array.from({ length: 120 }, () => c.api.listPets([['limit', '5']])));
          resent = answers.filter((r) => r.resent).length;
        },
      },
      ctx,
    );
    expect(outcome.outcome).toBe('passed');
    // The race is real: requests queue, and some go on a connection just as its close arrives.
    expect(resent).toBeGreaterThan(0);
    expect(ctx.retriesOf('many gets')).toEqual({ count: 0, statuses: {}, retryAfterMs: 0, resent });
    expect(ctx.retries.resent).toBe(resent);
  });
});
