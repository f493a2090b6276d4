// The floor of `npm run bench` (a child process, bundled by floor-run.ts into .build/bench/floor.mjs): what any
// run of the suite must do at least. Run as: node .build/bench/floor.mjs REQUESTS.json C
import { readFileSync } from 'node:fs';
import { Agent, Client } from 'undici';
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
 * It loads the libraries the checks need (undici, ajv with the interface's schemas compiled,
 * fast-check), bundled as a clone's command line is, starts the bundled server as the command line
 * does, and sends the run's requests in their order, C at a time, each answer read whole. Nothing
 * waits for an answer but its slot: no checks, no evidence, no reports. A POST goes on a connection
 * of its own, as the suite must send it (a server may close a kept-alive connection just as a request
 * arrives, and a POST is never sent twice: docs/network.md); the rest on kept-alive connections.
 */
async function floorMain(file: string, concurrency: number): Promise<void> {
  await import('fast-check');
  const { validate } = await import('../../src/data/schemas.js');
  for (const schema of ['Pet', 'NewPet', 'Error', 'PetList'] as const) validate(schema, {});
  const requests = JSON.parse(readFileSync(file, 'utf8')) as Replayed[];
  const apiKey = 'floor-key';
  const server = await serve(createReferenceHandler({ apiKey }), { maxBodyBytes: DEFAULT_MAX_BODY_BYTES });
  const origin = server.origin;
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000, pipelining: 1 });
  const closing: Promise<void>[] = [];
  const send = async ({ method, path, headers, body }: Replayed) => {
    const own = method === 'POST' ? new Client(origin) : undefined;
    try {
      const res = await (own ?? agent).request({
        origin,
        path,
        method: method as 'GET',
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replaceAll(PLACEHOLDER, apiKey)])),
        ...(body === undefined ? {} : { body }),
      });
      await res.body.text();
    } catch {
      // An upload the server refused by closing, or a path undici will not send: one request fewer.
    } finally {
      if (own) closing.push(own.close());
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, requests.length) }, async () => {
      while (next < requests.length) await send(requests[next++] as Replayed);
    }),
  );
  await Promise.all(closing);
  await agent.close();
  await server.close();
}

await floorMain(process.argv[2] ?? '', Number(process.argv[3]));
