// Local network pieces for the CLI and client self-tests: the real bin as a child process (the one
// helper that spawns it), the reference server behind counters, TLS and proxies, and targets that
// cannot be reached. All on 127.0.0.1; every server is closed by the test that made it.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { connect as netConnect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { fileURLToPath } from 'node:url';
import {
  createReferenceHandler,
  type Handler,
  type ReferenceOptions,
  type ServerRequest,
} from '../src/reference-server/handler.js';
import { serve, type RunningServer } from '../src/reference-server/http.js';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const bin = fileURLToPath(new URL('../bin/petstore-conformance.js', import.meta.url));

/** For tests that start the bin: a whole run in a child process can be slow on a busy machine. */
export const CHILD_TIMEOUT = { timeout: 600_000 } as const;

export function tempDir(label = 'cli'): string {
  return mkdtempSync(join(tmpdir(), `petstore-${label}-`));
}

/**
 * The caller's environment without anything that would steer the suite or its network; `extra`
 * on top (a value of undefined leaves the variable unset, NO_COLOR too).
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const steering = /^(PETSTORE_|VITEST|NODE_EXTRA_CA_CERTS$|https?_proxy$|no_proxy$|GITHUB_STEP_SUMMARY$)/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !steering.test(k)));
  return { ...env, NO_COLOR: '1', ...extra };
}

export interface BinRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they arrived. */
  out: string;
  ms: number;
  cwd: string;
}

export interface StartedBin<Run = BinRun> {
  child: ChildProcess;
  /** Milliseconds since the child was spawned. */
  elapsed(): number;
  /** Resolves with the first output chunk matching `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  done: Promise<Run>;
}

export interface BinOptions {
  /** Over cleanEnv(). */
  env?: Record<string, string | undefined>;
  /** Default: a fresh temp folder (where the reports land). */
  cwd?: string;
  /** Node's own flags, before the bin. */
  nodeFlags?: string[];
}

/** The one place the real bin is spawned: a child process to watch, signal or wait for. */
export function startBin(
  args: string[],
  { env = {}, cwd = tempDir('run'), nodeFlags = [] }: BinOptions = {},
): StartedBin {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, bin, ...args], { cwd, env: cleanEnv(env) });
  let out = '';
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: () => void }[] = [];
  const seen = (chunk: string) => {
    out += chunk;
    for (const w of [...watchers]) if (w.pattern.test(out)) (watchers.splice(watchers.indexOf(w), 1), w.resolve());
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((stdout += d), seen(d)));
  child.stderr.setEncoding('utf8').on('data', (d: string) => ((stderr += d), seen(d)));
  const done = new Promise<BinRun>((resolve) =>
    child.on('close', (code, signal) =>
      resolve({ code, signal, out, stdout, stderr, ms: Math.round(performance.now() - started), cwd }),
    ),
  );
  return {
    child,
    elapsed: () => performance.now() - started,
    waitFor: (pattern) =>
      new Promise((resolve) => (pattern.test(out) ? resolve() : watchers.push({ pattern, resolve }))),
    done,
  };
}

/**
 * Runs the real bin to its end. Properties run 5 cases unless `env` or a flag says otherwise:
 * what these runs prove is the command, and the properties are proven at the default 50 by the
 * kill matrix, in-process.
 */
export function runBin(
  args: string[],
  { env = {}, cwd }: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<BinRun> {
  // (--show-config shows where each setting comes from: there the default must stay unset.)
  const runs = args.includes('--show-config') ? {} : { PETSTORE_RUNS: '5' };
  return startBin(args, { env: { ...runs, ...env }, ...(cwd === undefined ? {} : { cwd }) }).done;
}

/** What a server saw, for proving what the suite sent. */
export interface Traffic {
  methods: Record<string, number>;
  /** Responses by status. */
  statuses: Record<number, number>;
  /** Request bodies of POSTs, as sent. */
  posted: string[];
  /** Pets created (201 answers): id digits as sent, and name. */
  created: { id: string; name: unknown }[];
  inFlight: number;
  maxInFlight: number;
}

export interface TestServer extends RunningServer {
  apiKey: string;
  baseUrl: string;
  traffic: Traffic;
}

/**
 * The reference handler, optionally wrapped, behind a counter of methods, statuses and requests
 * in flight; `delayMs` holds each answer so concurrent requests overlap.
 */
export async function referenceServer({
  wrap = (h) => h,
  delayMs = 0,
  options = {},
  apiKey = `self-test-${randomBytes(9).toString('hex')}`,
}: {
  wrap?: (inner: Handler, apiKey: string) => Handler;
  delayMs?: number;
  /** For the handler underneath (a fault's clock or first id). */
  options?: Partial<ReferenceOptions>;
  /** The key it accepts (default: one of its own); servers sharing one let a single process test them all. */
  apiKey?: string;
} = {}): Promise<TestServer> {
  const inner = wrap(createReferenceHandler({ ...options, apiKey }), apiKey);
  const traffic: Traffic = { methods: {}, statuses: {}, posted: [], created: [], inFlight: 0, maxInFlight: 0 };
  const counted: Handler = async (req: ServerRequest) => {
    traffic.methods[req.method] = (traffic.methods[req.method] ?? 0) + 1;
    if (req.method === 'POST') traffic.posted.push(req.body);
    traffic.maxInFlight = Math.max(traffic.maxInFlight, ++traffic.inFlight);
    try {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const res = await inner(req);
      traffic.statuses[res.status] = (traffic.statuses[res.status] ?? 0) + 1;
      if (req.method === 'POST' && res.status === 201) {
        // The id's digits as written: beyond 2^53 a JSON.parse would round them.
        traffic.created.push({
          id: /"id"\s*:\s*(-?\d+)/.exec(res.body)?.[1] ?? '',
          name: (JSON.parse(res.body) as { name?: unknown }).name,
        });
      }
      return res;
    } finally {
      traffic.inFlight--;
    }
  };
  const server = await serve(counted);
  return { ...server, apiKey, baseUrl: `${server.origin}/v1`, traffic };
}

/** Env for the bin to test `server` with its key in PETSTORE_API_KEY. */
export const targetEnv = (server: { baseUrl: string; apiKey: string }) => ({
  PETSTORE_BASE_URL: server.baseUrl,
  PETSTORE_API_KEY: server.apiKey,
});

interface Closable {
  port: number;
  close(): Promise<void>;
}

function listen(server: Server | ReturnType<typeof createNetServer>, sockets: Set<Socket>): Promise<Closable> {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}

/** A port nothing listens on: connections are refused. */
export async function closedPort(): Promise<number> {
  const s = await listen(createNetServer(), new Set());
  await s.close();
  return s.port;
}

/** Accepts connections and never answers: every request times out. */
export function blackHole(): Promise<Closable> {
  return listen(
    createNetServer(() => {}),
    new Set(),
  );
}

export interface Certificates {
  dir: string;
  /** PEM of the private CA, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  key: string;
  cert: string;
}

/** A private CA and a server certificate for localhost, 127.0.0.1 and `ips`, made with openssl (no network). */
export function makeCertificates(ips: readonly string[] = []): Certificates {
  const dir = tempDir('tls');
  const at = (f: string) => join(dir, f);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=petstore-conformance self-test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(
    at('server.ext'),
    `subjectAltName=DNS:localhost,${['127.0.0.1', ...ips].map((ip) => `IP:${ip}`).join(',')}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  return {
    dir,
    caFile: at('ca.pem'),
    key: readFileSync(at('server.key'), 'utf8'),
    cert: readFileSync(at('server.pem'), 'utf8'),
  };
}

/** Terminates TLS in front of a plain-HTTP server, as a load balancer would. */
export async function tlsFront(certs: Certificates, httpPort: number): Promise<Closable & { origin: string }> {
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key: certs.key, cert: certs.cert }, (tls) => {
    const upstream = netConnect(httpPort, '127.0.0.1');
    sockets.add(upstream);
    tls.pipe(upstream).pipe(tls);
    const end = () => (tls.destroy(), upstream.destroy());
    tls.on('error', end);
    upstream.on('error', end);
  });
  const running = await listen(server as unknown as Server, sockets);
  return { ...running, origin: `https://localhost:${running.port}` };
}

export interface Proxy extends Closable {
  url: string;
  /** Absolute-form requests forwarded (plain-HTTP targets). */
  forwarded: string[];
  /** CONNECT tunnels opened (HTTPS targets), as host:port. */
  tunnels: string[];
}

/** A tiny forward proxy: absolute-form HTTP requests and CONNECT tunnels, both recorded. */
export async function forwardProxy(): Promise<Proxy> {
  const forwarded: string[] = [];
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    forwarded.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    sockets.add(client);
    const end = () => (client.destroy(), upstream.destroy());
    upstream.on('error', end);
    client.on('error', end);
  });
  const running = await listen(server, sockets);
  return { ...running, url: `http://127.0.0.1:${running.port}`, forwarded, tunnels };
}
