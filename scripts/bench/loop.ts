// The plain loop: as many requests as the suite sent (GET /pets, keep-alive) with the same
// concurrency, through undici alone. A child process (`scripts/bench.ts --loop`), so the server keeps its
// own core as with the suite.
import { spawn } from 'node:child_process';
import { Agent, request } from 'undici';
import { ENTRY, ROOT } from './config.js';
import type { BenchServer } from './network.js';

/** `--loop BASE_URL KEY N C`: prints `{ n, ms }` as JSON. */
export async function loopMain(baseUrl: string, apiKey: string, n: number, concurrency: number): Promise<void> {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000, pipelining: 1 });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) {
        const res = await request(`${baseUrl}/pets`, {
          dispatcher: agent,
          headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
        });
        await res.body.text();
      }
    }),
  );
  console.log(JSON.stringify({ n, ms: performance.now() - started }));
  await agent.close();
}

export async function runLoop(server: BenchServer, n: number, concurrency: number): Promise<{ rps: number }> {
  const args = ['--import', 'tsx', ENTRY, '--loop', server.baseUrl, server.apiKey, String(n), String(concurrency)];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((done) => child.on('exit', done));
  const { ms } = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { ms: number };
  return { rps: (n / ms) * 1000 };
}
