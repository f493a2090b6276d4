// The one HTTP client every check goes through (undici; its connections in client-setup.ts). It never throws on a status code, enforces the
// timeout, bounds the bytes it reads, parses bodies losslessly; transport failures throw TransportError (the suite could not decide). Network
// realities: HTTP_PROXY / HTTPS_PROXY / NO_PROXY are honoured, HTTPS trusts the system CAs plus NODE_EXTRA_CA_CERTS, redirects are never followed
// (a 3xx is an answer like any other), and only 429 or 503 with Retry-After is retried, a bounded number of times, after pausing every request (see
// Pacer). A GET that meets a reused connection the other side had closed is sent again once on a fresh one; a request that may create is never sent
// twice, goes on a connection of its own or one the server just promised to keep (own-connections.ts; opened ahead: warm.ts), and takes its
// creation from the write budget first (ClientOptions.takeCreation).
// An answer sent before the body is all written is read (see earlyAnswerConnector).
import type { Dispatcher } from 'undici';
import {
  connectionsFor,
  DEFAULT_MAX_BODY,
  inPieces,
  mayCreate,
  nextTurn,
  prepareRequest,
  type ClientOptions,
  type RetryStats,
  type Settle,
  apiOf,
  type Api,
} from './client-setup.js';
import { Exchange, flattenHeaders } from './exchange.js';
import { Pacer, type Pacing } from './pacer.js';
import { Pool } from './pool.js';
import { registerSecret } from './redact.js';
import {
  blameProxy,
  describeTransportError,
  ExchangeFailure,
  isClose,
  isStaleClose,
  RequestTarget,
  type EnvProxy,
} from './transport.js';
import {
  INTERRUPTED,
  noRetries,
  readBody,
  REFUSABLE_UPLOAD_BYTES,
  RetriesExhausted,
  retryAfterMs,
  TransportError,
  UploadRefused,
  WriteBlocked,
  type ApiRequest,
  type ApiResponse,
  type SendRecord,
  type SentRequest,
} from './requests.js';
import type { Opened } from './warm.js';

export type { Api, ClientOptions, RetryStats } from './client-setup.js';

export class Client<S = unknown> implements Api {
  readonly baseUrl: string;
  /** Keep-alive connections, for GET and HEAD. */
  private readonly dispatcher: Dispatcher;
  /** For a GET sent again, a new connection; for a request that may create, a new one or one still fresh inside the server's Keep-Alive promise. */
  // A POST is never sent twice (RFC 9112 §9.3.1), nor on a connection the server may be closing (see OwnConnections).
  private readonly fresh: Dispatcher;
  private readonly pool: Pool;
  private readonly pacer: Pacer;
  /** The proxy the environment names for the target's scheme, to name it when it fails. */
  private readonly proxy: EnvProxy | undefined;
  /** Origin and path of each request's URL, as undici is handed them. */
  private readonly target: RequestTarget;
  /** The connections opened to the target, when direct. */
  readonly opened: Opened | undefined;
  requestCount = 0;
  readonly retried: RetryStats = { count: 0 };
  /** Aborted by abort(): every request in flight, waiting for a retry, or sent later, fails at once. */
  private readonly stopped = new AbortController();
  /** The exchanges in flight, for abort(). */
  private readonly inFlight = new Set<Exchange>();
  /** What each request in flight was stamped with, for the callbacks that run deep in its exchange. */
  private readonly stamps = new WeakMap<SentRequest, S>();
  readonly listPets: Api['listPets'];
  readonly createPet: Api['createPet'];
  readonly getPet: Api['getPet'];

  constructor(private readonly options: ClientOptions<S>) {
    ({ listPets: this.listPets, createPet: this.createPet, getPet: this.getPet } = apiOf((req) => this.send(req)));
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    ({
      pooled: this.dispatcher,
      fresh: this.fresh,
      proxy: this.proxy,
      opened: this.opened,
    } = connectionsFor(options, this.baseUrl));
    this.target = new RequestTarget(this.baseUrl);
    this.pool = new Pool(options.concurrency);
    this.pacer = new Pacer(options.rate, (options.retries ?? 0) + 1);
    registerSecret(options.apiKey);
  }

  /** How the client paced its requests: 429/503 answers, pauses, the pace it came down to. */
  get pacing(): Pacing {
    return this.pacer.stats();
  }

  /** This client, its requests stamped with `from`: every callback of theirs is handed it. */
  for(from: S): Api {
    return apiOf((req) => this.send(req, from));
  }

  send(req: ApiRequest, from?: S): Promise<ApiResponse> {
    // Not async: a request goes out in the same turn as it always has (the order of a run's
    // requests, and so the ids a server gives, stay what they were).
    try {
      if (this.options.readOnly && req.method !== 'GET' && req.method !== 'HEAD') {
        throw new WriteBlocked(`read-only mode: this check needs to send ${req.method} ${req.path}`);
      }
      // The write budget in one place: no request that may create is sent without its creation,
      // which comes back when the answer is not a 201 (with no answer, it may have created).
      const taken = mayCreate(req, this.options.apiKey) ? this.options.takeCreation?.(from) : undefined;
      return this.sendPaid(req, taken, from);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  private async sendPaid(req: ApiRequest, taken: Settle | Promise<Settle> | undefined, from?: S): Promise<ApiResponse> {
    const settle = taken instanceof Promise ? await taken : taken;
    const { url, headers, body, sent } = prepareRequest(req, this.baseUrl, this.options.apiKey, this.options.traceId);
    if (from !== undefined) this.stamps.set(sent, from);
    const retries = this.options.retries ?? 0;
    const maxWaitMs = this.maxWaitMs;
    const firstSentAt = performance.now();
    const retried = noRetries();
    const giveUp = (message: string, res: ApiResponse) => {
      this.options.onRetried?.(retried, from);
      return new RetriesExhausted(message, sent, res, retried);
    };
    try {
      for (let attempt = 0; ; attempt++) {
        // A retry goes ahead of requests not yet sent: it has waited its turn once already.
        const urgent = req.urgent || attempt > 0;
        const res = await this.pool.run(() => this.once(req.method, url, headers, body, sent, urgent), urgent);
        // The answer is read once the requests that took its slot are on the wire (see nextTurn).
        await nextTurn();
        readBody(res, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY);
        if (res.resent) retried.resent++;
        const waitMs = retryAfterMs(res);
        if (waitMs === undefined) {
          if (attempt > 0) res.retries = attempt;
          if (attempt > 0 || retried.resent > 0) {
            res.retried = retried;
            this.options.onRetried?.(retried, from);
          }
          this.options.onResponse?.(res, from);
          // Settled as the caller resumes (a turn on), where a check used to give it back itself.
          if (settle) queueMicrotask(() => settle(res.status === 201));
          return res;
        }
        retried.statuses[res.status] = (retried.statuses[res.status] ?? 0) + 1;
        const asked = `${res.status} with Retry-After: ${res.headers['retry-after']}`;
        if (waitMs > maxWaitMs) {
          throw giveUp(`${asked}, a longer wait than the ${maxWaitMs / 1000} s the suite honours`, res);
        }
        if (attempt >= retries) {
          this.pacer.gaveUp(firstSentAt);
          throw giveUp(
            retries === 0
              ? `${asked}, and retries are off (PETSTORE_RETRIES=0)`
              : `still ${asked} after ${retries} retries honouring it`,
            res,
          );
        }
        if (this.pacer.refusing) {
          throw giveUp(
            `${asked}, not retried: the server turns every request away (nothing accepted through ${retries + 1} of its waits)`,
            res,
          );
        }
        // No wait of its own: the pacer holds every request, this one too, until the wait is over.
        this.retried.count++;
        retried.count++;
        retried.retryAfterMs += waitMs;
      }
    } catch (err) {
      // Given up after 429/503: refused, so nothing created.
      settle?.(!(err instanceof RetriesExhausted));
      throw err;
    }
  }

  private get maxWaitMs(): number {
    return this.options.maxRetryWaitMs ?? 60_000;
  }

  /** One request within its pool slot: paced, then sent, and sent again once if its reused connection was stale. */
  private async once(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    sent: SentRequest,
    urgent: boolean,
  ): Promise<ApiResponse> {
    try {
      // Unpaced, the turn is now: no promise to wait for.
      const turn = this.pacer.turn(urgent);
      if (turn) await turn;
    } catch {
      throw new TransportError(INTERRUPTED, sent);
    }
    const sentAt = performance.now();
    const idempotent = method === 'GET' || method === 'HEAD';
    let res: ApiResponse;
    try {
      res = await this.exchange(idempotent ? this.dispatcher : this.fresh, method, url, headers, body, sent);
    } catch (err) {
      const failure = err as ExchangeFailure;
      // A request that may create is never sent twice: its connection was new, or kept inside the server's promise.
      if (!failure.stale || !idempotent) throw this.transportError(failure, sent);
      const first = describeTransportError(failure.cause, this.options.timeoutMs);
      try {
        res = await this.exchange(this.fresh, method, url, headers, body, sent);
      } catch (again) {
        throw this.transportError(again as ExchangeFailure, sent);
      }
      res.resent = `sent twice: the reused connection was closed before any byte of the answer (${first}), so it went again on a fresh connection`;
    }
    const wait = retryAfterMs(res);
    // A wait longer than the suite honours fails this request at once; it holds nobody else.
    this.pacer.answered(sentAt, wait === undefined ? undefined : wait > this.maxWaitMs ? 0 : wait);
    return res;
  }

  private transportError(failure: ExchangeFailure, sent: SentRequest): TransportError {
    if (this.stopped.signal.aborted) return new TransportError(INTERRUPTED, sent);
    const proxied = this.proxy && blameProxy(failure.cause, this.proxy, new URL(this.baseUrl));
    const why =
      proxied ??
      describeTransportError(failure.cause, this.options.timeoutMs, failure.timedOut ? AbortSignal.abort() : undefined);
    if (!failure.refused || proxied) return new TransportError(why, sent);
    const mib = Math.round((Buffer.byteLength(sent.body ?? '') / 1024 / 1024) * 10) / 10;
    return new UploadRefused(
      `${why} during the upload of a ${mib} MiB body, without an answer: the server refused the body by closing the connection`,
      sent,
    );
  }

  /** One exchange on `dispatcher`; throws ExchangeFailure. */
  private async exchange(
    dispatcher: Dispatcher,
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    sent: SentRequest,
  ): Promise<ApiResponse> {
    this.requestCount++;
    const started = performance.now();
    const maxBytes = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const exchange = new Exchange(maxBytes);
    // The timeout covers the whole exchange, body included: a server dripping bytes is cut off too.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      exchange.stop(new Error('timeout'));
    }, this.options.timeoutMs);
    this.inFlight.add(exchange);
    if (this.stopped.signal.aborted) exchange.stop(new Error(INTERRUPTED));
    try {
      const { origin, path } = this.target.of(url);
      // Straight to the dispatcher with a handler that keeps the bytes: no stream, no signal per
      // request. No redirect interceptor: a 3xx comes back as the answer, with its Location.
      dispatcher.dispatch(
        { origin, path, method: method as Dispatcher.HttpMethod, ...inPieces(headers, body) },
        exchange,
      );
      const { status, headers: received, text, truncated } = await exchange.answer;
      const flat = flattenHeaders(received);
      const res: ApiResponse = {
        request: sent,
        status,
        headers: flat,
        text,
        json: undefined,
        truncated,
        durationMs: Math.round(performance.now() - started),
        at: { sent: started, answered: performance.now() },
      };
      this.recordSend(sent, started, exchange, res);
      return res;
    } catch (err) {
      exchange.stop(err instanceof Error ? err : new Error(String(err)));
      const closed = !timedOut && !this.stopped.signal.aborted && !exchange.responded;
      const large = body !== undefined && Buffer.byteLength(body) > REFUSABLE_UPLOAD_BYTES;
      const failure = new ExchangeFailure(err, timedOut, closed && isStaleClose(err), closed && large && isClose(err));
      if (!this.stopped.signal.aborted) this.options.onNoAnswer?.(sent, err, started);
      if (this.options.onSend)
        this.recordSend(
          sent,
          started,
          exchange,
          undefined,
          this.transportError(failure, sent).message,
          failure.refused,
        );
      throw failure;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(exchange);
    }
  }

  /** Hands one send to onSend (--har; nothing when it is off); the request keeps the index it got. */
  private recordSend(
    sent: SentRequest,
    startedAt: number,
    exchange: Exchange,
    response?: ApiResponse,
    error?: string,
    refused = false,
  ): void {
    if (!this.options.onSend) return;
    const send: SendRecord = {
      request: sent,
      startedAt,
      respondedAt: exchange.respondedAt,
      endedAt: performance.now(),
      ...(response ? { response } : {}),
      ...(error === undefined ? {} : { error }),
      ...(refused ? { refused } : {}),
    };
    const index = this.options.onSend(send, this.stamps.get(sent));
    if (index !== undefined) sent.harEntry = index;
  }

  /** Stops every request now and later (the run was interrupted); each fails with INTERRUPTED. */
  abort(): void {
    this.stopped.abort();
    this.pacer.cancel();
    for (const exchange of this.inFlight) exchange.stop(new Error(INTERRUPTED));
  }

  get aborted(): boolean {
    return this.stopped.signal.aborted;
  }

  async close(): Promise<void> {
    // After abort() nothing is worth waiting for: drop the connections instead of draining them.
    const all = [this.dispatcher, this.fresh];
    if (this.stopped.signal.aborted) await Promise.all(all.map((d) => d.destroy()));
    else await Promise.all(all.map((d) => d.close()));
  }
}
