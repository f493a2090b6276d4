// Where a request that may create goes: on a connection of its own, the first request on it,
// which no close of a kept-alive connection can meet (a server may close one at any moment: after
// an error answer, near its idle timeout, or as it pleases); or on one the server has just
// promised to keep open (Keep-Alive: timeout=N), well inside that promise. Never sent twice.
import { afterEach, expect, test } from 'vitest';
import { Client } from '../../src/wire/client.js';
import { FRESH_FRACTION, promisedIdleMs } from '../../src/wire/own-connections.js';
import { createReferenceHandler } from '../../src/reference-server/handler.js';
import { keepAliveServer } from './infra-servers.js';

const API_KEY = 'post-connections-key';
const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

async function setUp(close: Parameters<typeof keepAliveServer>[1], onThisMachine = false) {
  const server = await keepAliveServer(createReferenceHandler({ apiKey: API_KEY }), close);
  const api = new Client({
    baseUrl: `${server.origin}/v1`,
    apiKey: API_KEY,
    timeoutMs: 5_000,
    concurrency: 1,
    proxy: 'none',
    // Unless said, as for a target far away: connections are opened ahead of need (see WarmConnections).
    onThisMachine: () => onThisMachine,
  });
  closers.push(server, api);
  return { server, api };
}

test('a server that says keep-alive: each POST still has a connection of its own, and GETs share theirs', async () => {
  // Idle closes far off: the GETs' connection outlives five POSTs on a machine of any speed.
  const { server, api } = await setUp({ idleMs: 60_000, saysKeepAlive: true });
  expect((await api.listPets()).status).toBe(200); // the answer says keep-alive
  for (let i = 0; i < 5; i++) expect((await api.createPet({ name: `own ${i}`, categoryId: 1 })).status).toBe(201);
  expect((await api.listPets()).status).toBe(200);
  // The GETs' one, one per POST, and any opened ahead for a POST still waiting, unused.
  const used = server.seen.carried.filter((requests) => requests.length > 0);
  expect(used.map((requests) => requests.map((r) => r.split(' ')[0]).join())).toEqual([
    'GET,GET',
    ...Array<string>(5).fill('POST'),
  ]);
  expect(server.seen.lost).toBe(0);
  expect(server.answered.filter((r) => r.startsWith('POST'))).toHaveLength(5);
});

test('a server that closes kept-alive connections near its idle timeout loses no POST', async () => {
  const { server, api } = await setUp({ idleMs: 300, finLagMs: 150, saysKeepAlive: true });
  for (let i = 0; i < 4; i++) {
    expect((await api.listPets()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 310)); // the server is closing the idle connection; its FIN is on the way
    const post = await api.createPet({ name: `near the timeout ${i}`, categoryId: 1 });
    expect(post.status).toBe(201);
    expect(post.resent).toBeUndefined();
  }
  expect(server.answered.filter((r) => r.startsWith('POST'))).toHaveLength(4);
});

test('a server that never says keep-alive: each POST has a connection of its own', async () => {
  const { server, api } = await setUp({ afterEach: true, finLagMs: 5 });
  expect((await api.listPets()).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await api.createPet({ name: `own ${i}`, categoryId: 1 })).status).toBe(201);
  expect(server.seen.lost).toBe(0);
  expect(server.seen.connections).toBeGreaterThanOrEqual(4);
});

test('a server that promises Keep-Alive: timeout=N: POSTs share a kept connection while it is fresh, each sent once', async () => {
  const { server, api } = await setUp({ idleMs: 60_000, promises: 'timeout=5' });
  expect((await api.listPets()).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await api.createPet({ name: `kept ${i}`, categoryId: 1 })).status).toBe(201);
  // A 400 to a small body is no early answer: its connection is kept too.
  expect((await api.createPet({ name: 'kept', categoryId: 1, status: 'lost' } as never)).status).toBe(400);
  expect((await api.createPet({ name: 'kept 3', categoryId: 1 })).status).toBe(201);
  const used = server.seen.carried.filter((requests) => requests.length > 0);
  expect(used.map((requests) => requests.map((r) => r.split(' ')[0]).join())).toEqual([
    'GET',
    'POST,POST,POST,POST,POST',
  ]);
  expect(server.answered.filter((r) => r.startsWith('POST'))).toHaveLength(5);
});

test('a kept connection idle past FRESH_FRACTION of the promise carries no POST: a new one does', async () => {
  // timeout=2: fresh for 500 ms; the server itself closes only after a minute idle.
  const { server, api } = await setUp({ idleMs: 60_000, promises: 'timeout=2' });
  expect((await api.createPet({ name: 'first', categoryId: 1 })).status).toBe(201);
  await new Promise((r) => setTimeout(r, 2_000 * FRESH_FRACTION + 100));
  expect((await api.createPet({ name: 'after the idle', categoryId: 1 })).status).toBe(201);
  const used = server.seen.carried.filter((requests) => requests.length > 0);
  expect(used.map((requests) => requests.length)).toEqual([1, 1]);
});

test('what takes the promise back: a POST after such an answer goes on a new connection', () => {
  const promise = { 'keep-alive': 'timeout=5' };
  expect(promisedIdleMs(201, promise, '{}')).toBe(5_000);
  expect(promisedIdleMs(400, promise, '{}')).toBe(5_000);
  expect(promisedIdleMs(201, { 'keep-alive': 'timeout=5, max=100' }, '{}')).toBe(5_000);
  // An answer that promises nothing, or takes it back.
  expect(promisedIdleMs(201, {}, '{}')).toBe(0);
  expect(promisedIdleMs(201, { connection: 'keep-alive' }, '{}')).toBe(0);
  expect(promisedIdleMs(201, { ...promise, connection: 'close' }, '{}')).toBe(0);
  expect(promisedIdleMs(201, { 'keep-alive': 'timeout=5, max=1' }, '{}')).toBe(0);
  expect(promisedIdleMs(201, { 'keep-alive': 'timeout=1' }, '{}')).toBe(0);
  // A 5xx (a server going down), and a 4xx to an upload it may have answered before reading it whole.
  expect(promisedIdleMs(503, promise, '{}')).toBe(0);
  expect(promisedIdleMs(413, promise, 'x'.repeat(1 << 20))).toBe(0);
});

test('a target on this machine: POSTs share a connection it promised to keep, as far away', async () => {
  const { server, api } = await setUp({ idleMs: 60_000, promises: 'timeout=5' }, true);
  for (let i = 0; i < 3; i++) expect((await api.createPet({ name: `near ${i}`, categoryId: 1 })).status).toBe(201);
  const used = server.seen.carried.filter((requests) => requests.length > 0);
  expect(used.map((requests) => requests.length)).toEqual([3]);
  expect(server.seen.connections).toBe(1);
});
