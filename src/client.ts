// The one HTTP client every check goes through: undici over a pooled keep-alive Agent.
// It never throws on a status code, enforces the timeout, bounds the bytes it reads, and
// parses bodies losslessly. Transport failures throw TransportError (the suite could not decide).
// Network realities: HTTP_PROXY / HTTPS_PROXY / NO_PROXY are honoured, HTTPS trusts the system
// CAs plus NODE_EXTRA_CA_CERTS, redirects are never followed (a 3xx is an answer like any
// other), and only 429 or 503 with Retry-After is retried, a bounded number of times.
import { setTimeout as sleep } from 'node:timers/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { parseJson, stringifyJson } from './json.js';
import { redact, registerSecret } from './redact.js';

/** How a request authenticates: the configured key, none, or an exact Authorization value. */
export type Auth = 'key' | 'none' | { authorization: string };

export interface ApiRequest {
  method: string;
  /** Path below the base URL, e.g. `/pets` or `/pets/12`. */
  path: string;
  /** Query string pairs, sent in order; values are sent as given (encoded). */
  query?: ReadonlyArray<readonly [string, string]>;
  /** A value to serialise as JSON, or the exact raw body text. */
  body?: { json: unknown } | { raw: string };
  auth?: Auth;
  headers?: Readonly<Record<string, string>>;
  /**
   * Goes ahead of the requests waiting for a connection: for a request that others wait on (a
   * create that holds the write guard of a property's cases). Queued requests are otherwise FIFO.
   */
  urgent?: boolean;
}

export interface SentRequest {
  method: string;
  url: string;
  /** Headers as sent; the API key is replaced by $PETSTORE_API_KEY. */
  headers: Record<string, string>;
  body?: string;
}

export interface ApiResponse {
  request: SentRequest;
  status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** The body parsed losslessly; undefined when it is not JSON (see jsonError). */
  json: unknown;
  jsonError?: string;
  /** True when the body exceeded the read bound and was cut. */
  truncated: boolean;
  durationMs: number;
  /** Times the request was retried (429 or 503 with Retry-After) before this answer. */
  retries?: number;
}

export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    message: string,
    readonly request: SentRequest,
  ) {
    super(message);
  }
}

/**
 * The server kept answering 429 or 503 with Retry-After until the retries ran out, or asked to
 * wait longer than the suite waits: the suite could not decide.
 */
export class RetriesExhausted extends TransportError {
  override name = 'RetriesExhausted';
  constructor(
    message: string,
    request: SentRequest,
    readonly response: ApiResponse,
  ) {
    super(message, request);
  }
}

/** Thrown instead of sending a request that could create data in read-only mode. */
export class WriteBlocked extends Error {
  override name = 'WriteBlocked';
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  concurrency: number;
  /** Bodies beyond this many bytes are cut and marked truncated. */
  maxBodyBytes?: number;
  /** Refuse every method but GET and HEAD. */
  readOnly?: boolean;
  /** Called once per request that received a response (for counting and ledgers). */
  onResponse?: (res: ApiResponse) => void;
  /** Retries of a 429 or 503 answer carrying Retry-After (default 0: none). */
  retries?: number;
  /** Longest Retry-After wait honoured; a server asking more is not retried (default 60 s). */
  maxRetryWaitMs?: number;
  /** 'env' (default): HTTP_PROXY / HTTPS_PROXY / NO_PROXY decide; 'none': always direct. */
  proxy?: 'env' | 'none';
}

/** Retries the client made, for the run's summary. */
export interface RetryStats {
  count: number;
  waitedMs: number;
}

const DEFAULT_MAX_BODY = 8 * 1024 * 1024;


/** Why a request stopped by Client.abort() got no answer. */
export const INTERRUPTED = 'interrupted: the run was stopped before the answer came';

/** A counting semaphore bounding requests in flight; urgent ones wait ahead of the others. */
class Pool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private urgentWaiting = 0;
  constructor(private readonly size: number) {}
  async run<T>(task: () => Promise<T>, urgent = false): Promise<T> {
    if (this.active >= this.size) {
      // Woken with the slot of the request that ended: it is handed over, never freed in between,
      // so a newcomer cannot take it too and exceed the bound.
      await new Promise<void>((resolve) => {
        if (urgent) this.waiting.splice(this.urgentWaiting++, 0, resolve);
        else this.waiting.push(resolve);
      });
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      // Urgent waiters are the first urgentWaiting of the queue.
      const next = this.waiting.shift();
      if (next) {
        if (this.urgentWaiting > 0) this.urgentWaiting--;
        next();
      } else {
        this.active--;
      }
    }
  }
}

export class Client {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly pool: Pool;
  requestCount = 0;
  readonly retried: RetryStats = { count: 0, waitedMs: 0 };
  /** Aborted by abort(): every request in flight, waiting for a retry, or sent later, fails at once. */
  private readonly stopped = new AbortController();
  /** The exchanges in flight, for abort(). */
  private readonly inFlight = new Set<Exchange>();

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const agent = { keepAliveTimeout: 10_000, connections: options.concurrency, pipelining: 1 };
    // proxyTunnel false: plain-HTTP targets go to the proxy as absolute-form requests, which
    // every forward proxy accepts (many refuse CONNECT to ports other than 443); HTTPS tunnels.
    this.dispatcher = options.proxy === 'none' ? new Agent(agent) : new EnvHttpProxyAgent({ ...agent, proxyTunnel: false });
    this.pool = new Pool(options.concurrency);
    registerSecret(options.apiKey);
  }

  private prepare(req: ApiRequest): { url: string; headers: Record<string, string>; body?: string } {
    const qs = req.query?.length ? `?${req.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : '';
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    const auth = req.auth ?? 'key';
    if (auth === 'key') headers.authorization = `Bearer ${this.options.apiKey}`;
    else if (auth !== 'none') headers.authorization = auth.authorization;
    let body: string | undefined;
    if (req.body) {
      body = 'json' in req.body ? stringifyJson(req.body.json) : req.body.raw;
      headers['content-type'] ??= 'application/json';
    }
    return { url: `${this.baseUrl}${req.path}${qs}`, headers, ...(body === undefined ? {} : { body }) };
  }

  async send(req: ApiRequest): Promise<ApiResponse> {
    if (this.options.readOnly && req.method !== 'GET' && req.method !== 'HEAD') {
      throw new WriteBlocked(`read-only mode: this check needs to send ${req.method} ${req.path}`);
    }
    const { url, headers, body } = this.prepare(req);
    const sent: SentRequest = {
      method: req.method,
      url,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redact(v)])),
      ...(body === undefined ? {} : { body: redact(body) }),
    };
    const retries = this.options.retries ?? 0;
    const maxWaitMs = this.options.maxRetryWaitMs ?? 60_000;
    for (let attempt = 0; ; attempt++) {
      const res = await this.pool.run(() => this.once(req.method, url, headers, body, sent), req.urgent);
      const waitMs = retryAfterMs(res);
      if (waitMs === undefined) {
        if (attempt > 0) res.retries = attempt;
        this.options.onResponse?.(res);
        return res;
      }
      const asked = `${res.status} with Retry-After: ${res.headers['retry-after']}`;
      if (waitMs > maxWaitMs) {
        throw new RetriesExhausted(`${asked}, a longer wait than the ${maxWaitMs / 1000} s the suite honours`, sent, res);
      }
      if (attempt >= retries) {
        throw new RetriesExhausted(
          retries === 0 ? `${asked}, and retries are off (PETSTORE_RETRIES=0)` : `still ${asked} after ${retries} retries honouring it`,
          sent,
          res,
        );
      }
      this.retried.count++;
      this.retried.waitedMs += waitMs;
      try {
        await sleep(waitMs, undefined, { signal: this.stopped.signal });
      } catch {
        throw new TransportError(INTERRUPTED, sent);
      }
    }
  }

  private async once(method: string, url: string, headers: Record<string, string>, body: string | undefined, sent: SentRequest): Promise<ApiResponse> {
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
      const target = new URL(url);
      // Straight to the dispatcher with a handler that keeps the bytes: no stream, no signal per
      // request. No redirect interceptor: a 3xx comes back as the answer, with its Location.
      this.dispatcher.dispatch({ origin: target.origin, path: `${target.pathname}${target.search}`, method: method as Dispatcher.HttpMethod, headers, body }, exchange);
      const { status, headers: received, text, truncated } = await exchange.answer;
      let json: unknown;
      let jsonError: string | undefined;
      if (truncated) jsonError = `not parsed: longer than the ${maxBytes} bytes the suite reads`;
      else {
        try {
          json = parseJson(text);
        } catch (err) {
          jsonError = err instanceof Error ? err.message : String(err);
        }
      }
      return {
        request: sent,
        status,
        headers: flattenHeaders(received),
        text,
        json,
        ...(jsonError === undefined ? {} : { jsonError }),
        truncated,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (err) {
      exchange.stop(err instanceof Error ? err : new Error(String(err)));
      throw new TransportError(this.stopped.signal.aborted ? INTERRUPTED : describeTransportError(err, this.options.timeoutMs, timedOut ? AbortSignal.abort() : undefined), sent);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(exchange);
    }
  }

  listPets(query: ApiRequest['query'] = [], extra: Partial<ApiRequest> = {}): Promise<ApiResponse> {
    return this.send({ method: 'GET', path: '/pets', query, ...extra });
  }

  createPet(body: unknown, extra: Partial<ApiRequest> = {}): Promise<ApiResponse> {
    return this.send({ method: 'POST', path: '/pets', body: { json: body }, ...extra });
  }

  getPet(id: unknown, extra: Partial<ApiRequest> = {}): Promise<ApiResponse> {
    return this.send({ method: 'GET', path: `/pets/${encodeURIComponent(String(id))}`, ...extra });
  }

  /** Stops every request now and later (the run was interrupted); each fails with INTERRUPTED. */
  abort(): void {
    this.stopped.abort();
    for (const exchange of this.inFlight) exchange.stop(new Error(INTERRUPTED));
  }

  get aborted(): boolean {
    return this.stopped.signal.aborted;
  }

  async close(): Promise<void> {
    // After abort() nothing is worth waiting for: drop the connections instead of draining them.
    if (this.stopped.signal.aborted) await this.dispatcher.destroy();
    else await this.dispatcher.close();
  }
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  truncated: boolean;
}

/**
 * One exchange, as undici's dispatcher drives it: keeps the status, the headers and the body up
 * to `maxBytes` (then cuts the connection and answers truncated). stop() ends it at once, whether
 * or not the request has reached a connection yet.
 */
class Exchange implements Dispatcher.DispatchHandler {
  readonly answer: Promise<Answer>;
  private settle!: (answer: Answer) => void;
  private fail!: (err: unknown) => void;
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {
    this.answer = new Promise<Answer>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
    // Settled by stop() before anyone awaits it: not an unhandled rejection.
    this.answer.catch(() => {});
  }

  stop(reason: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.fail(reason);
    this.controller?.abort(reason);
  }

  private end(truncated: boolean): void {
    if (this.settled) return;
    this.settled = true;
    this.settle({ status: this.status, headers: this.headers, text: Buffer.concat(this.chunks).toString('utf8'), truncated });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('the exchange was already stopped'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    if (this.size + chunk.length > this.maxBytes) {
      this.chunks.push(chunk.subarray(0, this.maxBytes - this.size));
      this.end(true);
      controller.abort(new Error(`longer than the ${this.maxBytes} bytes the suite reads`));
      return;
    }
    this.size += chunk.length;
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.end(false);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.fail(err);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The wait a 429 or 503 asks for with Retry-After (delay-seconds or HTTP-date), in ms. */
export function retryAfterMs(res: Pick<ApiResponse, 'status' | 'headers'>, now = Date.now()): number | undefined {
  if (res.status !== 429 && res.status !== 503) return undefined;
  const value = res.headers['retry-after']?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE',
]);

/** One line saying why a request got no answer: DNS, refused, TLS, timeout, or what the error says. */
export function describeTransportError(err: unknown, timeoutMs: number, signal?: AbortSignal): string {
  if (signal?.aborted) return `timeout: no complete response within ${timeoutMs} ms`;
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (code && TLS_CODES.has(code)) {
    return `TLS: the server's certificate is not trusted (${code}); for a private CA set NODE_EXTRA_CA_CERTS to its PEM file`;
  }
  const reasons: Record<string, string> = {
    CERT_HAS_EXPIRED: "TLS: the server's certificate has expired",
    CERT_NOT_YET_VALID: "TLS: the server's certificate is not valid yet",
    ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the server's certificate does not name this host",
    ERR_SSL_WRONG_VERSION_NUMBER: 'TLS: the server did not answer in TLS (is it plain http?)',
    EPROTO: 'TLS: handshake failed',
    ETIMEDOUT: 'timeout: the connection attempt timed out',
    UND_ERR_CONNECT_TIMEOUT: 'timeout: the connection attempt timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'DNS: host name not found',
    EAI_AGAIN: 'DNS: host name lookup failed',
    ECONNRESET: 'connection reset by the server',
    UND_ERR_SOCKET: 'connection closed by the server',
    UND_ERR_HEADERS_TIMEOUT: `timeout: no response headers within ${timeoutMs} ms`,
    UND_ERR_BODY_TIMEOUT: `timeout: response body stalled for ${timeoutMs} ms`,
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'response body did not match its Content-Length',
    UND_ERR_INFO: 'invalid HTTP response',
    HPE_INVALID_CONSTANT: 'invalid HTTP response',
  };
  const reason = (code && reasons[code]) ?? e.cause?.message ?? e.message ?? String(err);
  return code && !reasons[code] ? `${reason} (${code})` : reason;
}
