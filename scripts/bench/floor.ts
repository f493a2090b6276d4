// The floor of `npm run bench` (a child process, bundled by floor-run.ts into .build/bench/floor.mjs): what any
// run of the suite must do at least. Run as: node .build/bench/floor.mjs REQUESTS.json C [ORIGIN]
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { createReferenceHandler, DEFAULT_MAX_BODY_BYTES } from '../../src/reference-server/handler.js';
import { serve } from '../../src/reference-server/http.js';
import { PLACEHOLDER } from '../../src/wire/redact.js';

/** A request of a run, as its HAR recorded it (see replayOf in scripts/bench/replay.ts). */
export interface Replayed {
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** As sent, the key written as PLACEHOLDER. */
  headers: Record<string, string>;
  body?: string;
}

/**
 * The fastest way to send a run's exchanges (issue 42): its requests in their order, C at a time on
 * C kept-alive connections, each answer read whole, nothing else loaded (no schemas, no
 * generators), to ORIGIN with the key in FLOOR_API_KEY, or to the bundled server it starts when no
 * ORIGIN is given. Nothing waits for an answer but its slot: no checks, no evidence, no reports.
 */
async function floorMain(file: string, concurrency: number, target: string | undefined): Promise<void> {
  const requests = JSON.parse(readFileSync(file, 'utf8')) as Replayed[];
  const apiKey = target ? (process.env.FLOOR_API_KEY ?? '') : 'floor-key';
  const server = target
    ? undefined
    : await serve(createReferenceHandler({ apiKey }), { maxBodyBytes: DEFAULT_MAX_BODY_BYTES });
  const origin = target ?? (server as { origin: string }).origin;
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000, pipelining: 1 });
  const send = async ({ method, path, headers, body }: Replayed) => {
    try {
      const res = await agent.request({
        origin,
        path,
        method: method as 'GET',
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replaceAll(PLACEHOLDER, apiKey)])),
        ...(body === undefined ? {} : { body }),
      });
      await res.body.text();
    } catch {
      // An upload the server refused by closing, or a path undici will not send: one request fewer.
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, requests.length) }, async () => {
      while (next < requests.length) await send(requests[next++] as Replayed);
    }),
  );
  await agent.close();
  await server?.close();
}

await floorMain(process.argv[2] ?? '', Number(process.argv[3]), process.argv[4]);
