// The floor of `npm run bench` (a child process, bundled by it into .build/bench/floor.mjs): what any
// run of the suite must do at least. Run as: node .build/bench/floor.mjs N C
import { Agent, request } from 'undici';
import { createReferenceHandler } from '../src/reference-server/handler.js';
import { serve } from '../src/reference-server/http.js';

/**
 * It loads the libraries the checks need (undici, ajv with the interface's schemas compiled,
 * fast-check), bundled as a clone's command line is, starts the bundled server, and sends N requests, C at a time.
 */
async function floorMain(n: number, concurrency: number): Promise<void> {
  await import('fast-check');
  const { validate } = await import('../src/data/schemas.js');
  for (const schema of ['Pet', 'NewPet', 'Error', 'PetList'] as const) validate(schema, {});
  const apiKey = 'floor-key';
  const server = await serve(createReferenceHandler({ apiKey }));
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000, pipelining: 1 });
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next++ < n) {
        const res = await request(`${server.origin}/v1/pets`, {
          dispatcher: agent,
          headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
        });
        await res.body.text();
      }
    }),
  );
  await agent.close();
  await server.close();
}

await floorMain(Number(process.argv[2]), Number(process.argv[3]));
