// A request that got no answer, in words a person reads: DNS, refused, TLS, timeout, a stale
// keep-alive connection, or the proxy (named, with the variable it came from) when it is the one
// failing; and the sockets' connector, which keeps reading an answer the server sent early.
import type { Socket } from 'node:net';
import { buildConnector } from './undici.js';

/** An exchange that got no answer: the error, and whether a resend on a fresh connection is safe for a GET. */
export class ExchangeFailure {
  constructor(
    readonly cause: unknown,
    readonly timedOut: boolean,
    /** The connection had carried an earlier answer and was closed before any byte of this one. */
    readonly stale: boolean,
    /** A large upload the server closed or reset without a word (see UploadRefused, src/wire/requests.ts). */
    readonly refused = false,
  ) {}
}

/** Bytes the connection had read when it failed, set on a socket's own error by keepReading (undici's carry socket info). */
const READ_BEFORE = Symbol('bytes read before the error');

/** The other side closed or reset the connection (no timeout, no TLS or DNS failure). */
export function isClose(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * A connection closed or reset before any byte of the answer, on a connection that had already
 * carried an answer (the bytes it had read): the keep-alive race, where the other side closed an
 * idle connection as the request went out. On a connection that read nothing it is no such race.
 */
export function isStaleClose(err: unknown): boolean {
  const e = err as { code?: string; socket?: { bytesRead?: number }; [READ_BEFORE]?: number };
  if (e.code === 'UND_ERR_SOCKET') return (e.socket?.bytesRead ?? 0) > 0;
  // Unknown (a proxy's socket, not ours): counted stale, as a resent GET costs nothing.
  if (e.code === 'ECONNRESET' || e.code === 'EPIPE') return (e[READ_BEFORE] ?? 1) > 0;
  return false;
}

/**
 * A server may answer before the request body is all written and close without reading the rest
 * (RFC 9112 §9.3, §9.6: fastify's body limit, Go's MaxBytesReader). Node destroys a socket whose
 * write fails (EPIPE, ECONNRESET), and with it the answer waiting unread in the kernel. Here such
 * a write error only ends the writing: the socket reads on, so the answer is read as curl reads
 * it, and a server that sent none ends the read side (its close or reset), which undici reports.
 */
function keepReading(socket: Socket): Socket {
  let broken = false;
  const swallow = (cb: (err?: Error | null) => void) => (err?: Error | null) => {
    const code = (err as { code?: string } | null | undefined)?.code;
    if (code !== 'EPIPE' && code !== 'ECONNRESET') return cb(err);
    broken = true;
    cb();
  };
  const write = socket._write.bind(socket);
  const writev = socket._writev?.bind(socket);
  socket._write = (chunk, encoding, cb) => (broken ? cb() : write(chunk, encoding, swallow(cb)));
  if (writev) socket._writev = (chunks, cb) => (broken ? cb() : writev(chunks, swallow(cb)));
  socket.on('error', (err) => Object.assign(err, { [READ_BEFORE]: socket.bytesRead }));
  return socket;
}

/** undici's own connector, each socket it makes reading an early answer through a failed write (see keepReading). */
export function earlyAnswerConnector(): buildConnector.connector {
  const connect = buildConnector({});
  return (options, callback) =>
    connect(options, (...args) => {
      if (args[1]) keepReading(args[1]);
      callback(...args);
    });
}

export interface EnvProxy {
  url: URL;
  /** The variable it came from, as written (HTTP_PROXY or http_proxy...). */
  variable: string;
}

/**
 * The proxy the environment names for a scheme, read in the order undici's EnvHttpProxyAgent
 * reads it; `env` holds the proxy variables (proxyEnv() in src/config/config.ts).
 */
export function envProxy(protocol: string, env: Readonly<Record<string, string | undefined>>): EnvProxy | undefined {
  const names =
    protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  for (const variable of names) {
    const value = env[variable];
    if (!value) continue;
    try {
      return { url: new URL(value), variable };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The failure in words naming the proxy, when it is the proxy's: a refused CONNECT, or a
 * connection error whose address is the proxy's (the target itself is never dialled through a
 * proxy). Undefined when the failure is not the proxy's (e.g. NO_PROXY sent the request direct).
 */
export function blameProxy(err: unknown, proxy: EnvProxy, target: URL): string | undefined {
  const e = err as { code?: string; message?: string; address?: string; port?: number | string; hostname?: string };
  // The proxy as a person would write it, without credentials.
  const name = `the proxy ${proxy.url.protocol}//${proxy.url.host} (${proxy.variable})`;
  const tunnel = /Proxy response \((\d+)\) !== 200 when HTTP Tunneling/.exec(e.message ?? '');
  if (tunnel) return `${name} refused to tunnel to ${target.hostname}:${target.port || 443} (${tunnel[1]})`;
  const defaultPort = (u: URL) => Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const proxyPort = defaultPort(proxy.url);
  const proxyHost = proxy.url.hostname.replace(/^\[|\]$/g, '');
  const attempted = /attempted address: (.+):(\d+),/.exec(e.message ?? '');
  const host = e.address ?? e.hostname ?? attempted?.[1];
  const port = e.port ?? attempted?.[2];
  const isProxy =
    e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN'
      ? host === proxyHost
      : port !== undefined && Number(port) === proxyPort && (host === proxyHost || defaultPort(target) !== proxyPort);
  if (!isProxy) return undefined;
  if (e.code === 'ECONNREFUSED') return `${name} refused the connection`;
  return `${name} could not be reached: ${describeTransportError(err, 0)}`;
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
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

/** Whether the proxy variables name a proxy, read as undici's EnvHttpProxyAgent reads them. */
export function namesProxy(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean((env.http_proxy ?? env.HTTP_PROXY) || (env.https_proxy ?? env.HTTPS_PROXY));
}

/**
 * Path and query made only of characters the URL standard passes through as they are, in a path
 * with no segment starting with a dot (`.`, `..`, `%2e` are resolved) and a query that is not empty
 * (`?` alone is dropped): such a URL is its own serialisation. Anything else (quotes, spaces,
 * non-ASCII, dots) is left to `new URL`.
 */
const AS_IS = /^\/[\w\-~!$&()*+,;=:@/%]*(?:\?[\w\-.~!$&()*+,;=:@/?%]+)?$/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

/**
 * The origin and path (with the query) undici is handed for a URL below the base URL, exactly as
 * `new URL` makes them, without parsing the URLs that are already in that form.
 */
export class RequestTarget {
  private readonly origin: string;
  /** The base URL is already serialised as `new URL` would serialise it (origin, then path). */
  private readonly plainBase: boolean;

  constructor(private readonly baseUrl: string) {
    const base = new URL(baseUrl);
    this.origin = base.origin;
    this.plainBase = `${base.origin}${base.pathname}` === baseUrl && base.pathname !== '/';
  }

  of(url: string): { origin: string; path: string } {
    if (this.plainBase && url.startsWith(this.baseUrl)) {
      const path = url.slice(this.origin.length);
      if (AS_IS.test(path) && !DOT_SEGMENT.test(path.split('?', 1)[0] as string)) return { origin: this.origin, path };
    }
    const parsed = new URL(url);
    return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  }
}
