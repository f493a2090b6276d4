// Where a request that may create goes (and a GET sent again): a connection of its own, or one the
// server has just promised to keep open. A server may close a kept-alive connection at any moment
// (RFC 9112 §9.6), and a POST that meets such a close is lost: it is never sent twice. So a POST
// goes on a kept connection only where the server's last answer on it said how long it keeps one
// (`Keep-Alive: timeout=N`, N >= PROMISE_MIN_S) and did not take it back: no `Connection: close`,
// no `max` spent, no 5xx (a failing server may be going down), no 4xx to an upload it may have
// answered before reading it whole (servers close those). And the connection has been idle under
// FRESH_FRACTION of N since: far inside the server's own promise. A server that promises nothing
// (tinyproxy, nginx) gets a new connection per request, its request the first on it, as before.
import { Client, Dispatcher } from './undici.js';
import type { WarmConnections } from './warm.js';

/** The shortest `Keep-Alive: timeout` (seconds) a POST's connection is kept for. */
export const PROMISE_MIN_S = 2;
/** Of the promised timeout, how long a connection may have been idle to carry a POST. */
export const FRESH_FRACTION = 0.25;

/** Request bodies up to this many characters go in one write: a 4xx to one is no early answer. */
const ONE_WRITE = 16 * 1024;

/**
 * The server's promise in an answer to a request with `body`: how long (ms) it keeps the
 * connection open idle, if it made one and kept it (see above); 0 otherwise.
 */
export function promisedIdleMs(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
): number {
  const one = (name: string) => [headers[name] ?? []].flat().join(',').toLowerCase();
  const whole = body == null || (typeof body === 'string' && body.length <= ONE_WRITE);
  if (status >= 500 || (status >= 400 && !whole) || /(^|[\s,])close([\s,]|$)/.test(one('connection'))) return 0;
  const hint = one('keep-alive');
  const timeout = Number(/(?:^|[\s,])timeout=(\d+)/.exec(hint)?.[1] ?? 0);
  const max = /(?:^|[\s,])max=(\d+)/.exec(hint)?.[1];
  if (timeout < PROMISE_MIN_S || (max !== undefined && Number(max) < 2)) return 0;
  return timeout * 1000;
}

/** What ends a connection: one error, made once (see end). */
const DONE = new Error('closed by the client: its answer was read, and the connection is not kept');

interface Kept {
  client: Client;
  /** Until when (performance.now()) it may carry a request that may create. */
  freshUntil: number;
}

/**
 * A connection of its own per request, or for one that may create, a kept one still fresh (see
 * above). undici's `pipelining: 0` would ask the server to close each (Connection: close), at more
 * than twice the processor time per request (2.4 times on loopback, measured).
 */
export class OwnConnections extends Dispatcher {
  /** Every connection not yet ended, for close() to wait on. */
  private readonly open = new Set<Client>();
  /** Kept connections, idle, the latest kept last. */
  private readonly idle: Kept[] = [];
  /** Connections whose socket closed while their request was on its way: not kept after it. */
  private readonly closedUnder = new WeakSet<Client>();
  private closing = false;

  constructor(
    private readonly warm: WarmConnections,
    private readonly options: Client.Options,
  ) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    // A GET comes here only to be sent again after a kept connection failed it: on a new one.
    const creates = opts.method !== 'GET' && opts.method !== 'HEAD';
    const client = (creates && this.take(performance.now())) || this.connection(opts.origin);
    let promisedMs = 0;
    const done = (keep: boolean) => {
      if (keep && promisedMs > 0 && !this.closing && !this.closedUnder.delete(client))
        this.idle.push({ client, freshUntil: performance.now() + promisedMs * FRESH_FRACTION });
      else this.end(client);
    };
    return client.dispatch(opts, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, status, headers, socket) =>
        handler.onRequestUpgrade?.(controller, status, headers, socket),
      onResponseStart: (controller, status, headers, message) => {
        promisedMs = creates ? promisedIdleMs(status, headers, opts.body) : 0;
        handler.onResponseStart?.(controller, status, headers, message);
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => {
        handler.onResponseEnd?.(controller, trailers);
        done(true);
      },
      onResponseError: (controller, err) => {
        handler.onResponseError?.(controller, err);
        done(false);
      },
    });
  }

  /** The latest kept connection still fresh; older ones are ended (never used again once past fresh). */
  private take(now: number): Client | undefined {
    for (let kept = this.idle.pop(); kept; kept = this.idle.pop()) {
      if (kept.freshUntil > now) return kept.client;
      this.end(kept.client);
    }
    return undefined;
  }

  /** A new connection (opened ahead, when worth it: see WarmConnections). */
  private connection(origin: Dispatcher.DispatchOptions['origin']): Client {
    const client = new Client(origin ?? '', { ...this.options, connect: this.warm.connector });
    this.open.add(client);
    // Closed by the server while kept: never used again (undici would open another in its place).
    // One whose request is on its way fails as undici says, and is not kept after it.
    client.on('disconnect', () => {
      const at = this.idle.findIndex((k) => k.client === client);
      if (at === -1) this.closedUnder.add(client);
      else this.end((this.idle.splice(at, 1)[0] as Kept).client);
    });
    return client;
  }

  private end(client: Client): void {
    if (!this.open.delete(client)) return;
    // Destroyed with one error made once: close() makes a new one per connection, and the socket
    // reads its stack trace (some 3% of a run's processor time).
    void client.destroy(DONE).catch(() => undefined);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.closing = true;
    this.warm.close();
    for (const kept of this.idle.splice(0)) this.end(kept.client);
    // Those still answering end with their answer (done, while closing, keeps none).
    const done = Promise.all([...this.open].map((c) => c.close().catch(() => undefined))).then(() => undefined);
    if (!callback) return done;
    void done.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    this.closing = true;
    this.warm.close();
    this.idle.length = 0;
    const all = [...this.open];
    this.open.clear();
    const done = Promise.all(all.map((c) => c.destroy(err).catch(() => undefined))).then(() => undefined);
    if (!callback) return done;
    void done.then(callback);
  }
}
