// Connections opened ahead of need for the requests that go first on a connection of their own
// (every request that may create: see OwnConnections in client-setup.ts). On a network far away
// each new connection pays its handshakes (TCP, then TLS) before its first byte; opened ahead,
// while other requests are in flight, a POST finds one ready and pays only its own round trip.
// A connection waits at most WARM_MS after its handshakes and carries nothing before its request,
// so the request is still the first on its connection: servers' timeouts for a first request are
// seconds (idle timeouts start after one), and no POST is lost or sent twice. A server that closes
// one while it waits all the same shortens the wait to half the time it lived. How many wait grows
// with the misses and shrinks with the ones that waited in vain.
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';

/** How long a connection waits for its request once open, at most, before it is closed. */
export const WARM_MS = 250;

interface Waiting {
  socket: Socket;
  timer: NodeJS.Timeout;
  forget: () => void;
}

/** Counts of the connections a client opened, for the run's report. */
export interface Opened {
  /** Every new connection to the target (or its proxy). */
  count: number;
  /** Of them, opened ahead of a request that may create and closed unused. */
  unused: number;
}

export class WarmConnections {
  private readonly ready = new Map<string, Waiting[]>();
  /** Connections being opened ahead, per origin. */
  private readonly opening = new Map<string, number>();
  /** How many should wait, per origin: one more after each miss, one fewer after each that waited in vain. */
  private readonly wanted = new Map<string, number>();
  /** How long a connection may wait, per origin: WARM_MS, or less once the other side closed one that waited. */
  private readonly waitMs = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly connect: buildConnector.connector,
    private readonly most: number,
    private readonly opened: Opened,
  ) {}

  /** A connector handing out a connection opened ahead when one waits, a new one otherwise; then one more is opened ahead. */
  readonly connector: buildConnector.connector = (options, callback) => {
    const origin = `${options.protocol}//${options.hostname}:${options.port}`;
    const waiting = this.take(origin);
    if (waiting) {
      // Handed over after the connector returns, as a new connection is: undici marks the client
      // connecting only once its connector has returned.
      queueMicrotask(() => callback(null, waiting));
    } else {
      this.wanted.set(origin, Math.min(this.most, (this.wanted.get(origin) ?? 0) + 1));
      this.opened.count++;
      this.connect(options, callback);
    }
    // Then the next one ahead: after this request's own, which must not wait behind it.
    this.fill(origin, options);
  };

  /** A waiting connection still fit to carry a first request: open, nothing read, young. */
  private take(origin: string): Socket | undefined {
    const list = this.ready.get(origin) ?? [];
    for (let w = list.shift(); w; w = list.shift()) {
      clearTimeout(w.timer);
      w.forget();
      const s = w.socket;
      if (!s.destroyed && s.writable && s.readableLength === 0 && !s.readableEnded) return s;
      s.destroy();
    }
    return undefined;
  }

  private fill(origin: string, options: buildConnector.Options): void {
    const have = (this.ready.get(origin)?.length ?? 0) + (this.opening.get(origin) ?? 0);
    for (let n = have; n < (this.wanted.get(origin) ?? 0) && !this.closed; n++) {
      this.opening.set(origin, (this.opening.get(origin) ?? 0) + 1);
      this.opened.count++;
      const began = performance.now();
      this.connect(options, (err, socket) => {
        this.opening.set(origin, (this.opening.get(origin) ?? 1) - 1);
        // A connection that could not be opened ahead is no answer to anything: the request that
        // needs one opens its own, and says why if that fails too.
        if (err || !socket) return;
        if (this.closed) return void socket.destroy();
        this.keep(origin, socket, began);
      });
    }
  }

  private keep(origin: string, socket: Socket, began: number): void {
    const list = this.ready.get(origin) ?? [];
    this.ready.set(origin, list);
    const closedByPeer = () => {
      // Closed by the other side while it waited: never again wait half as long as it lived.
      const lived = performance.now() - began;
      this.waitMs.set(origin, Math.min(this.waitMs.get(origin) ?? WARM_MS, lived / 2));
      drop();
    };
    const drop = () => {
      const at = list.indexOf(waiting);
      if (at >= 0) list.splice(at, 1);
      clearTimeout(waiting.timer);
      waiting.forget();
      this.opened.unused++;
      socket.destroy();
    };
    // Only close and error are listened to: a data or readable listener would start the socket
    // reading, and undici reads it itself (readable, then read()).
    socket.on('close', closedByPeer).on('error', closedByPeer);
    const waiting: Waiting = {
      socket,
      timer: setTimeout(
        () => {
          this.wanted.set(origin, Math.max(0, (this.wanted.get(origin) ?? 1) - 1));
          drop();
        },
        this.waitMs.get(origin) ?? WARM_MS,
      ),
      forget: () => socket.off('close', closedByPeer).off('error', closedByPeer),
    };
    waiting.timer.unref();
    list.push(waiting);
  }

  /** Closes every waiting connection; none is opened ahead from now on. */
  close(): void {
    this.closed = true;
    for (const list of this.ready.values())
      for (const w of list.splice(0)) {
        clearTimeout(w.timer);
        w.forget();
        this.opened.unused++;
        w.socket.destroy();
      }
  }
}
