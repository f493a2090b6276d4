// Connections opened ahead for the requests that go first on a connection of their own
// (src/wire/warm.ts): one is handed out when it waits, still fit to carry a first request; one
// the other side closed, or that waited too long, never is.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { buildConnector } from 'undici';
import { WARM_MS, WarmConnections, WORTH_MS, type Opened } from '../../src/wire/warm.js';

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
};

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** A server that keeps each connection it accepts, closing it on `closeAfterMs` when given. */
async function listening(closeAfterMs?: number): Promise<{ options: buildConnector.Options; accepted: Socket[] }> {
  const accepted: Socket[] = [];
  const server = createServer((socket) => {
    accepted.push(socket);
    socket.on('error', () => {});
    if (closeAfterMs !== undefined) setTimeout(() => socket.destroy(), closeAfterMs);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { options: { hostname: '127.0.0.1', protocol: 'http:', port: String(port) }, accepted };
}

const connected = (warm: WarmConnections, options: buildConnector.Options) =>
  new Promise<Socket>((resolve, reject) =>
    warm.connector(options, (err, s) => (err ? reject(err) : resolve(s as Socket))),
  );

/**
 * Connections that take WORTH_MS and more to open, as far away; the first few each open their own
 * (as on loopback), to learn it, and then it opens ahead. `opened` and `accepted` count from then on.
 */
async function warmFor(options: buildConnector.Options, accepted: Socket[]) {
  const connect = buildConnector({});
  const slow: buildConnector.connector = (opts, cb) => void setTimeout(() => connect(opts, cb), WORTH_MS * 2);
  const opened: Opened = { count: 0, unused: 0 };
  const warm = new WarmConnections(slow, 4, opened, () => false); // as if far away
  for (let i = 0; i < 4; i++) (await connected(warm, options)).destroy();
  await until(() => accepted.length === 4);
  expect(opened).toEqual({ count: 4, unused: 0 }); // each its own, none ahead
  accepted.splice(0);
  Object.assign(opened, { count: 0, unused: 0 });
  return { warm, opened };
}

test('a miss opens one more ahead; the next request gets it, and one more is opened ahead of it', async () => {
  const { options, accepted } = await listening();
  const { warm, opened } = await warmFor(options, accepted);
  const first = await connected(warm, options);
  await until(() => accepted.length === 2); // its own, and one ahead
  const second = await connected(warm, options);
  expect(second).not.toBe(first);
  expect(second.bytesWritten).toBe(0); // it carried nothing: its request is the first on it
  await until(() => accepted.length === 3);
  expect(opened).toEqual({ count: 3, unused: 0 });
  warm.close();
  expect(opened).toEqual({ count: 3, unused: 1 });
  [first, second].forEach((s) => s.destroy());
});

test('a connection that waited WARM_MS is closed unused, and is never handed out', async () => {
  const { options, accepted } = await listening();
  const { warm, opened } = await warmFor(options, accepted);
  const first = await connected(warm, options);
  await until(() => accepted.length === 2);
  const ahead = accepted[1] as Socket;
  const closed = new Promise((r) => ahead.on('close', r));
  await closed; // the client closed it after WARM_MS
  expect(opened.unused).toBe(1);
  const next = await connected(warm, options);
  expect(accepted.length).toBeGreaterThanOrEqual(3); // a new connection, not the closed one
  expect(next.destroyed).toBe(false);
  warm.close();
  [first, next].forEach((s) => s.destroy());
});

test('a connection the other side closes while it waits is never handed out, and later ones wait half as long as it lived', async () => {
  const lifeMs = WARM_MS / 5;
  const { options, accepted } = await listening(lifeMs);
  const { warm, opened } = await warmFor(options, accepted);
  const first = await connected(warm, options);
  await until(() => opened.unused === 1); // the one ahead, closed by the server after lifeMs
  const next = await connected(warm, options); // a miss: a connection of its own
  expect(next.destroyed).toBe(false);
  const began = performance.now();
  // The next ones ahead (two now: one more after a miss), closed by the client at half the life seen.
  await until(() => opened.unused >= 3);
  expect(performance.now() - began).toBeLessThan(WARM_MS);
  warm.close();
  [first, next].forEach((s) => s.destroy());
});

test.each([
  ['a target on this machine', undefined],
  ['a target whose connections open in no time', () => false],
] as const)('%s: none is opened ahead, each request opens its own as it asks', async (_what, onThisMachine) => {
  const { options, accepted } = await listening();
  const opened: Opened = { count: 0, unused: 0 };
  const warm = new WarmConnections(buildConnector({}), 4, opened, onThisMachine);
  for (let i = 0; i < 8; i++) (await connected(warm, options)).destroy();
  await new Promise((r) => setTimeout(r, 50)); // a connection opened ahead would have been accepted by now
  expect(accepted).toHaveLength(8);
  expect(opened).toEqual({ count: 8, unused: 0 });
  warm.close();
});
