// A network far away, on loopback: a TCP proxy that delays every chunk half a round trip each way,
// and holds a new connection's first bytes until its TCP handshake would be over (one round trip
// after it was opened). TLS, when the server behind it speaks it, pays its own round trip through
// the delays, as on a real network. It counts the connections opened.
import { connect, createServer, type Socket } from 'node:net';

export interface DelayProxy {
  /** The proxy's origin, in the scheme of the server behind it. */
  origin: string;
  /** Connections opened to it so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Chunks from `from` written to `to` `delayMs` after they came, not before `notBefore`, in order. */
function delayed(from: Socket, to: Socket, delayMs: number, notBefore: number): void {
  // One queue per direction, drained in order by one timer: timers of different durations may
  // fire out of the order they were set in, and a socket's bytes must keep theirs.
  const queue: { at: number; act: () => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const drain = () => {
    timer = undefined;
    while (queue.length > 0 && (queue[0] as { at: number }).at <= performance.now()) queue.shift()?.act();
    if (queue.length > 0) timer = setTimeout(drain, Math.max(0, (queue[0] as { at: number }).at - performance.now()));
  };
  const later = (act: () => void) => {
    queue.push({ at: Math.max(performance.now(), notBefore) + delayMs, act });
    timer ??= setTimeout(drain, Math.max(0, (queue[0] as { at: number }).at - performance.now()));
  };
  from.on('data', (chunk: Buffer) => later(() => to.destroyed || to.write(chunk)));
  from.on('end', () => later(() => to.end()));
  from.on('error', () => later(() => to.destroy()));
  from.on('close', () => later(() => to.destroy()));
}

/** A proxy to `upstream` (an origin) with `rttMs` round trips, listening on `host`. */
export async function delayProxy(upstream: string, rttMs: number, host = '127.0.0.1'): Promise<DelayProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  let opened = 0;
  const server = createServer((client) => {
    opened++;
    // The TCP handshake: the client may send once it is over, a round trip after it began.
    const handshaken = performance.now() + rttMs;
    const server = connect(Number(target.port), target.hostname);
    for (const s of [client, server]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
    }
    delayed(client, server, rttMs / 2, handshaken);
    delayed(server, client, rttMs / 2, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `${target.protocol}//${host}:${port}`,
    connections: () => opened,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
