// --har FILE: the HAR 1.2 record of every request a run sends. In-process, the writer behind the
// client against a small server (retries, no answer, big bodies, an echoed key), the file read
// back after every send; then the real command, a whole run against a server that breaks a rule
// and echoes the key, and one interrupted by Ctrl-C. Each file is checked against the HAR 1.2
// JSON Schema of the har-schema package, and against what Chromium's HAR importer reads.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { Client } from '../../src/wire/client.js';
import { TransportError, type SendRecord } from '../../src/wire/requests.js';
import { HAR_BODY_CAP, HarWriter } from '../../src/wire/har.js';
import { registerSecret } from '../../src/wire/redact.js';
import { loadConfig, resolveRunConfig } from '../../src/config/config.js';
import { ConformanceReporter } from '../../src/report/reporter.js';
import type { Handler } from '../../src/reference-server/handler.js';
import { faults } from '../harness/faults/index.js';
import {
  CHILD_TIMEOUT,
  closedPort,
  referenceServer,
  runBin,
  startBin,
  targetEnv,
  tempDir,
  type TestServer,
} from '../net-kit.js';

// har-schema: the HAR 1.2 spec as JSON Schema (draft-06), one file per object, as har-validator uses it.
const harSchemas = createRequire(import.meta.url)('har-schema') as Record<string, { $id: string }>;
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json') as object);
for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
// ajv-formats is CommonJS; under NodeNext its function is the module's default export.
(ajvFormats.default as unknown as typeof ajvFormats.default.default)(ajv);
// A URL as sent, which browsers and HAR viewers parse the WHATWG way: `%ZZ`, which the suite sends
// on purpose (errors.malformed-percent), is not an RFC 3986 URI but is a URL all of them open.
ajv.addFormat('uri', (url: string) => URL.canParse(url));
const validHar = ajv.getSchema('har.json#');
// The suite's own fields, as schemas/har-extension.schema.json defines them (2020-12).
const extension = JSON.parse(
  readFileSync(new URL('../../schemas/har-extension.schema.json', import.meta.url), 'utf8'),
) as { $id: string };
const ajv2020 = new Ajv2020({ allErrors: true, strict: true });
ajv2020.addSchema(extension);
const field = (def: string) => ajv2020.getSchema(`${extension.$id}#/$defs/${def}`) as ValidateFunction;
const [validSender, validCut, validError] = [field('petstore'), field('truncated'), field('error')];

interface HarFile {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: {
      startedDateTime: string;
      time: number;
      request: {
        method: string;
        url: string;
        headers: { name: string; value: string }[];
        queryString: { name: string; value: string }[];
        postData?: { text: string; mimeType: string; _truncated?: { originalSize: number; cap: number } };
        bodySize: number;
      };
      response: {
        status: number;
        headers: { name: string; value: string }[];
        content: { size: number; text?: string; _truncated?: { originalSize: number; cap: number }; comment?: string };
        bodySize: number;
        _error?: string;
      };
      timings: { send: number; wait: number; receive: number };
      _petstore: { requirements: string[]; check: string | null; note?: string; retryOf?: number };
    }[];
  };
}

/** What Chromium's DevTools importer (front_end/models/har/HARFormat.ts) throws on: objects it builds from, numbers, dates. */
function chromiumReads(har: HarFile): void {
  const object = (x: unknown, what: string) => expect(x !== null && typeof x === 'object', what).toBe(true);
  const number = (x: unknown, what: string) => expect(Number.isNaN(Number(x)), what).toBe(false);
  object(har.log, 'log');
  object(har.log.creator, 'creator');
  expect(Array.isArray(har.log.entries)).toBe(true);
  for (const [i, e] of har.log.entries.entries()) {
    for (const [x, what] of [
      [e.request, 'request'],
      [e.response, 'response'],
      [e.response.content, 'content'],
      [e.timings, 'timings'],
    ] as const)
      object(x, `entry ${i} ${what}`);
    expect(Number.isNaN(new Date(e.startedDateTime).getTime()), `entry ${i} startedDateTime`).toBe(false);
    for (const [x, what] of [
      [e.time, 'time'],
      [e.response.status, 'status'],
      [e.response.bodySize, 'bodySize'],
      [e.response.content.size, 'size'],
      [e.timings.send, 'send'],
      [e.timings.wait, 'wait'],
      [e.timings.receive, 'receive'],
    ] as const)
      number(x, `entry ${i} ${what}`);
  }
}

/** Reads a HAR and checks it whole: JSON, the HAR 1.2 schema, Chromium's reading, version and creator. */
function readHar(path: string): HarFile {
  const har = JSON.parse(readFileSync(path, 'utf8')) as HarFile;
  expect(validHar?.(har), JSON.stringify(validHar?.errors?.slice(0, 3))).toBe(true);
  for (const e of har.log.entries) {
    expect(validSender(e._petstore), JSON.stringify(validSender.errors)).toBe(true);
    for (const cut of [e.request.postData?._truncated, e.response.content._truncated])
      if (cut !== undefined) expect(validCut(cut), JSON.stringify(cut)).toBe(true);
    if (e.response._error !== undefined) expect(validError(e.response._error)).toBe(true);
  }
  chromiumReads(har);
  expect(har.log.version).toBe('1.2');
  expect(har.log.creator.name).toBe('petstore-conformance');
  return har;
}

const servers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('the writer behind the client: one entry per send, whole after each', () => {
  const key = `har-key-${randomBytes(12).toString('hex')}`;
  /** A body longer than the cap, of 3-byte characters so the cut falls inside one, the key past the cut. */
  const big = `["${'€'.repeat(HAR_BODY_CAP / 2)}${key}"]`;
  let limited = 0;

  async function server(): Promise<string> {
    const s: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const auth = req.headers.authorization ?? '';
        if (req.url?.startsWith('/v1/reset')) return req.socket.destroy();
        if (req.url?.startsWith('/v1/limited') && limited++ === 0)
          return res.writeHead(429, { 'retry-after': '0' }).end();
        if (req.url?.startsWith('/v1/big')) return res.writeHead(200, { 'content-type': 'application/json' }).end(big);
        // Echoes the key in a header's name and value, and in the body.
        res
          .writeHead(req.method === 'POST' ? 201 : 200, {
            'content-type': 'application/json',
            'x-echo': auth,
            [`x-${key}`]: '1',
          })
          .end(JSON.stringify({ auth, url: req.url, body }));
      });
    });
    await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
    servers.push({ close: () => new Promise((done) => (s.closeAllConnections(), s.close(() => done()))) });
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`;
  }

  test('retries, resends and requests without an answer are entries; bodies are cut at 64 KiB; the key appears nowhere', async () => {
    const path = join(tempDir('har'), 'nested', 'run.har');
    const har = new HarWriter(path, { title: 'unit' });
    let sender: string | undefined;
    const sends: SendRecord[] = [];
    const client = new Client({
      baseUrl: await server(),
      apiKey: key,
      timeoutMs: 5_000,
      concurrency: 2,
      retries: 1,
      proxy: 'none',
      onSend: (send) => (
        sends.push(send),
        har.add(send, sender === undefined ? undefined : { requirement: sender.split(' ')[0] as string, check: sender })
      ),
    });
    const steps: [string | undefined, () => Promise<unknown>][] = [
      ['auth.missing-key A check', () => client.listPets([['token', key]])],
      [undefined, () => client.createPet({ name: key, padding: 'x'.repeat(HAR_BODY_CAP) })],
      ['listPets.limit.max Another check', () => client.send({ method: 'GET', path: '/limited' })],
      ['listPets.ok Big', () => client.send({ method: 'GET', path: '/big' })],
      ['getPet.ok Reset', () => client.send({ method: 'GET', path: '/reset' }).catch((err: unknown) => err)],
    ];
    const results: unknown[] = [];
    const broken: unknown[] = [];
    for (const [who, step] of steps) {
      sender = who;
      results.push(await step());
      // The entries come within moments, and the file is a whole HAR at every read meanwhile: a run
      // stopped at any time leaves a HAR of what was sent until shortly before.
      await vi.waitFor(
        () => {
          let entries: number;
          try {
            entries = readHar(path).log.entries.length;
          } catch (err) {
            broken.push(err);
            return;
          }
          if (entries !== client.requestCount) throw new Error(`${entries} of ${client.requestCount} entries`);
        },
        { timeout: 10_000, interval: 5 },
      );
      expect(broken).toEqual([]);
    }
    har.close();
    await client.close();

    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(key);
    const { entries } = readHar(path).log;
    // The 429 and its retry are two entries; the reset GET, on a reused connection, was resent on a fresh one: two more.
    expect(entries.map((e) => e.response.status)).toEqual([200, 201, 429, 200, 200, 0, 0]);
    expect(entries.length).toBe(client.requestCount);

    type Entry = HarFile['log']['entries'][number];
    const [echo, created, asked, retried, bigOne, reset, resent] = entries as [
      Entry,
      Entry,
      Entry,
      Entry,
      Entry,
      Entry,
      Entry,
    ];
    expect(echo._petstore).toEqual({ requirements: ['auth.missing-key'], check: 'auth.missing-key A check' });
    expect(echo.request.queryString).toEqual([{ name: 'token', value: '$PETSTORE_API_KEY' }]);
    expect(echo.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer $PETSTORE_API_KEY' });
    expect(echo.response.headers).toContainEqual({ name: 'x-echo', value: 'Bearer $PETSTORE_API_KEY' });
    expect(echo.response.headers).toContainEqual({ name: 'x-$PETSTORE_API_KEY', value: '1' });
    expect(echo.timings.wait + echo.timings.receive).toBeCloseTo(echo.time, 2);

    expect(created._petstore).toEqual({ requirements: [], check: null, note: 'sent outside any check' });
    expect(created.request.postData?._truncated).toEqual({ originalSize: created.request.bodySize, cap: HAR_BODY_CAP });
    expect(Buffer.byteLength(created.request.postData?.text ?? '')).toBeLessThanOrEqual(HAR_BODY_CAP);
    // Its answer echoes the request: longer than the cap, cut too.
    expect(created.response.content._truncated?.cap).toBe(HAR_BODY_CAP);

    expect(asked._petstore.retryOf).toBeUndefined();
    expect(retried._petstore).toEqual({
      requirements: ['listPets.limit.max'],
      check: 'listPets.limit.max Another check',
      retryOf: 2,
    });
    // The answer the check got names the send it came from.
    expect((results[2] as { request: { harEntry?: number } }).request.harEntry).toBe(3);

    const kept = bigOne.response.content.text ?? '';
    expect(bigOne.response.content._truncated).toEqual({ originalSize: Buffer.byteLength(big), cap: HAR_BODY_CAP });
    expect(bigOne.response.content.size).toBe(Buffer.byteLength(big));
    expect(bigOne.response.content.comment).toMatch(/cut to its first 65536 of \d+ bytes/);
    expect(Buffer.byteLength(kept)).toBeGreaterThan(HAR_BODY_CAP - 3);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(HAR_BODY_CAP);
    expect(big.startsWith(kept)).toBe(true); // cut between characters, never inside one

    expect(results[4]).toBeInstanceOf(TransportError);
    expect((results[4] as TransportError).request.harEntry).toBe(6);
    expect(reset.response._error).toMatch(/closed|reset/);
    expect(resent.response._error).toMatch(/closed|reset/);
    expect(resent._petstore).toEqual({ requirements: ['getPet.ok'], check: 'getPet.ok Reset', retryOf: 5 });
    expect(sends.length).toBe(entries.length);
  });

  test('a large body seen again is written the same each time: its quotes escaped, the key redacted', () => {
    registerSecret(key); // as the client does; here the writer is handed the sends directly
    const path = join(tempDir('har-again'), 'run.har');
    const har = new HarWriter(path, { title: 'again' });
    const body = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `"pet" ${i} ✓ ${key}` })));
    const request = { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} };
    const response = {
      request,
      status: 200,
      headers: {},
      text: body,
      json: undefined,
      truncated: false,
      durationMs: 1,
      at: { sent: 1, answered: 3 },
    };
    for (let i = 0; i < 3; i++)
      har.add(
        { request, startedAt: 1, respondedAt: 2, endedAt: 3, response },
        { requirement: 'listPets.ok', check: 'listPets.ok Again' },
      );
    har.close();
    const texts = readHar(path).log.entries.map((e) => e.response.content.text);
    expect(texts).toEqual(Array(3).fill(body.replaceAll(key, '$PETSTORE_API_KEY')));
  });

  test('a run stopped at its grace period: the manifest hashes a file the still-running worker no longer changes', async () => {
    const dir = tempDir('har-seal');
    const path = join(dir, 'run.har');
    const har = new HarWriter(path, { title: 'seal' });
    const client = new Client({
      baseUrl: await server(),
      apiKey: key,
      timeoutMs: 5_000,
      concurrency: 2,
      retries: 0,
      proxy: 'none',
      onSend: (send) => har.add(send, { requirement: 'listPets.ok', check: 'listPets.ok A check' }),
    });
    await client.listPets();
    har.flush();
    // The CLI's grace timeout, with no check decided: the reports are written from what there is.
    const config = loadConfig({ PETSTORE_HAR: path, PETSTORE_REPORT_DIR: join(dir, 'reports') }, { dotenv: false });
    new ConformanceReporter(config).writeRun(
      { checks: [], created: [], runTag: null, requests: null, retries: null },
      {
        runConfig: resolveRunConfig(config, { baseUrl: client.baseUrl, apiKey: key, embedded: false }),
        startedAt: new Date(),
        interrupted: true,
      },
    );
    await client.listPets(); // the worker goes on
    har.close();
    const manifest = JSON.parse(readFileSync(join(dir, 'reports', 'manifest.json'), 'utf8')) as {
      reports: { file: string; sha256: string }[];
    };
    expect(manifest.reports).toContainEqual(expect.objectContaining({ file: '../run.har', sha256: sha256(path) }));
    expect(readHar(path).log.entries).toHaveLength(1);
  });
});

/** The key in a header of every answer, and in the message of every error body. */
const echoing =
  (inner: Handler): Handler =>
  async (req) => {
    const res = await inner(req);
    const auth = req.headers.authorization ?? '';
    const body =
      res.status >= 400 && res.body.startsWith('{')
        ? JSON.stringify({ ...(JSON.parse(res.body) as object), message: `refused ${auth}` })
        : res.body;
    return { ...res, headers: { ...res.headers, 'x-echo': auth }, body };
  };

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

// Concurrently: two child processes, each mostly waiting on the other's server or start-up.
describe.concurrent('the real command with --har', CHILD_TIMEOUT, () => {
  test('a whole run: one entry per request counted, every failure linked to its entries, hashed in the manifest, no key', async () => {
    const fault = faults.find((f) => f.name === 'list-without-auth');
    const server: TestServer = await referenceServer({
      wrap: (inner, apiKey) => echoing(fault?.wrap(inner, apiKey) ?? inner),
    });
    servers.push(server);
    const cwd = tempDir('har-run');
    mkdirSync(join(cwd, 'evidence'));
    const run = await runBin(['--har', 'evidence/run.har', '--seed', '7'], { cwd, env: targetEnv(server) });
    expect(run.code, run.out).toBe(1);
    const har = readHar(join(cwd, 'evidence', 'run.har'));
    const reports = join(cwd, 'reports');
    const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as {
      run: { requests: number };
      requirements: {
        id: string;
        outcome: string;
        evidence?: { request: { method: string; url: string }; response?: { status: number }; harEntry?: number }[];
      }[];
    };
    expect(har.log.entries.length).toBe(report.run.requests);
    expect(report.run.requests).toBeGreaterThan(500);
    // Each entry names the check that sent it, but the store's population, which no check owns.
    const [population, ofChecks] = [
      har.log.entries.filter((e) => e._petstore.check === null),
      har.log.entries.filter((e) => e._petstore.check !== null),
    ];
    expect(
      ofChecks.every(
        (e) =>
          e._petstore.requirements.length === 1 && e._petstore.check?.startsWith(`${e._petstore.requirements[0]} `),
      ),
    ).toBe(true);
    expect(population.filter((e) => e.request.method === 'POST').length).toBe(
      server.traffic.created.length -
        ofChecks.filter((e) => e.request.method === 'POST' && e.response.status === 201).length,
    );
    expect(population.length).toBeGreaterThan(100);
    for (const e of population)
      expect(e._petstore).toEqual({
        requirements: [],
        check: null,
        note: expect.stringMatching(/^populating the store/),
      });

    const failed = report.requirements.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.id)).toContain('auth.missing-key');
    const html = readFileSync(join(reports, 'conformance.html'), 'utf8');
    for (const r of failed) {
      for (const ex of r.evidence ?? []) {
        expect(ex.harEntry, `${r.id}: an exchange without its HAR entry`).toBeTypeOf('number');
        const entry = har.log.entries[ex.harEntry ?? -1];
        expect([entry?.request.method, entry?.request.url, entry?.response.status]).toEqual([
          ex.request.method,
          ex.request.url,
          ex.response?.status ?? 0,
        ]);
        expect(html).toContain(`Entry ${ex.harEntry} of <a href="../evidence/run.har">../evidence/run.har</a>`);
      }
    }
    const missing = failed.find((r) => r.id === 'auth.missing-key')?.evidence?.[0];
    expect(har.log.entries[missing?.harEntry ?? -1]?._petstore.requirements).toEqual(['auth.missing-key']);

    const manifest = JSON.parse(readFileSync(join(reports, 'manifest.json'), 'utf8')) as {
      reports: { file: string; sha256: string }[];
    };
    expect(manifest.reports).toContainEqual(
      expect.objectContaining({ file: '../evidence/run.har', sha256: sha256(join(cwd, 'evidence', 'run.har')) }),
    );
    // Echoed in a header of every answer and in every error body: written $PETSTORE_API_KEY everywhere.
    expect(readFileSync(join(cwd, 'evidence', 'run.har'), 'utf8')).not.toContain(server.apiKey);
    expect(
      har.log.entries.some((e) =>
        e.response.headers.some((h) => h.name === 'x-echo' && h.value === 'Bearer $PETSTORE_API_KEY'),
      ),
    ).toBe(true);
  });

  test('Ctrl-C mid-run leaves a whole HAR of what was sent, requests cut off included, hashed in the manifest', async () => {
    const server = await referenceServer({ delayMs: 100 });
    servers.push(server);
    const cwd = tempDir('har-interrupt');
    const started = startBin(['--har', 'run.har'], { cwd, env: { ...targetEnv(server), PETSTORE_RUNS: '5' } });
    const answered = () => Object.values(server.traffic.statuses).reduce((a, b) => a + b, 0);
    while (answered() < 40 && started.child.exitCode === null) await sleep(20);
    const before = answered();
    started.child.kill('SIGINT');
    const run = await started.done;
    expect(run.code, run.out).toBe(130);
    const har = readHar(join(cwd, 'run.har'));
    // Every request answered before the signal is an entry (its answer, or cut off in transit), but the probe and preflight.
    expect(har.log.entries.length).toBeGreaterThanOrEqual(before - 2);
    expect(har.log.entries.some((e) => e.response.status === 0 && /interrupted/.test(e.response._error ?? ''))).toBe(
      true,
    );
    const manifest = JSON.parse(readFileSync(join(cwd, 'reports', 'manifest.json'), 'utf8')) as {
      reports: { file: string; sha256: string }[];
    };
    expect(manifest.reports).toContainEqual(
      expect.objectContaining({ file: '../run.har', sha256: sha256(join(cwd, 'run.har')) }),
    );
  });

  test('a target that cannot be tested leaves a whole HAR with no entry, hashed; a folder or an unwritable place is one line, exit 2', async () => {
    const cwd = tempDir('har-not-tested');
    const unreachable = await runBin(['--har', 'run.har'], {
      cwd,
      env: { PETSTORE_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, PETSTORE_API_KEY: 'k' },
    });
    expect(unreachable.code, unreachable.out).toBe(3);
    const har = readHar(join(cwd, 'run.har'));
    expect(har.log.entries).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(cwd, 'reports', 'manifest.json'), 'utf8')) as {
      reports: { file: string; sha256: string }[];
    };
    expect(manifest.reports).toContainEqual(
      expect.objectContaining({ file: '../run.har', sha256: sha256(join(cwd, 'run.har')) }),
    );
    for (const [path, said] of [
      [cwd, /--har: ".*" is a folder; name a file/],
      [join(cwd, 'run.har', 'x.har'), /--har: cannot write ".*": .* is not a folder/],
    ] as const) {
      const bad = await runBin(['--har', path]);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toMatch(said);
    }
  });
});
