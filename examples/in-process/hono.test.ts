// The conformance requirements against a fetch-style handler in-process (Hono's app.fetch, or any
// `(request: Request) => Response`): the suite serves it on a loopback port for the run. Run:
// node --import tsx --test hono.test.ts. Its only dependencies are petstore-conformance and hono.
// The app here stands for your service: it hands every request to the suite's reference
// implementation (published as petstore-conformance/reference-server); put yours there.
import { test } from 'node:test';
import { Hono } from 'hono';
import { runConformance } from 'petstore-conformance';
import { expectConformant } from 'petstore-conformance/expect';
import { createReferenceHandler } from 'petstore-conformance/reference-server';

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
  // A failure's message is the findings as the terminal shows them, root cause first, each with its curl line.
  expectConformant(results);
});
