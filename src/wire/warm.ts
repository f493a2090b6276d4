// Connections opened ahead of need for the requests that go first on a connection of their own
// (a request that may create and finds no kept one: see OwnConnections in own-connections.ts). On a network far away
// each new connection pays its handshakes (TCP, then TLS) before its first byte; opened ahead,
// while other requests are in flight, a POST finds one ready and pays only its own round trip.
// A connection waits at most WARM_MS after its handshakes and carries nothing before its request,
// so the request is still the first on its connection: servers' timeouts for a first request are
// seconds (idle timeouts start after one), and no POST is lost or sent twice. A server that closes
// one while it waits all the same shortens the wait to half the time it lived. How many wait grows
// with the misses and shrinks with the ones that waited in vain. Connections go to the requests in
// the order they asked for one, whichever opened first: a request never overtakes an earlier one,
// so the order in which a run's creates reach the server stays the order they were sent in.
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';

/** How long a connection waits for its request once open, at most, before it is closed. */
export const WARM_MS = 250;
/**
 * Connections are opened ahead only where opening one costs this much: the fastest of the last
 * SAMPLES did. On loopback a handshake is free: there each request opens one as it asks (going,
 * like every connection, to the oldest request still asking).
 */
export const WORTH_MS = 5;
const SAMPLES = 4;
/** A target on this machine, by its name: nothing is opened ahead of it, nor queued (see the connector). */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i;

interface Waiting {
  socket: Socket;
  timer: NodeJS.Timeout;
  forget: () => void;
}

/** Counts of the connections a client opened, for the run's report. */
export interface Opened {
  /** Every new connection to the target (counted only when the client reaches it directly). */
  count: number;
  /** Of them, opened ahead of a request that may create and closed unused. */
  unused: number;
}

/** One origin's connections: those waiting, those opening, the requests asking. */
interface Origin {
  ready: Waiting[];
  /** Requests waiting for a connection, oldest first: a connection that opens goes to the oldest. */
  asking: buildConnector.Callback[];
  opening: number;
  /** How many should wait: one more after each miss, one fewer after each that waited in vain. */
  wanted: number;
  /** How long one may wait: WARM_MS, or less once the other side closed one that waited. */
  waitMs: number;
  /** How long the last SAMPLES connections took to open, in ms. */
  took: number[];
}

export class WarmConnections {
  private readonly origins = new Map<string, Origin>();
  private closed = false;

  constructor(
    private readonly connect: buildConnector.connector,
    private readonly most: number,
    private readonly opened: Opened,
    /** Whether a host is this machine (its self-tests serve on loopback and say no). */
    readonly onThisMachine = (host: string) => LOOPBACK.test(host),
  ) {}

  /** A connector handing out the connections opened ahead, new ones when none waits, in the order asked. */
  readonly connector: buildConnector.connector = (options, callback) => {
    // On this machine a handshake is free: each request opens its own as it asks, as it always did.
    if (this.onThisMachine(options.hostname)) {
      this.opened.count++;
      return this.connect(options, callback);
    }
    const key = `${options.protocol}//${options.hostname}:${options.port}`;
    let o = this.origins.get(key);
    if (!o) this.origins.set(key, (o = { ready: [], asking: [], opening: 0, wanted: 0, waitMs: WARM_MS, took: [] }));
    o.asking.push(callback);
    const socket = this.take(o);
    if (socket) {
      const oldest = o.asking.shift() as buildConnector.Callback;
      // Handed over after the connector returns, as a new connection is: undici marks the client
      // connecting only once its connector has returned.
      queueMicrotask(() => oldest(null, socket));
    } else if (o.took.length === SAMPLES && Math.min(...o.took) >= WORTH_MS) {
      o.wanted = Math.min(this.most, o.wanted + 1);
    }
    this.fill(o, options);
  };

  /** A new connection, its opening time kept. */
  private timed(o: Origin, options: buildConnector.Options, callback: buildConnector.Callback): void {
    const began = performance.now();
    this.connect(options, (...args) => {
      if (o.took.push(performance.now() - began) > SAMPLES) o.took.shift();
      callback(...args);
    });
  }

  /** A waiting connection still fit to carry a first request: open, nothing read, young. */
  private take(o: Origin): Socket | undefined {
    for (let w = o.ready.shift(); w; w = o.ready.shift()) {
      clearTimeout(w.timer);
      w.forget();
      const s = w.socket;
      if (!s.destroyed && s.writable && s.readableLength === 0 && !s.readableEnded) return s;
      s.destroy();
    }
    return undefined;
  }

  /** Opens what the asking requests and the wanted ones need, beyond those waiting or opening. */
  private fill(o: Origin, options: buildConnector.Options): void {
    for (let have = o.ready.length + o.opening; have < o.asking.length + o.wanted && !this.closed; have++) {
      o.opening++;
      this.opened.count++;
      const began = performance.now();
      this.timed(o, options, (err, socket) => {
        o.opening--;
        if (err || !socket) {
          // A failure is the oldest request's once no connection still opening could serve it.
          if (o.asking.length > o.opening) o.asking.shift()?.(err ?? new Error('no connection'), null);
          return;
        }
        const oldest = o.asking.shift();
        if (oldest) return oldest(null, socket);
        if (this.closed) return void socket.destroy();
        this.keep(o, socket, began);
      });
    }
  }

  private keep(o: Origin, socket: Socket, began: number): void {
    const closedByPeer = () => {
      // Closed by the other side while it waited: never again wait half as long as it lived.
      o.waitMs = Math.min(o.waitMs, (performance.now() - began) / 2);
      drop();
    };
    const drop = () => {
      const at = o.ready.indexOf(waiting);
      if (at >= 0) o.ready.splice(at, 1);
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
      timer: setTimeout(() => {
        o.wanted = Math.max(0, o.wanted - 1);
        drop();
      }, o.waitMs),
      forget: () => socket.off('close', closedByPeer).off('error', closedByPeer),
    };
    waiting.timer.unref();
    o.ready.push(waiting);
  }

  /** Closes every waiting connection; none is opened ahead from now on. */
  close(): void {
    this.closed = true;
    for (const o of this.origins.values())
      for (const w of o.ready.splice(0)) {
        clearTimeout(w.timer);
        w.forget();
        this.opened.unused++;
        w.socket.destroy();
      }
  }
}
