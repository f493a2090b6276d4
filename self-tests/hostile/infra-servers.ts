// Infrastructure between the suite and a service, on 127.0.0.1, for the client's self-tests:
// keep-alive servers that close connections silently (as tinyproxy and nginx's short
// keepalive_timeout do), a token-bucket rate limiter, a gateway whose backend is down, and a
// proxy that refuses. Each serves a Handler (usually the reference handler) and is closed by
// the test that made it.
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { Handler, ServerResponse } from '../../src/reference-server/handler.js';
import { errorResponse } from '../../src/reference-server/handler.js';

export interface InfraServer {
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** The head of a request at the start of `buffer`: method, URL, headers (lower-case), its body's length, and where the body starts; undefined until ' +
  'it is all there. */
export function readHead(
  buffer: Buffer,
): { method: string; url: string; headers: Record<string, string>; length: number; bodyAt: number } | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const [method = 'GET', url = '/'] = (head[0] ?? '').split(' ');
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { method, url, headers, length: Number(headers['content-length'] ?? 0), bodyAt: end + 4 };
}

/** Listens on 127.0.0.1 (a free port) and keeps the sockets, which close() ends. */
export async function listen(
  server: ReturnType<typeof createNetServer> | ReturnType<typeof createHttpServer>,
  sockets: Set<Socket>,
): Promise<InfraServer> {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

export interface KeepAliveServer extends InfraServer {
  /** Requests the handler answered, as "METHOD path". */
  answered: string[];
  /**
   * Connections accepted, requests that arrived on one the server was closing (never answered),
   * and the requests each connection carried, in the order accepted.
   */
  seen: { connections: number; lost: number; carried: string[][] };
}

/**
 * An HTTP/1.1 server that never says `Connection: close` nor (unless `promises`) gives a
 * `Keep-Alive` hint, yet closes connections on its own:
 * - `afterEach`: right after every answer (tinyproxy);
 * - `idleMs`: once a connection sat idle that long (nginx `keepalive_timeout`).
 * The close reaches the client `finLagMs` later (as over a network), and a request arriving
 * meanwhile is lost: the race a client meets when it reuses such a connection.
 */
export async function keepAliveServer(
  handler: Handler,
  close: ({ afterEach: true } | { idleMs: number }) & {
    finLagMs?: number;
    /** Say `Connection: keep-alive`, as nginx does. */ saysKeepAlive?: boolean;
    /** A `Keep-Alive` header on every answer (e.g. `timeout=5`), as Node and Apache send. */ promises?: string;
  },
): Promise<KeepAliveServer> {
  const sockets = new Set<Socket>();
  const answered: string[] = [];
  const seen: KeepAliveServer['seen'] = { lost: 0, connections: 0, carried: [] };
  const server = createNetServer((socket) => {
    seen.connections++;
    const carried: string[] = [];
    seen.carried.push(carried);
    let buffer = Buffer.alloc(0);
    let closing = false;
    let busy = false;
    let idle: NodeJS.Timeout | undefined;
    const closeNow = () => socket.end(() => socket.destroy());
    const arm = () => {
      if (!('idleMs' in close)) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        closing = true;
        setTimeout(closeNow, close.finLagMs ?? 0);
      }, close.idleMs);
    };
    const next = async (): Promise<void> => {
      if (busy) return;
      const head = readHead(buffer);
      if (!head) return;
      const { method, url, headers, length, bodyAt } = head;
      if (buffer.length < bodyAt + length) return;
      const body = buffer.subarray(bodyAt, bodyAt + length).toString('utf8');
      buffer = buffer.subarray(bodyAt + length);
      if (closing) {
        seen.lost++;
        return;
      }
      busy = true;
      clearTimeout(idle);
      const res: ServerResponse = await handler({ method, url, headers, body });
      answered.push(`${method} ${url}`);
      carried.push(`${method} ${url}`);
      const out = Buffer.from(res.body, 'utf8');
      const lines = [
        `HTTP/1.1 ${res.status} X`,
        ...Object.entries(res.headers).map(([k, v]) => `${k}: ${v}`),
        `content-length: ${out.length}`,
      ];
      if (close.saysKeepAlive) lines.push('connection: keep-alive');
      if (close.promises) lines.push(`keep-alive: ${close.promises}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      socket.write(out);
      busy = false;
      if ('afterEach' in close) {
        closing = true;
        setTimeout(closeNow, close.finLagMs ?? 0);
        return;
      }
      arm();
      await next();
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      void next();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => clearTimeout(idle));
    arm();
  });
  const running = await listen(server, sockets);
  return { ...running, answered, seen };
}

export interface Limiter {
  /** Answers 429 the limiter gave. */
  refused: number;
  passed: number;
}

/**
 * A token bucket in front of `inner`, as nginx `limit_req` or an API gateway: `rate` requests a
 * second, a burst of `burst`; beyond it, 429 with `Retry-After: 1` and a body that is not JSON.
 */
export function tokenBucket(
  inner: Handler,
  rate: number,
  burst = Math.max(1, Math.ceil(rate / 10)),
): { handler: Handler; stats: Limiter } {
  let tokens = burst;
  let at = performance.now();
  const stats: Limiter = { refused: 0, passed: 0 };
  const handler: Handler = (req) => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - at) / 1000) * rate);
    at = now;
    if (tokens < 1) {
      stats.refused++;
      return {
        status: 429,
        headers: { 'content-type': 'text/html', 'retry-after': '1' },
        body: '<html><body>429 Too Many Requests</body></html>',
      };
    }
    tokens -= 1;
    stats.passed++;
    return inner(req);
  };
  return { handler, stats };
}

/** nginx's own page for a gateway error, as it answers when the backend is down or silent. */
export function gatewayError(status: 502 | 503 | 504, server = 'nginx/1.27.0'): ServerResponse {
  const title = { 502: '502 Bad Gateway', 503: '503 Service Temporarily Unavailable', 504: '504 Gateway Time-out' }[
    status
  ];
  return {
    status,
    headers: { 'content-type': 'text/html', server },
    body: `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>${server}</center></body></html>`,
  };
}

/** A gateway in front of `inner` whose backend goes down after `upFor` requests: every later answer is gatewayError. */
export function failingGateway(inner: Handler, upFor: number, status: 502 | 503 | 504 = 502): Handler {
  let n = 0;
  return (req) => (++n <= upFor ? inner(req) : gatewayError(status));
}

/** An Error body as a JSON 503 from the service itself (not infrastructure). */
export const serviceUnavailable = (): ServerResponse => errorResponse(503, 'unavailable', 'down for maintenance');

/** A forward proxy that answers every CONNECT with `status` and forwards nothing. */
export async function refusingProxy(status = 403): Promise<InfraServer & { asked: string[] }> {
  const asked: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    res.writeHead(status, { 'content-type': 'text/plain' }).end('denied by policy');
  });
  server.on('connect', (req, client: Socket) => {
    asked.push(`CONNECT ${req.url}`);
    client.end(`HTTP/1.1 ${status} Forbidden\r\ncontent-length: 0\r\n\r\n`);
  });
  const running = await listen(server, sockets);
  return { ...running, asked };
}
