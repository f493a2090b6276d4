// Hostile servers on 127.0.0.1, each misbehaving in one way, each a few lines. A server "with a
// door" answers unauthenticated requests like the reference server (so the CLI's probe, an
// unauthenticated GET /pets, finds it reachable and the whole suite runs) and misbehaves on every
// request that carries the right key; without a door it misbehaves on everything.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createReferenceHandler } from '../../src/reference-server/handler.js';

/** What a server saw and did, for assertions about the client's side of the exchange. */
export interface Seen {
  /** Requests received. */
  requests: number;
  /** Requests it misbehaved on. */
  hostile: number;
  /** Large bodies: bytes the kernel took from each before the client dropped the connection or it ended. */
  bodies: { sent: number; complete: boolean }[];
}

export interface HostileServer {
  baseUrl: string;
  apiKey: string;
  seen: Seen;
  close(): Promise<void>;
}

/** Misbehaves on one request; `done` is called when the exchange is over (answered or dropped). */
type Behaviour = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

const JSON_TYPE = { 'content-type': 'application/json' };
const PET = '{"id":1,"name":"hostile","categoryId":1}';

/** 200 bodies that are not JSON, with the content type each would come with. */
const NOT_JSON: readonly [string, string][] = [
  [
    'text/html; charset=utf-8',
    '<!doctype html><html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>',
  ],
  ['application/json', `[${PET},{"id":2,"name":"trunc`],
  ['application/json', ''],
];

/** Holds the exchange open: calls `tick` every `ms` until the connection closes. */
function everyUntilClosed(res: ServerResponse, ms: number, tick: () => void): void {
  const timer = setInterval(tick, ms);
  res.socket?.once('close', () => clearInterval(timer));
}

export const BEHAVIOURS = {
  /** Reads the request and never answers. */
  silent: () => {},
  /** Status line and headers promising a body, one fragment of it, then nothing. */
  stallBody: (_req, res) => {
    res.writeHead(200, { ...JSON_TYPE, 'content-length': '1000' });
    res.write('[{"id":1,');
  },
  /** A valid list, one byte a second. */
  drip: (_req, res) => {
    res.writeHead(200, JSON_TYPE);
    const text = `[${Array(1000).fill(PET).join(',')}]`;
    let i = 0;
    res.write(text[i++]);
    everyUntilClosed(res, 1000, () => res.write(text[i++ % text.length]));
  },
  /** Headers and half the body, then a TCP reset. */
  reset: (_req, res) => {
    const body = `[${PET},${PET}]`;
    res.writeHead(200, { ...JSON_TYPE, 'content-length': String(body.length) });
    res.write(body.slice(0, body.length / 2), () => res.socket?.resetAndDestroy());
  },
  /** Content-Length promises more than is sent, then the connection is closed. */
  lengthTooLong: (_req, res) => {
    const socket = res.socket;
    res.writeHead(200, { ...JSON_TYPE, 'content-length': '4096' });
    res.end(`[${PET}]`, () => socket?.destroy());
  },
  /** Content-Length promises less than is sent: the rest lands where the next response should start. */
  lengthTooShort: (_req, res) => {
    const body = `[${PET},${PET}]`;
    res.writeHead(200, { ...JSON_TYPE, 'content-length': '8' });
    res.end(body);
  },
  /** An HTML page, truncated JSON and an empty body, in turn: 200 and never JSON. */
  notJson: (_req, res, seen) => {
    const [type, body] = NOT_JSON[seen.hostile % NOT_JSON.length] as [string, string];
    res.writeHead(200, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  },
  /** A valid JSON list of 50 MB, written as fast as the client reads, stopping when it hangs up. */
  huge: (_req, res, seen) => {
    const total = 50 * 1024 * 1024;
    const chunk = Buffer.from(`${Array(1000).fill(PET).join(',')},`);
    const record = { sent: 0, complete: false };
    seen.bodies.push(record);
    res.writeHead(200, { ...JSON_TYPE, 'content-length': String(total) });
    res.write('[');
    let written = 1;
    const socket = res.socket as Socket;
    socket.once('close', () => (record.sent = socket.bytesWritten));
    const pump = () => {
      while (!res.destroyed && written < total) {
        const left = total - written;
        const piece = left > chunk.length ? chunk : Buffer.concat([chunk.subarray(0, left - 2), Buffer.from('1]')]);
        written += piece.length;
        if (written >= total) {
          res.end(piece, () => (record.complete = true));
          return;
        }
        if (!res.write(piece)) return void res.once('drain', pump);
      }
    };
    pump();
  },
  /** Ten thousand nested arrays: valid JSON, but deeper than any parser should follow. */
  deep: (_req, res) => {
    res.writeHead(200, JSON_TYPE);
    res.end(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
  },
  /** 500 with a plain-text body, for everything. */
  error500: (_req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('Internal Server Error');
  },
  /** 429 with Retry-After: 1 for everything, forever. */
  rateLimited: (_req, res) => {
    res.writeHead(429, { ...JSON_TYPE, 'retry-after': '1' });
    res.end('{"code":"rate_limited","message":"slow down","status":429}');
  },
} satisfies Record<string, Behaviour>;

export type BehaviourName = keyof typeof BEHAVIOURS;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return (server.address() as AddressInfo).port;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

/** A server that misbehaves as `behaviour` says, on every request or (with a door) on authenticated ones. */
export async function hostileServer(
  behaviour: Behaviour | BehaviourName,
  { door = false } = {},
): Promise<HostileServer> {
  const behave: Behaviour = typeof behaviour === 'string' ? BEHAVIOURS[behaviour] : behaviour;
  const apiKey = `hostile-${randomBytes(9).toString('hex')}`;
  const reference = createReferenceHandler({ apiKey });
  const seen: Seen = { requests: 0, hostile: 0, bodies: [] };
  const server = createServer((req, res) => {
    seen.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (door && req.headers.authorization !== `Bearer ${apiKey}`) {
        const out = await reference({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(out.status, out.headers).end(out.body);
        return;
      }
      seen.hostile++;
      behave(req, res, seen);
    });
  });
  // A lying Content-Length is the point of some servers: never let Node correct it.
  server.on('clientError', (_err, socket) => socket.destroy());
  const port = await listen(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey, seen, close: closer(server) };
}

/** Counts requests that reach it: the target of a redirect, which the suite must never follow. */
export async function elsewhere(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, JSON_TYPE).end('[]');
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/somewhere-else`, hits: () => hits, close: closer(server) };
}

/** 302 to `location` for everything. */
export const redirectTo =
  (location: string): Behaviour =>
  (_req, res) => {
    res.writeHead(302, { location, 'content-type': 'text/html' });
    res.end(`<a href="${location}">Found</a>`);
  };
