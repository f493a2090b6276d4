// Serves a Handler over node:http. Used for the embedded target, `npm run serve`, and the
// broken-server harness.
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { errorResponse, type Handler, type ServerResponse } from './handler.js';

/**
 * Bodies are read whole up to this bound, unless serve() is given the handler's own (lower) limit;
 * beyond it the rest is drained, not kept, and 413 answered here.
 */
const MAX_BODY_BYTES = 16 << 20;

export interface RunningServer {
  /** Origin, e.g. http://127.0.0.1:40123 (no trailing slash). */
  origin: string;
  server: Server;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Drained to the end even when too large: leaving the loop early destroys the request, which
  // can reset the connection while the client still sends, before it reads the 413.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= max) chunks.push(chunk);
  }
  return size > max ? undefined : Buffer.concat(chunks).toString('utf8');
}

export interface ServeOptions {
  host?: string;
  port?: number;
  maxBodyBytes?: number;
  /** PEM key and certificate: served over HTTPS (the bench's HTTPS rows). */
  tls?: { key: string; cert: string };
}

export async function serve(
  handler: Handler,
  { host = '127.0.0.1', port = 0, maxBodyBytes = MAX_BODY_BYTES, tls }: ServeOptions = {},
): Promise<RunningServer> {
  const listener: RequestListener = async (req, res) => {
    let out: ServerResponse;
    try {
      const body = await readBody(req, maxBodyBytes);
      out =
        body === undefined
          ? errorResponse(413, 'body_too_large', `Request bodies are limited to ${maxBodyBytes} bytes`)
          : await handler({
              method: req.method ?? 'GET',
              url: req.url ?? '/',
              headers: req.headers as Record<string, string | undefined>,
              body,
            });
    } catch (err) {
      out = errorResponse(500, 'internal_error', err instanceof Error ? err.message : String(err));
    }
    if (res.destroyed) return;
    res.writeHead(out.status, { ...out.headers, 'content-length': Buffer.byteLength(out.body) });
    res.end(out.body);
  };
  const server = tls ? createTlsServer(tls, listener) : createServer(listener);
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `${tls ? 'https' : 'http'}://${host}:${bound}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
