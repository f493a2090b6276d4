// The conformance requirements inside your own test run, against your Express app in-process:
// no port to pick, no server to start by hand. Run: node --import tsx --test express.test.ts
// (the same call works in a vitest or jest test). Its only dependencies are petstore-conformance
// and express. The app here stands for your service: it hands every request to the suite's
// reference implementation (published as petstore-conformance/reference-server); put yours there.
import { test } from 'node:test';
import express from 'express';
import { runConformance } from 'petstore-conformance';
import { expectConformant } from 'petstore-conformance/expect';
import { createReferenceHandler } from 'petstore-conformance/reference-server';

const API_KEY = 'example-key-for-express';

function petStoreApp() {
  const store = createReferenceHandler({ apiKey: API_KEY });
  const app = express();
  app.use(express.text({ type: () => true, limit: '10mb' }));
  app.use(async (req, res) => {
    const answer = await store({
      method: req.method,
      url: req.originalUrl,
      headers: req.headers as Record<string, string | undefined>,
      body: typeof req.body === 'string' ? req.body : '',
    });
    res.status(answer.status).set(answer.headers).send(answer.body);
  });
  return app;
}

test('the Express app conforms to the Pet Store Service Interface', async () => {
  const results = await runConformance({ target: petStoreApp(), apiKey: API_KEY, runs: 5 });
  // A failure's message is the findings as the terminal shows them, root cause first, each with its curl line.
  expectConformant(results);
});
