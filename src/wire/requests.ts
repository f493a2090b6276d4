// The wire's vocabulary, no I/O: a request, what was sent, the answer (its body read as JSON), the errors, retries, a gateway's page.
import { STATUS_CODES } from 'node:http';
import { parseJson } from './json.js';

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
  /** Headers as sent. Like the URL and the body, redacted: the API key is written $PETSTORE_API_KEY. */
  headers: Record<string, string>;
  body?: string;
  /** With --har: the index in the HAR's log.entries of this request's latest send (see ClientOptions.onSend, src/wire/client.ts). */
  harEntry?: number;
}

/** URLs parsed lately (see urlOf). */
const parsedUrls = new Map<string, URL>();
const URLS_KEPT = 256;

/**
 * A request's URL parsed, once per text: a run sends the same URLs many times over, and several
 * rules read each answer's. Shared: read it, never change it.
 */
export function urlOf(url: string): URL {
  let parsed = parsedUrls.get(url);
  if (parsed) return parsed;
  if (parsedUrls.size >= URLS_KEPT) parsedUrls.delete(parsedUrls.keys().next().value as string);
  parsedUrls.set(url, (parsed = new URL(url)));
  return parsed;
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
  /**
   * When the request went on the wire and when its answer had come whole (performance.now(), this
   * process): what the server did before the answer and what it did after, whatever order the
   * answers of requests in flight together arrive in (see src/checks/target-watch.ts).
   */
  at: { sent: number; answered: number };
  /** Times the request was retried (429 or 503 with Retry-After) before this answer. */
  retries?: number;
  /** Set when it took more than one send to get this answer: what was retried or resent (see Retries). */
  retried?: Retries;
  /**
   * Set when the answer is attributed to infrastructure in front of the service (e.g. a gateway
   * whose backend is down), with the reason in plain words: such an answer is not the service's
   * and is never judged against the interface's rules.
   */
  infrastructure?: string;
  /**
   * Set when the request was sent twice: the reused connection it first went on was closed
   * before any byte of the answer came, and this answer came on a fresh connection. Says why.
   */
  resent?: string;
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

/** Uploads beyond this many bytes a server may refuse by closing: the interface leaves request-size limits open. */
export const REFUSABLE_UPLOAD_BYTES = 1024 * 1024;

/**
 * The server closed or reset the connection during the upload of a body larger than
 * REFUSABLE_UPLOAD_BYTES, without any answer: how many servers refuse a body over their size
 * limit. A check that sends such a body on purpose may take it as a refusal (a note, not a verdict).
 */
export class UploadRefused extends TransportError {
  override name = 'UploadRefused';
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
    /** What was retried or resent before the suite gave up; its statuses count the last answer too. */
    readonly retried: Retries,
  ) {
    super(message, request);
  }
}

/** Thrown instead of sending a request that could create data in read-only mode. */
export class WriteBlocked extends Error {
  override name = 'WriteBlocked';
}

/** Why a request stopped by Client.abort() got no answer. */
export const INTERRUPTED = 'interrupted: the run was stopped before the answer came';

/** One send of a request, as it went (for the HAR); times are performance.now(). */
export interface SendRecord {
  request: SentRequest;
  startedAt: number;
  /** When the status line and headers came; 0: they never did. */
  respondedAt: number;
  endedAt: number;
  response?: ApiResponse;
  /** Why no answer came (timeout, reset...), in words. */
  error?: string;
  /** Set when no answer came because the server refused a large upload by closing (see UploadRefused). */
  refused?: boolean;
}

/**
 * What it took, beyond one send, to get answers: evidence of the infrastructure (a rate limit, a
 * closing keep-alive), never of the service's conformance. For one request, or summed over many.
 */
export interface Retries {
  /** Sends again after a 429 or 503 with Retry-After. */
  count: number;
  /** Answers that asked to wait (429 or 503 with Retry-After), by status: those retried and any the suite gave up on. */
  statuses: Record<string, number>;
  /** The waits the retried answers asked for, summed (ms); the pool paused for them, overlapping waits once. */
  retryAfterMs: number;
  /** GETs sent again on a fresh connection: the reused one was closed before any byte of the answer. */
  resent: number;
}

export const noRetries = (): Retries => ({ count: 0, statuses: {}, retryAfterMs: 0, resent: 0 });

/** Adds `more` into `into` (and returns it). */
export function addRetries<T extends Retries>(into: T, more: Retries): T {
  into.count += more.count;
  into.retryAfterMs += more.retryAfterMs;
  into.resent += more.resent;
  for (const [status, n] of Object.entries(more.statuses)) into.statuses[status] = (into.statuses[status] ?? 0) + n;
  return into;
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

/**
 * Why a gateway error mid-run is no violation: an answer 502/503/504 that is not JSON came from
 * infrastructure in front of the service (assert.ts's fail() starts its "could not decide" with this).
 */
export const GATEWAY_FAILING = 'the service behind the gateway is failing';

/** Gateway statuses: with a body that is not JSON, the answer is the gateway's, not the service's. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * What a gateway or proxy answers itself, before the request reaches the service: a URI it will
 * not pass on, a body over its limit, headers too large, a client too slow (nginx's defaults
 * answer `%00` with 400 and bodies over 1 MB with 413).
 */
const FRONT_STATUSES = new Set([400, 408, 413, 414, 431, 494]);

/**
 * A gateway's own page, signed in its body: nginx's `<center>nginx/1.27.0</center>`, Apache's
 * `<address>`, HAProxy's default wording. Not its Server header: Envoy, Cloudflare and others put
 * theirs on every answer they pass on, the service's own HTML 400 included.
 */
const GATEWAY_PAGE =
  /<center>((?:nginx|openresty|tengine)[^<]*)<\/center>|<address>(Apache[^\s<]*)|Your browser sent an invalid request|The request is too large/i;

/**
 * The infrastructure's reason when an answer is a gateway's page, not the service's (see
 * ApiResponse.infrastructure): a 502, 503 or 504 whose body is not JSON; or one of FRONT_STATUSES
 * whose body is a gateway's own page (GATEWAY_PAGE). Undefined otherwise.
 */
function gatewayPage(res: Pick<ApiResponse, 'status' | 'headers' | 'jsonError' | 'text'>): string | undefined {
  if (res.jsonError === undefined) return undefined;
  if (GATEWAY_STATUSES.has(res.status))
    return `${res.status} ${STATUS_CODES[res.status]} from ${res.headers.server ?? 'a gateway that names no Server'}`;
  const page = FRONT_STATUSES.has(res.status) ? GATEWAY_PAGE.exec(res.text) : null;
  if (!page) return undefined;
  const by = page[1] ?? page[2] ?? res.headers.server ?? "a gateway (HAProxy's page)";
  return `${res.status} ${STATUS_CODES[res.status] ?? ''} from ${by}`.replace('  ', ' ');
}

/** A gateway's own answer to the request itself (a 4xx), not a failing service behind it. */
export const answeredByFront = (res: Pick<ApiResponse, 'status' | 'infrastructure'>): boolean =>
  res.infrastructure !== undefined && res.status < 500;

/** Reads an answer's body as lossless JSON (json, or jsonError), then tells a gateway's page from the service's answer. */
export function readBody(res: ApiResponse, maxBytes: number): void {
  if (res.truncated) res.jsonError = `not parsed: longer than the ${maxBytes} bytes the suite reads`;
  else {
    try {
      res.json = parseJson(res.text);
    } catch (err) {
      res.jsonError = err instanceof Error ? err.message : String(err);
    }
  }
  const infrastructure = gatewayPage(res);
  if (infrastructure !== undefined) res.infrastructure = infrastructure;
}
