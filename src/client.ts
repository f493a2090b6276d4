// The one HTTP client every check goes through: undici over a pooled keep-alive Agent.
// It never throws on a status code, enforces the timeout, bounds the bytes it reads, and
// parses bodies losslessly. Transport failures throw TransportError (the suite could not decide).
import { Agent, request, type Dispatcher } from 'undici';
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
}

const DEFAULT_MAX_BODY = 8 * 1024 * 1024;

/** A counting semaphore bounding requests in flight. */
class Pool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export class Client {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly pool: Pool;
  requestCount = 0;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: options.concurrency, pipelining: 1 });
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
    return this.pool.run(async () => {
      this.requestCount++;
      const started = performance.now();
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      try {
        const res = await request(url, { method: req.method, headers, body, dispatcher: this.dispatcher, signal });
        const { text, truncated } = await readBounded(res.body, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY);
        let json: unknown;
        let jsonError: string | undefined;
        try {
          json = parseJson(text);
        } catch (err) {
          jsonError = err instanceof Error ? err.message : String(err);
        }
        const out: ApiResponse = {
          request: sent,
          status: res.statusCode,
          headers: flattenHeaders(res.headers),
          text,
          json,
          ...(jsonError === undefined ? {} : { jsonError }),
          truncated,
          durationMs: Math.round(performance.now() - started),
        };
        this.options.onResponse?.(out);
        return out;
      } catch (err) {
        throw new TransportError(describeTransportError(err, this.options.timeoutMs, signal), sent);
      }
    });
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

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

async function readBounded(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > max) {
      chunks.push(chunk.subarray(0, max - size));
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    size += chunk.length;
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function describeTransportError(err: unknown, timeoutMs: number, signal: AbortSignal): string {
  if (signal.aborted) return `no complete response within ${timeoutMs} ms`;
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host name not found (DNS)',
    EAI_AGAIN: 'host name lookup failed (DNS)',
    ECONNRESET: 'connection reset by the server',
    UND_ERR_SOCKET: 'connection closed by the server',
    UND_ERR_HEADERS_TIMEOUT: `no response headers within ${timeoutMs} ms`,
    UND_ERR_BODY_TIMEOUT: `response body stalled for ${timeoutMs} ms`,
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'response body did not match its Content-Length',
    UND_ERR_INFO: 'invalid HTTP response',
    HPE_INVALID_CONSTANT: 'invalid HTTP response',
  };
  const reason = (code && reasons[code]) ?? e.cause?.message ?? e.message ?? String(err);
  return code && !reasons[code] ? `${reason} (${code})` : reason;
}
