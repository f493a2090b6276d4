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

test('a server that says keep-alive: POSTs share a connection, dropped after 0.5 s idle, before the server (1 s) could close it under one', async () => {
  const { server, api } = await setUp({ idleMs: 1_000, finLagMs: 150, saysKeepAlive: true });
  expect((await api.listPets()).status).toBe(200); // the answer says keep-alive
  for (let i = 0; i < 5; i++) expect((await api.createPet({ name: `kept ${i}`, categoryId: 1 })).status).toBe(201);
  expect(server.seen.connections).toBe(2); // the GET's and one for the five POSTs: no connect per POST
  await pause(700);
  const post = await api.createPet({ name: 'after a gap', categoryId: 1 });
  expect(post.status).toBe(201);
  expect(server.seen.connections).toBe(3); // the idle POST connection was dropped by the client
  expect(server.seen.lost).toBe(0);
  expect(server.answered.filter((r) => r.startsWith('POST'))).toHaveLength(6);
});

test('a server that never says keep-alive: each POST has a connection of its own', async () => {
  const { server, api } = await setUp({ afterEach: true, finLagMs: 5 });
  expect((await api.listPets()).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await api.createPet({ name: `own ${i}`, categoryId: 1 })).status).toBe(201);
  expect(server.seen.lost).toBe(0);
  expect(server.seen.connections).toBeGreaterThanOrEqual(4);
});
