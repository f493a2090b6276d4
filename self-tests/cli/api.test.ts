// The programmatic API: a broken app is reported by its requirement, its findings read from code
// as the terminal words them. The examples in examples/in-process/ run as copied into another
// project, in self-tests/docs/package.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { failedRequirements, formatFindings, runConformance } from '../../src/run/api.js';
import { expectConformant } from '../../src/run/expect.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { reportView } from '../../src/report/view.js';
import { createReferenceHandler } from '../../src/reference-server/handler.js';
import { MANIFEST_FILE, REPORT_FILES } from '../../src/report/reporter.js';
import { root, tempDir } from '../net-kit.js';

/** The reference store as a fetch handler (Hono-style), its 201 bodies edited by `edit`. */
function fetchStore(apiKey: string, edit: (body: string) => string = (b) => b) {
  const store = createReferenceHandler({ apiKey });
  return async (request: Request) => {
    const url = new URL(request.url);
    const answer = await store({
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      body: request.method === 'GET' ? '' : await request.text(),
    });
    const body = answer.status === 201 ? edit(answer.body) : answer.body;
    return new Response(body, { status: answer.status, headers: answer.headers });
  };
}

test('a fetch handler that echoes no status is nonconformant, and the results say which requirement', async () => {
  const apiKey = 'api-test-key';
  const fetch = fetchStore(apiKey, (b) => JSON.stringify({ ...JSON.parse(b), status: undefined }));
  const results = await runConformance({ target: { fetch }, apiKey, only: ['createPet.status-echo'], seed: 3 });
  expect(results.verdict).toBe('nonconformant');
  expect(results.requirements.map((r) => [r.id, r.outcome])).toEqual([['createPet.status-echo', 'failed']]);
  expect(JSON.stringify(results)).not.toContain(apiKey);
});

test("the findings from code: the terminal summary's lines with each curl line, and expectConformant fails with them", async () => {
  const apiKey = 'api-findings-key';
  const fetch = fetchStore(apiKey, (b) => JSON.stringify({ ...JSON.parse(b), status: undefined }));
  const only = ['createPet.status-echo', 'service'];
  const results = await runConformance({ target: { fetch }, apiKey, only, seed: 3 });
  const text = formatFindings(results);
  const lines = text.split('\n');
  expect(lines[0]).toMatch(/^ Pet Store conformance \(interface 1\.0\.0, suite /);
  expect(text).toMatch(/^ verdict +NOT CONFORMANT: 1 MUST requirement violated: createPet.status-echo$/m);
  const finding = lines.findIndex((l) => l.startsWith(' ✘ createPet.status-echo '));
  expect(finding, text).toBeGreaterThan(0);
  expect(lines[finding + 1]).toMatch(/^ {6}Reproduce with: curl .*"authorization: Bearer \$PETSTORE_API_KEY"/);
  expect(text).not.toContain(apiKey);
  expect(text).not.toMatch(/\x1b\[/);
  // The same words as the terminal: every line but the curl lines is one of the summary's.
  const summary = renderTerminal(reportView(results)).split('\n');
  expect(lines.filter((l) => !l.includes('Reproduce with:') && !summary.includes(l))).toEqual([]);

  expect(failedRequirements(results)).toEqual([
    expect.objectContaining({ id: 'createPet.status-echo', level: 'MUST', message: expect.stringMatching(/status/) }),
  ]);
  expect(() => expectConformant(results)).toThrow(text);
  const conformant = await runConformance({ target: { fetch: fetchStore(apiKey) }, apiKey, only, seed: 3 });
  expect(failedRequirements(conformant)).toEqual([]);
  expect(() => expectConformant(conformant)).not.toThrow();
});

test('report files only with reportDir: the results either way', async () => {
  const apiKey = 'api-files-key';
  const fetch = fetchStore(apiKey);
  const dir = tempDir('api-files');
  // Without reportDir nothing is written where a run would write by default (the folder `reports`).
  const where = join(root, 'reports', 'conformance.json');
  const mtime = () => (existsSync(where) ? statSync(where).mtimeMs : null);
  const before = mtime();
  const quiet = await runConformance({ target: fetch, apiKey, only: ['service'], seed: 1 });
  expect(mtime()).toBe(before);
  const written = await runConformance({ target: fetch, apiKey, only: ['service'], seed: 1, reportDir: dir });
  expect([quiet.verdict, written.verdict]).toEqual(['conformant', 'conformant']);
  expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES, MANIFEST_FILE].sort());
  // The suite's own score (suite-score.json, measured by the kill matrix) rides on every report.
  const score = JSON.parse(readFileSync(join(root, 'suite-score.json'), 'utf8')) as unknown;
  expect(written.suite.score).toEqual(score);
  expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toMatch(
    /this suite catches \d+ of its \d+ seeded faults/,
  );
});

test('options are read as the settings are: a bad one names itself', async () => {
  await expect(runConformance({ target: 'http://127.0.0.1:9/v1', apiKey: 'k', concurrency: 0 })).rejects.toThrow(
    /concurrency/,
  );
});
