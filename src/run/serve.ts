// A server under test given in-process (runConformance): a Node http.Server, a request listener
// (an Express app, Koa's callback()) or a fetch-style handler (Hono's app.fetch), served on an
// ephemeral loopback port for the run and closed after it.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

/** A fetch-style handler: a web Request in, a web Response out. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** What runConformance tests: a base URL, or a server it serves itself. */
export type InProcessTarget = Server | RequestListener | FetchHandler | { fetch: FetchHandler };

export interface Served {
  origin: string;
  close(): Promise<void>;
}

const isServer = (t: unknown): t is Server => typeof t === 'object' && t !== null && 'listen' in t && 'address' in t;

/**
 * Serves the target on 127.0.0.1. A function of one parameter is a fetch handler (a Request in);
 * one of two or more (req, res[, next]) a request listener; an object with `fetch` a fetch handler;
 * a server already listening is used as it is and left open.
 */
export async function serveInProcess(target: InProcessTarget): Promise<Served> {
  if (isServer(target) && target.listening) return { origin: originOf(target), close: async () => {} };
  const server = isServer(target)
    ? target
    : createServer(
        typeof target === 'function' && target.length >= 2
          ? (target as RequestListener)
          : fromFetch(typeof target === 'function' ? (target as FetchHandler) : target.fetch.bind(target)),
      );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    origin: originOf(server),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function originOf(server: Server): string {
  const address = server.address() as AddressInfo | null;
  if (!address) throw new Error('the server given as target is not listening on a TCP port');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
}

/** A Node request listener around a fetch-style handler. */
function fromFetch(handler: FetchHandler): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      try {
        const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Readable.toWeb(req);
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers))
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
        const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
          method: req.method ?? 'GET',
          headers,
          ...(body ? { body: body as ReadableStream, duplex: 'half' } : {}),
        } as RequestInit);
        const response = await handler(request);
        const raw: string[] = [];
        response.headers.forEach((value, name) => raw.push(name, value));
        res.writeHead(response.status, raw);
        res.end(Buffer.from(await response.arrayBuffer()));
      } catch (err) {
        // The handler threw: what a server framework answers then, a 500 with nothing of the error.
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(err instanceof Error ? 'internal error' : '');
      }
    })();
  };
}
