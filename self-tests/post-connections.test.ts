// Where a request that may create goes: on a kept-alive connection only where the server cannot
// close it underneath (it says keep-alive, and the client drops POST connections after 0.5 s idle,
// before any common server does), else on a connection of its own. Never sent twice either way.
import { afterEach, expect, test } from 'vitest';
import { Client } from '../src/client.js';
import { createReferenceHandler } from '../src/reference-server/handler.js';
import { keepAliveServer } from './infra-servers.js';

const API_KEY = 'post-connections-key';
const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

async function setUp(close: Parameters<typeof keepAliveServer>[1]) {
  const server = await keepAliveServer(createReferenceHandler({ apiKey: API_KEY }), close);
  const api = new Client({ baseUrl: `${server.origin}/v1`, apiKey: API_KEY, timeoutMs: 5_000, concurrency: 1, proxy: 'none' });
  closers.push(server, api);
  return { server, api };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a server that says keep-alive: POSTs share a connection; after an idle second (the server closing it) a POST is not lost', async () => {
  const { server, api } = await setUp({ idleMs: 1_000, finLagMs: 150, saysKeepAlive: true });
  // The first goes on a connection of its own (nothing is known yet); its answer says keep-alive.
  for (let i = 0; i < 6; i++) expect((await api.createPet({ name: `kept ${i}`, categoryId: 1 })).status).toBe(201);
  expect(server.seen.connections).toBe(2); // not a connect per POST
  await pause(1_050); // the server is closing the idle connection; its FIN is still on the way
  const post = await api.createPet({ name: 'after a gap', categoryId: 1 });
  expect(post.status).toBe(201);
  expect(post.resent).toBeUndefined();
  expect(server.seen.lost).toBe(0);
  expect(server.answered.filter((r) => r.startsWith('POST'))).toHaveLength(7);
});

test('a server that never says keep-alive: each POST has a connection of its own', async () => {
  const { server, api } = await setUp({ afterEach: true, finLagMs: 5 });
  expect((await api.listPets()).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await api.createPet({ name: `own ${i}`, categoryId: 1 })).status).toBe(201);
  expect(server.seen.lost).toBe(0);
  expect(server.seen.connections).toBeGreaterThanOrEqual(4);
});
