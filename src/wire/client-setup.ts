// How the client is set up: its options, how a request goes on the wire, and its connections (keep-alive ones for GET and HEAD,
// for every request that may create one of its own or one kept inside the server's promise: own-connections.ts), direct or through
// the environment's proxy.
import { Readable } from 'node:stream';
import { Agent, envHttpProxyAgent, type Dispatcher } from './undici.js';
import { proxyEnv } from '../config/config.js';
import { earlyAnswerConnector, envProxy, namesProxy, type EnvProxy } from './transport.js';
import { stringifyJson } from './json.js';
import { PLACEHOLDER, redact } from './redact.js';
import { OwnConnections } from './own-connections.js';
import { WarmConnections, type Opened } from './warm.js';
import type { ApiRequest, ApiResponse, SentRequest, Retries, SendRecord } from './requests.js';

/** Requests prepared in this process: each one's span id (W3C Trace Context), unique in its trace and never zero. */
let spans = 0;

/** An ApiRequest as it goes on the wire, and as the evidence shows it (the key as its placeholder). */
export function prepareRequest(
  req: ApiRequest,
  baseUrl: string,
  apiKey: string,
  traceId?: string,
): { url: string; headers: Record<string, string>; body?: string; sent: SentRequest } {
  const qs = req.query?.length
    ? `?${req.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`
    : '';
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(traceId ? { traceparent: `00-${traceId}-${(++spans).toString(16).padStart(16, '0')}-01` } : {}),
    ...req.headers,
  };
  const auth = req.auth ?? 'key';
  if (auth === 'key') headers.authorization = `Bearer ${apiKey}`;
  else if (auth !== 'none') headers.authorization = auth.authorization;
  let body: string | undefined;
  if (req.body) {
    body = 'json' in req.body ? stringifyJson(req.body.json) : req.body.raw;
    // A header given as '' is left out: how a client that forgot the Content-Type sends a body.
    headers['content-type'] ??= 'application/json';
    if (headers['content-type'] === '') delete headers['content-type'];
  }
  const url = `${baseUrl}${req.path}${qs}`;
  const sent: SentRequest = {
    method: req.method,
    url: redact(url),
    // The key's own header is written with the placeholder, not found and replaced: a key such
    // as "a" or "e" must not garble "Bearer" in the curl line.
    headers: Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [
        k,
        k === 'authorization' && auth === 'key' ? `Bearer ${PLACEHOLDER}` : redact(v),
      ]),
    ),
    ...(body === undefined ? {} : { body: redact(body) }),
  };
  return { url, headers, ...(body === undefined ? {} : { body }), sent };
}

/**
 * Whether a request may create a pet: a POST to the collection carrying the run's key, in any
 * spelling of its scheme. Without the key only a broken server creates, which the checks judge.
 */
export const mayCreate = (req: ApiRequest, apiKey: string): boolean =>
  req.method === 'POST' &&
  req.path === '/pets' &&
  (req.auth === undefined || req.auth === 'key' || (req.auth !== 'none' && req.auth.authorization.includes(apiKey)));

/** Ends a request that took a creation: whether it may have created (a 201, or no answer). */
export type Settle = (created: boolean) => void;

/**
 * Resolves in the event loop's check phase, after the immediates queued before it, in one of which
 * undici writes a request to a kept-alive connection: an answer read after it lets the requests
 * that took freed pool slots reach the server first, not after every answer read in this turn.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A client's requests, stamped with who sends them when got from Client.for. */
export interface Api {
  send(req: ApiRequest): Promise<ApiResponse>;
  listPets(query?: ApiRequest['query'], extra?: Partial<ApiRequest>): Promise<ApiResponse>;
  createPet(body: unknown, extra?: Partial<ApiRequest>): Promise<ApiResponse>;
  getPet(id: unknown, extra?: Partial<ApiRequest>): Promise<ApiResponse>;
}

/** The operations, each one request through `send`. */
export const apiOf = (send: Api['send']): Api => ({
  send,
  listPets: (query = [], extra = {}) => send({ method: 'GET', path: '/pets', query, ...extra }),
  createPet: (body, extra = {}) => send({ method: 'POST', path: '/pets', body: { json: body }, ...extra }),
  getPet: (id, extra = {}) => send({ method: 'GET', path: `/pets/${encodeURIComponent(String(id))}`, ...extra }),
});

/** `S`: what a request is stamped with (Client.for), handed back with each of its callbacks. */
export interface ClientOptions<S = unknown> {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  concurrency: number;
  /** Whether a host is this machine, where nothing is opened ahead (default: loopback by name; tests say no). */
  onThisMachine?: (host: string) => boolean;
  /** Bodies beyond this many bytes are cut and marked truncated. */
  maxBodyBytes?: number;
  /** W3C trace id: each request carries `traceparent` with it and a span id of its own. */
  traceId?: string;
  /** Refuse every method but GET and HEAD. */
  readOnly?: boolean;
  /**
   * The write budget, asked before every request that may create a pet (see mayCreate): takes one
   * creation or throws (nothing is sent), and gives (at once when it can) what to call once the
   * request is over, saying whether it may have created (a 201, or no answer).
   */
  takeCreation?: (from: S | undefined) => Settle | Promise<Settle>;
  /** Called once per request that received a response (for counting and ledgers). */
  onResponse?: (res: ApiResponse, from: S | undefined) => void;
  /** Called once per send that got no answer (closed, reset, refused, timed out; not on Ctrl-C), with the error. */
  onNoAnswer?: (sent: SentRequest, err: unknown, sentAt: number) => void;
  /**
   * Called once per request that was sent more than once or given up on after a 429 or 503 with
   * Retry-After, when it ends.
   */
  onRetried?: (retried: Retries, from: S | undefined) => void;
  /**
   * Called once per send on the wire (each retry and resend too) when it ends, answered or not;
   * returns its index in the record (--har), kept as request.harEntry.
   */
  onSend?: (send: SendRecord, from: S | undefined) => number | undefined;
  /** Retries of a 429 or 503 answer carrying Retry-After (default 0: none). */
  retries?: number;
  /** Longest Retry-After wait honoured; a server asking more is not retried (default 60 s). */
  maxRetryWaitMs?: number;
  /** 'env' (default): HTTP_PROXY / HTTPS_PROXY / NO_PROXY decide; 'none': always direct. */
  proxy?: 'env' | 'none';
  /** Most requests per second (--rate): for a gateway whose limit is known in advance. */
  rate?: number;
}

/** Retries the client made, for the run's summary. */
export interface RetryStats {
  count: number;
}

/**
 * Idle keep-alive connections are dropped after 4 s, below the idle timeouts of common servers
 * and proxies (Node and Apache 5 s, HAProxy and load balancers 10 s or more, nginx 75 s), so the
 * client seldom sends on a connection the other side is closing. A `Keep-Alive: timeout=N` hint
 * from the server shortens it to N - 1 s (N <= 1: the connection is not reused).
 */
const KEEP_ALIVE = { keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000, keepAliveTimeoutThreshold: 1_000 } as const;

export const DEFAULT_MAX_BODY = 8 * 1024 * 1024;

/**
 * The client's dispatchers: `pooled` (keep-alive) and `fresh` (a connection per request, opened
 * ahead when direct: see WarmConnections), the proxy to blame, and the connections opened (counted
 * when direct; through a proxy its own connections are not ours to count).
 */
export function connectionsFor(
  options: Pick<ClientOptions, 'concurrency' | 'proxy' | 'onThisMachine'>,
  baseUrl: string,
): { pooled: Dispatcher; fresh: Dispatcher; proxy: EnvProxy | undefined; opened: Opened | undefined } {
  const agent = { ...KEEP_ALIVE, connections: options.concurrency, pipelining: 1 };
  // pipelining 0: no keep-alive, every request on a new connection, sent with Connection: close.
  const fresh = { ...agent, pipelining: 0 };
  // proxyTunnel false: plain-HTTP targets go to the proxy as absolute-form requests, which
  // every forward proxy accepts (many refuse CONNECT to ports other than 443); HTTPS tunnels.
  const direct = options.proxy === 'none';
  // Where the environment names no proxy, EnvHttpProxyAgent sends everything through an Agent
  // of its own (after a URL parse and a NO_PROXY read per request): that Agent, straight.
  const viaEnv = !direct && namesProxy(proxyEnv());
  // Sockets to the target itself read an early answer through a failed write; through a proxy,
  // the proxy is the one reading the upload.
  const proxy = direct ? undefined : envProxy(new URL(baseUrl).protocol, proxyEnv());
  if (viaEnv) {
    const agentOf = (opts: Agent.Options) => new (envHttpProxyAgent())({ ...opts, proxyTunnel: false });
    return { pooled: agentOf(agent), fresh: agentOf(fresh), proxy, opened: undefined };
  }
  const opened: Opened = { count: 0, unused: 0 };
  const connect = earlyAnswerConnector();
  const counted: typeof connect = (opts, callback) => {
    opened.count++;
    connect(opts, callback);
  };
  const warm = new WarmConnections(connect, options.concurrency * 2, opened, options.onThisMachine);
  return {
    pooled: new Agent({ ...agent, connect: counted }),
    fresh: new OwnConnections(warm, { ...KEEP_ALIVE, pipelining: 1 }),
    proxy,
    opened,
  };
}

/** Bodies longer than this go to undici a piece of this size at a time (see inPieces). */
const PIECE = 256 * 1024;

/**
 * The body as undici is given it. One longer than PIECE (the 5 MiB of errors.refused-body) goes in
 * pieces with its Content-Length, the bytes and headers undici sends for the string: given the
 * string, undici copies it whole into a Buffer beside it (5 MiB more at the run's peak).
 */
export function inPieces(
  headers: Record<string, string>,
  body: string | undefined,
): { headers: Record<string, string>; body?: string | Readable } {
  if (body === undefined || body.length <= PIECE) return { headers, ...(body === undefined ? {} : { body }) };
  return {
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    body: Readable.from(pieces(body), { objectMode: false }),
  };
}

function* pieces(text: string): Generator<Buffer> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + PIECE);
    // Never between the halves of a surrogate pair: the pieces encode as the whole does.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield Buffer.from(text.slice(at, end));
    at = end;
  }
}
