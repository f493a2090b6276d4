// Servers that refuse large bodies and close connections the way popular stacks do, on 127.0.0.1,
// each serving a Handler (the reference handler) behind the socket-level behaviour: an early 413
// and a close under the upload (fastify's bodyLimit, Go's http.MaxBytesReader), an early 400 that
// reads the body to its end, a reset without an answer once a body passes 1 MiB, and a server
// that closes a kept-alive connection as a request arrives on it, at random (seeded) moments.
import { STATUS_CODES } from 'node:http';
import { createServer, type Socket } from 'node:net';
import type { Handler, ServerResponse } from '../../src/reference-server/handler.js';
import { errorResponse } from '../../src/reference-server/handler.js';
import { listen, readHead } from './infra-servers.js';

/** The size limit of these servers: a body over it is refused. */
export const BODY_LIMIT = 1024 * 1024;

export type Refusal =
  /** 413 with the Error body as soon as the head shows a body over the limit, then a close (a reset: the body is unread). */
  | { kind: 'early-413' }
  /** The same with an HTML page: not the Error body the interface asks for. */
  | { kind: 'early-413-html' }
  /** 400 with the Error body as soon as the head shows a body over the limit; the body is then read to its end. */
  | { kind: 'early-400' }
  /** Reads a body over the limit up to the limit, then resets the connection without a word. */
  | { kind: 'reset-large' }
  /** A request arriving on a connection that already carried one is dropped, with the connection, with probability `p`. */
  | { kind: 'close-kept-alive'; seed: number; p: number };

export interface RefusalServer {
  origin: string;
  /** What the server did: refusals of a large body, requests dropped with their connection (by method), requests answered. */
  seen: { refused: number; dropped: Record<string, number>; answered: number };
  close(): Promise<void>;
}

/** mulberry32: a small seeded generator, so a run that fails can be replayed with its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const statusAndHeaders = (res: ServerResponse, body: Buffer, close: boolean) =>
  [
    `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? 'X'}`,
    ...Object.entries(res.headers).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${body.length}`,
    `connection: ${close ? 'close' : 'keep-alive'}`,
    '',
    '',
  ].join('\r\n');

function write(socket: Socket, res: ServerResponse, close: boolean): void {
  const body = Buffer.from(res.body, 'utf8');
  socket.write(statusAndHeaders(res, body, close));
  socket.write(body);
}

const TOO_LARGE_PAGE: ServerResponse = {
  status: 413,
  headers: { 'content-type': 'text/html' },
  body: '<html><body><h1>413 Request Entity Too Large</h1></body></html>',
};

/** An HTTP/1.1 server (Content-Length bodies) serving `handler` with `refusal` in front. */
export async function refusalServer(handler: Handler, refusal: Refusal): Promise<RefusalServer> {
  const seen: RefusalServer['seen'] = { refused: 0, dropped: {}, answered: 0 };
  const random = refusal.kind === 'close-kept-alive' ? seeded(refusal.seed) : Math.random;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    let buffer: Buffer = Buffer.alloc(0);
    let served = 0;
    /** Bytes of a refused body still to read and throw away (early-400). */
    let discard = 0;
    let busy = false;
    const next = async (): Promise<void> => {
      if (busy || socket.destroyed) return;
      if (discard > 0) {
        const n = Math.min(discard, buffer.length);
        discard -= n;
        buffer = buffer.subarray(n);
        if (discard > 0) return;
      }
      const head = readHead(buffer);
      if (!head) return;
      const { method, url, headers, length, bodyAt } = head;
      if (served > 0 && refusal.kind === 'close-kept-alive' && random() < refusal.p) {
        seen.dropped[method] = (seen.dropped[method] ?? 0) + 1;
        socket.destroy();
        return;
      }
      if (length > BODY_LIMIT && refusal.kind !== 'close-kept-alive') {
        if (refusal.kind === 'reset-large') {
          if (buffer.length - bodyAt <= BODY_LIMIT) return; // reads on up to the limit
          seen.refused++;
          socket.resetAndDestroy();
          return;
        }
        seen.refused++;
        buffer = buffer.subarray(bodyAt);
        if (refusal.kind === 'early-400') {
          write(
            socket,
            errorResponse(400, 'body_too_large', `the body is over the ${BODY_LIMIT} bytes this server reads`),
            false,
          );
          served++;
          discard = length;
          return next();
        }
        write(
          socket,
          refusal.kind === 'early-413'
            ? errorResponse(413, 'body_too_large', 'request body too large')
            : TOO_LARGE_PAGE,
          true,
        );
        socket.destroy();
        return;
      }
      if (buffer.length < bodyAt + length) return;
      const body = buffer.subarray(bodyAt, bodyAt + length).toString('utf8');
      buffer = buffer.subarray(bodyAt + length);
      busy = true;
      const res = await handler({ method, url, headers, body });
      busy = false;
      if (socket.destroyed) return;
      const close = /\bclose\b/i.test(headers.connection ?? '');
      write(socket, res, close);
      seen.answered++;
      served++;
      if (close) return void socket.end();
      return next();
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      void next();
    });
    socket.on('error', () => socket.destroy());
  });
  const { origin, close } = await listen(server, sockets);
  return { origin, seen, close };
}
