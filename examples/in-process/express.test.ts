// The conformance requirements inside your own test run, against your Express app in-process:
// no port to pick, no server to start by hand. Run: node --import tsx --test express.test.ts
// (the same call works in a vitest or jest test). The app here stands for your service: it hands
// every request to the suite's bundled reference implementation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import express from 'express';
import { runConformance } from 'petstore-conformance';
import { createReferenceHandler } from '../../src/reference-server/handler.js';

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
  const notMet = results.requirements.filter((r) => r.level === 'MUST' && r.outcome !== 'passed');
  assert.deepEqual(
    notMet.map((r) => `${r.id}: ${r.checks[0]?.message ?? r.outcome}`),
    [],
  );
  assert.equal(results.verdict, 'conformant');
});
