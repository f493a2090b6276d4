// The conformance requirements against a fetch-style handler in-process (Hono's app.fetch, or any
// `(request: Request) => Response`): the suite serves it on a loopback port for the run. Run:
// node --import tsx --test hono.test.ts. The app here stands for your service: it hands every
// request to the suite's bundled reference implementation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hono } from 'hono';
import { runConformance } from 'petstore-conformance';
import { createReferenceHandler } from '../../src/reference-server/handler.js';

const API_KEY = 'example-key-for-hono';

function petStoreApp() {
  const store = createReferenceHandler({ apiKey: API_KEY });
  const app = new Hono();
  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    const answer = await store({
      method: c.req.method,
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(c.req.raw.headers),
      body: c.req.method === 'GET' || c.req.method === 'HEAD' ? '' : await c.req.text(),
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
  return app;
}

test('the Hono app conforms to the Pet Store Service Interface', async () => {
  const results = await runConformance({ target: petStoreApp(), apiKey: API_KEY, runs: 5 });
  const notMet = results.requirements.filter((r) => r.level === 'MUST' && r.outcome !== 'passed');
  assert.deepEqual(
    notMet.map((r) => `${r.id}: ${r.checks[0]?.message ?? r.outcome}`),
    [],
  );
  assert.equal(results.verdict, 'conformant');
});
