// The client's network rules, in-process against tiny local servers: only 429 and 503 with
// Retry-After are retried, a bounded number of times, honouring the wait; running out is the
// suite not deciding (outcome error), never a pass or a failure; redirects are answers, shown
// with their Location; read-only mode sends nothing that could create.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { fail } from '../../src/checks/assert.js';
import { Client } from '../../src/wire/client.js';
import { describeTransportError, RequestTarget } from '../../src/wire/transport.js';
import { RetriesExhausted, retryAfterMs, WriteBlocked } from '../../src/wire/requests.js';
import { json, type ServerResponse } from '../../src/reference-server/handler.js';
import { serve, type RunningServer } from '../../src/reference-server/http.js';
import { execute, Violation } from '../../src/checks/requirement.js';
import { forgetSecrets, redactMessage } from '../../src/wire/redact.js';
import { exchangeOf } from '../../src/wire/evidence.js';
import { msg } from '../../src/checks/message.js';

const servers: RunningServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all([...clients.splice(0).map((c) => c.close()), ...servers.splice(0).map((s) => s.close())]);
});

/** A server answering from a script, one entry per request (the last repeats); counts requests. */
async function scripted(script: ServerResponse[]) {
  const seen: string[] = [];
  const server = await serve((req) => {
    seen.push(`${req.method} ${req.url}`);
    return script[Math.min(seen.length - 1, script.length - 1)] as ServerResponse;
  });
  servers.push(server);
  return { seen, baseUrl: `${server.origin}/v1` };
}

function client(baseUrl: string, options: Partial<ConstructorParameters<typeof Client>[0]> = {}) {
  const c = new Client({ baseUrl, apiKey: 'k', timeoutMs: 5_000, concurrency: 4, proxy: 'none', ...options });
  clients.push(c);
  return c;
}

const ok = json(200, []);
const busy = (status: 429 | 503, retryAfter?: string) =>
  json(
    status,
    { code: 'busy', message: 'later', status },
    retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  );

describe('Retry-After', () => {
  test.each([
    ['delay-seconds', 429, '5', 5_000],
    ['zero', 503, '0', 0],
    ['an HTTP-date 30 s ahead', 503, new Date(1_000_000_000_000 + 30_000).toUTCString(), 30_000],
    ['an HTTP-date in the past', 429, new Date(1_000_000_000_000 - 30_000).toUTCString(), 0],
  ] as const)('%s is read as a wait', (_what, status, value, ms) => {
    expect(retryAfterMs({ status, headers: { 'retry-after': value } }, 1_000_000_000_000)).toBe(ms);
  });

  test.each([
    ['a 429 without the header', 429, undefined],
    ['a 500 with the header', 500, '1'],
    ['a 200 with the header', 200, '1'],
    ['a 301 with the header', 301, '1'],
    ['an unreadable header', 503, 'soon'],
  ] as const)('%s asks for no retry', (_what, status, value) => {
    expect(retryAfterMs({ status, headers: value === undefined ? {} : { 'retry-after': value } })).toBeUndefined();
  });
});

describe('retries', () => {
  test('a 429 with Retry-After is retried after the wait it asks for, and the retry is counted', async () => {
    const { seen, baseUrl } = await scripted([busy(429, '1'), ok]);
    const api = client(baseUrl, { retries: 3 });
    const started = performance.now();
    const res = await api.listPets();
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen).toHaveLength(2);
    expect(res.retries).toBe(1);
    expect(api.retried).toEqual({ count: 1 });
    expect(api.pacing).toMatchObject({ limited: 1, pausedMs: 1_000 });
  });

  test('a 503 with Retry-After is retried too, and a failure after it says it was retried', async () => {
    const { seen, baseUrl } = await scripted([
      busy(503, '0'),
      busy(503, '0'),
      json(400, { code: 'x', message: 'x', status: 400 }),
    ]);
    const res = await client(baseUrl, { retries: 3 }).listPets();
    expect(seen).toHaveLength(3);
    expect(res.status).toBe(400);
    expect(() => fail(res, msg`200`)).toThrow(/answered after 2 retries of 429\/503 with Retry-After/);
  });

  test.each([
    ['a 429 without Retry-After', busy(429)],
    ['a 503 without Retry-After', busy(503)],
    ['a 500 with Retry-After', { ...busy(503, '0'), status: 500 }],
    ['a 400', json(400, { code: 'x', message: 'x', status: 400 })],
    ['a 401', json(401, { code: 'x', message: 'x', status: 401 })],
  ])('%s is never retried', async (_what, answer) => {
    const { seen, baseUrl } = await scripted([answer, ok]);
    const api = client(baseUrl, { retries: 3 });
    expect((await api.listPets()).status).toBe(answer.status);
    expect(seen).toHaveLength(1);
    expect(api.retried.count).toBe(0);
  });

  test('running out of retries is the suite not deciding: outcome error, with the request', async () => {
    const { seen, baseUrl } = await scripted([busy(429, '0')]);
    const api = client(baseUrl, { retries: 2 });
    const outcome = await execute({ check: async () => void (await api.listPets()) }, {} as never);
    expect(seen).toHaveLength(3);
    expect(outcome.outcome).toBe('error');
    expect(outcome.message).toMatch(/could not decide: still 429 with Retry-After: 0 after 2 retries/);
    expect(outcome.evidence[0]?.reproduce).toContain('/v1/pets');
    // Nothing was accepted since that request was first sent: the server turns every request
    // away, so the next is sent once and not retried (a run against it ends in moments).
    await expect(api.listPets()).rejects.toThrow(/not retried: the server turns every request away/);
    expect(seen).toHaveLength(4);
  });

  test('a server that accepts again is retried again', async () => {
    const { seen, baseUrl } = await scripted([busy(429, '0'), busy(429, '0'), ok, busy(429, '0'), ok]);
    const api = client(baseUrl, { retries: 1 });
    await expect(api.listPets()).rejects.toBeInstanceOf(RetriesExhausted);
    expect((await api.listPets()).status).toBe(200); // sent once while refusing: accepted
    expect((await api.listPets()).retries).toBe(1); // refusing ended: retried as usual
    expect(seen).toHaveLength(5);
  });

  test('a wait longer than the suite honours is not waited for: error at once', async () => {
    const { seen, baseUrl } = await scripted([busy(503, '3600'), ok]);
    const started = performance.now();
    await expect(client(baseUrl, { retries: 3 }).listPets()).rejects.toThrow(
      /503 with Retry-After: 3600, a longer wait than the 60 s/,
    );
    expect(seen).toHaveLength(1);
    // Not waited for: far below the 60 s the suite would honour, far above a slow machine's moment.
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  test('with retries off, the first 429 is already undecidable', async () => {
    const { seen, baseUrl } = await scripted([busy(429, '0'), ok]);
    await expect(client(baseUrl, { retries: 0 }).listPets()).rejects.toThrow(/retries are off/);
    expect(seen).toHaveLength(1);
  });
});

describe('the key in evidence', () => {
  // Keys are registered for the whole process: these would redact every "e" of later tests.
  afterEach(() => forgetSecrets());
  test.each(['a', 'e', 'Bearer', 'PETSTORE'])(
    'with the key %j the curl line still reads "Bearer $PETSTORE_API_KEY"',
    async (key) => {
      const { baseUrl } = await scripted([ok]);
      const res = await client(baseUrl, { apiKey: key }).listPets();
      expect(exchangeOf(res).reproduce).toContain(`-H "authorization: Bearer $PETSTORE_API_KEY"`);
    },
  );
});

describe('redirects', () => {
  test('a 3xx is the answer, not followed, and a failure names its Location', async () => {
    const { seen, baseUrl } = await scripted([{ status: 308, headers: { location: '/v2/pets' }, body: '' }, ok]);
    const res = await client(baseUrl).listPets();
    expect(res.status).toBe(308);
    expect(seen).toEqual(['GET /v1/pets']);
    let message = '';
    try {
      fail(res, msg`200`);
    } catch (err) {
      message = (err as Violation).message;
    }
    // As every report shows it: the wire quotes in the message unmarked (and redacted).
    expect(redactMessage(message)).toContain('308, redirecting to Location: /v2/pets (not followed)');
  });
});

describe('read-only mode', () => {
  test('refuses every request but GET and HEAD before anything is sent', async () => {
    const { seen, baseUrl } = await scripted([ok]);
    const api = client(baseUrl, { readOnly: true });
    await expect(api.createPet({ name: 'x', categoryId: 1 })).rejects.toBeInstanceOf(WriteBlocked);
    await expect(api.send({ method: 'PUT', path: '/pets/1' })).rejects.toBeInstanceOf(WriteBlocked);
    await expect(api.createPet({ name: 'x', categoryId: 1 }, { auth: 'none' })).rejects.toBeInstanceOf(WriteBlocked);
    expect((await api.listPets()).status).toBe(200);
    expect(seen).toEqual(['GET /v1/pets']);
  });
});

describe('transport failures in one line', () => {
  test.each([
    ['ENOTFOUND', /^DNS: /],
    ['EAI_AGAIN', /^DNS: /],
    ['ECONNREFUSED', /^connection refused$/],
    ['SELF_SIGNED_CERT_IN_CHAIN', /^TLS: .*NODE_EXTRA_CA_CERTS/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /^TLS: .*NODE_EXTRA_CA_CERTS/],
    ['CERT_HAS_EXPIRED', /^TLS: .*expired/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /^TLS: .*does not name this host/],
    ['UND_ERR_CONNECT_TIMEOUT', /^timeout: /],
  ])('%s reads %s', (code, reason) => {
    expect(describeTransportError(Object.assign(new Error('x'), { code }), 1000)).toMatch(reason);
  });

  test('a request that outlives the timeout says so', async () => {
    const aborted = AbortSignal.abort();
    expect(describeTransportError(new Error('aborted'), 250, aborted)).toBe(
      'timeout: no complete response within 250 ms',
    );
  });
});

describe('a large body', () => {
  test('goes in pieces, byte for byte, with its Content-Length and no chunking; a surrogate pair on a cut stays whole', async () => {
    const received: { bytes: Buffer; headers: Record<string, string | string[] | undefined> }[] = [];
    const raw = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        received.push({ bytes: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    try {
      const api = client(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`);
      // Pieces are 256 KiB of text: the emoji's two halves lie either side of the first cut.
      const body = `${'a'.repeat(256 * 1024 - 1)}\u{1F600}${'b'.repeat(300_000)}`;
      expect((await api.send({ method: 'POST', path: '/pets', body: { raw: body } })).status).toBe(201);
      const [got] = received;
      expect(got?.bytes.equals(Buffer.from(body))).toBe(true);
      expect(got?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
      expect(got?.headers['transfer-encoding']).toBeUndefined();
    } finally {
      raw.close();
    }
  });
});

describe('the pool', () => {
  test('never has more requests in flight than its size, and an urgent request waits ahead of the others', async () => {
    let inFlight = 0;
    let most = 0;
    const order: string[] = [];
    const server = await serve(async (req) => {
      inFlight++;
      most = Math.max(most, inFlight);
      order.push(req.url);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return ok;
    });
    servers.push(server);
    const api = client(`${server.origin}/v1`, { concurrency: 2 });
    const sent = ['a', 'b', 'c', 'd'].map((q) => api.listPets([[q, '1']]));
    sent.push(api.listPets([['urgent', '1']], { urgent: true }));
    await Promise.all(sent);
    expect(most).toBe(2);
    // a and b take the two connections; the urgent request goes before c and d.
    expect(order.slice(0, 3).sort()).toEqual(['/v1/pets?a=1', '/v1/pets?b=1', '/v1/pets?urgent=1']);
  });
});

describe('the URL as sent', () => {
  test('origin and path are those of new URL, whether or not a URL already in that form skips the parse', () => {
    // Characters the URL standard passes through, encodes, or resolves (dot segments, `%2e`, `\\`).
    const piece = fc
      .array(
        fc.constantFrom(
          'a',
          'Z',
          '9',
          '-',
          '_',
          '~',
          '.',
          '..',
          '%2e',
          '%2E',
          '%zz',
          '%41',
          '/',
          '//',
          '?',
          "'",
          '"',
          ' ',
          '#',
          '\\',
          '{',
          '^',
          '|',
          '`',
          '<',
          'é',
          '😀',
          '\t',
          '+',
          '&',
          '=',
          ':',
          '@',
          '!',
          '$',
          '(',
          '*',
          ',',
          ';',
        ),
        { maxLength: 8 },
      )
      .map((p) => p.join(''));
    const base = fc.constantFrom(
      'http://127.0.0.1:8080/v1',
      'http://localhost/v1',
      'https://h.example:8443/api/v1',
      'http://H.example/v1',
      'http://h.example:80/v1',
      'http://h.example/v1/',
    );
    fc.assert(
      fc.property(base, piece, fc.option(piece, { nil: undefined }), (baseUrl, path, query) => {
        const trimmed = baseUrl.replace(/\/+$/, '');
        const url = `${trimmed}/pets/${path}${query === undefined ? '' : `?${query}`}`;
        const parsed = new URL(url);
        expect(new RequestTarget(trimmed).of(url), url).toEqual({
          origin: parsed.origin,
          path: `${parsed.pathname}${parsed.search}`,
        });
      }),
      { numRuns: 3000 },
    );
  });
});
