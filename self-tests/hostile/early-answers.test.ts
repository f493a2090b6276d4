// The client against servers that answer before the body is all written, or close under it (see
// refusal-servers.ts): the early answer is read though the write then fails, a close without an
// answer under a body over 1 MiB is an UploadRefused (its HAR entry says so), under a small body
// an ordinary TransportError, and a reset of a fresh connection is not taken for a stale one.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { Client } from '../../src/wire/client.js';
import { harEntry, REFUSED_UPLOAD } from '../../src/wire/har.js';
import { createReferenceHandler } from '../../src/reference-server/handler.js';
import { TransportError, UploadRefused, type SendRecord } from '../../src/wire/requests.js';
import { refusalServer, type Refusal } from './refusal-servers.js';

const API_KEY = 'early-answers-key';
const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

const LARGE = JSON.stringify({ name: 'large', categoryId: 1 }).padEnd(5 * 1024 * 1024, ' ');

async function setUp(refusal: Refusal, onSend?: (send: SendRecord) => number | undefined) {
  const server = await refusalServer(createReferenceHandler({ apiKey: API_KEY }), refusal);
  const api = new Client({
    baseUrl: `${server.origin}/v1`,
    apiKey: API_KEY,
    timeoutMs: 10_000,
    concurrency: 4,
    proxy: 'none',
    ...(onSend ? { onSend } : {}),
  });
  closers.push(server, api);
  return { server, api };
}

const postLarge = (api: Client) => api.send({ method: 'POST', path: '/pets', body: { raw: LARGE } });

test('an early 413 is read and returned, though the server resets the connection under the upload', async () => {
  const { server, api } = await setUp({ kind: 'early-413' });
  const answers = await Promise.all(Array.from({ length: 12 }, () => postLarge(api)));
  expect(answers.map((r) => `${r.status} ${(r.json as { status?: number }).status}`)).toEqual(
    Array(12).fill('413 413'),
  );
  expect(server.seen.refused).toBe(12);
});

test('an early 400 on a connection that reads on is read, and the connection serves on', async () => {
  const { api } = await setUp({ kind: 'early-400' });
  expect((await postLarge(api)).status).toBe(400);
  expect((await api.createPet({ name: 'after', categoryId: 1 })).status).toBe(201);
});

test('a reset without an answer under a body over 1 MiB is an UploadRefused, and its HAR entry says so', async () => {
  const sends: SendRecord[] = [];
  const { api } = await setUp({ kind: 'reset-large' }, (send) => sends.push(send) - 1);
  const err = await postLarge(api).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UploadRefused);
  expect((err as Error).message).toMatch(/during the upload of a 5 MiB body, without an answer/);
  expect(sends).toHaveLength(1);
  expect(
    harEntry(sends[0] as SendRecord, { requirement: 'errors.refused-body', check: 'errors.refused-body' }).response,
  ).toMatchObject({
    status: 0,
    comment: REFUSED_UPLOAD,
  });
});

test('a small body closed without an answer stays a TransportError; a fresh connection reset is not sent again', async () => {
  // Connections that carried a request (one may be opened ahead for the next POST, and carry none).
  let carried = 0;
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    s.once('data', () => {
      carried++;
      s.resetAndDestroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push({ close: () => new Promise<void>((done) => server.close(() => done())) });
  const api = new Client({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    apiKey: API_KEY,
    timeoutMs: 5_000,
    concurrency: 1,
    proxy: 'none',
  });
  closers.push(api);
  const post = await api.createPet({ name: 'small', categoryId: 1 }).catch((e: unknown) => e);
  expect(post).toBeInstanceOf(TransportError);
  expect(post).not.toBeInstanceOf(UploadRefused);
  expect((post as Error).message).not.toMatch(/reused/);
  const get = await api.listPets().catch((e: unknown) => e);
  expect(get).toBeInstanceOf(TransportError);
  expect(carried).toBe(2); // one each: the GET, on a connection that had read nothing, was not resent
});
