// The client's own limits, in-process against hostile servers: nesting is bounded before the
// recursive parser sees it, a body beyond the read bound is cut (and the connection dropped),
// and abort() ends every request at once, in flight, waiting for a retry, or sent later.
import { afterEach, describe, expect, test } from 'vitest';
import { Client } from '../../src/wire/client.js';
import { INTERRUPTED, TransportError } from '../../src/wire/requests.js';
import { MAX_JSON_DEPTH, parseJson } from '../../src/wire/json.js';
import { hostileServer, type HostileServer } from './servers.js';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('JSON nesting', () => {
  test(`${MAX_JSON_DEPTH} levels are parsed; one more is refused as not JSON, without a RangeError`, () => {
    expect(() => parseJson(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1))).toThrow(SyntaxError);
    expect(() => parseJson(nested(100_000))).toThrow(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(() => parseJson(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toThrow(
      SyntaxError,
    );
  });

  test('brackets inside strings, escaped quotes included, do not count', () => {
    const text = JSON.stringify({ name: `\\"${'['.repeat(5000)}"`, list: [[1]] });
    expect(parseJson(text)).toEqual({ name: `\\"${'['.repeat(5000)}"`, list: [[1]] });
  });
});

const servers: HostileServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all([...clients.splice(0).map((c) => c.close()), ...servers.splice(0).map((s) => s.close())]);
});

async function target(
  behaviour: Parameters<typeof hostileServer>[0],
  options: Partial<ConstructorParameters<typeof Client>[0]> = {},
) {
  const server = await hostileServer(behaviour);
  servers.push(server);
  const client = new Client({
    baseUrl: server.baseUrl,
    apiKey: server.apiKey,
    timeoutMs: 5_000,
    concurrency: 4,
    proxy: 'none',
    ...options,
  });
  clients.push(client);
  return { server, client };
}

describe('the read bound', () => {
  test('a 50 MB body is cut at the bound, not parsed, and the connection is dropped', async () => {
    const maxBodyBytes = 1024 * 1024;
    const { server, client } = await target('huge', { maxBodyBytes });
    const res = await client.listPets();
    expect(res.truncated).toBe(true);
    expect(res.text.length).toBe(maxBodyBytes);
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toMatch(/^not parsed: longer than/);
    await expect.poll(() => server.seen.bodies[0]?.sent ?? 0).toBeGreaterThan(0);
    expect(server.seen.bodies[0]?.complete).toBe(false);
    expect(server.seen.bodies[0]?.sent).toBeLessThan(20 * 2 ** 20);
  });
});

describe('abort()', () => {
  const expectInterrupted = async (pending: Promise<unknown>) => {
    const err = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TransportError);
    expect((err as Error).message).toBe(INTERRUPTED);
  };

  test('ends requests in flight, queued for the pool, and sent later, at once', async () => {
    const { client, server } = await target('silent', { concurrency: 1, timeoutMs: 60_000 });
    const started = performance.now();
    const inFlight = client.listPets();
    const queued = client.listPets();
    // Wait until the first request really is in flight (no sleep: a loaded machine is slow).
    await expect.poll(() => server.seen.requests).toBe(1);
    client.abort();
    await expectInterrupted(inFlight);
    await expectInterrupted(queued);
    await expectInterrupted(client.getPet(1));
    // Well before the 60 s timeout would have ended the request in flight: abort() did it.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(client.aborted).toBe(true);
  });

  test('ends a wait for Retry-After', async () => {
    // A 30 s wait: abort() ending it is told apart from the wait running out on a slow machine too.
    const { client } = await target(
      (_req, res) => {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
        res.end('{"code":"rate_limited","message":"slow down","status":429}');
      },
      { retries: 5 },
    );
    const waiting = client.listPets();
    // Wait until the client is waiting out the Retry-After (counted just before it sleeps).
    await expect.poll(() => client.retried.count).toBe(1);
    const aborted = performance.now();
    client.abort();
    await expectInterrupted(waiting);
    expect(performance.now() - aborted).toBeLessThan(15_000); // Retry-After asked for 30 s
  });
});
