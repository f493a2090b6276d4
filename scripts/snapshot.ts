// The reports of a fixed set of seeded runs of the command line, with what changes from one run
// to the next (times, durations, ports, the commit, digests and the suite's size) written as placeholders: a change that
// must not change what the suite says (a restructuring) leaves them byte-identical.
// Run: npm run snapshot -- DIR (before and after), then `diff -r` the two folders.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createReferenceHandler } from '../src/reference-server/handler.js';
import { serve } from '../src/reference-server/http.js';
import { faults } from '../self-tests/harness/faults/index.js';
import { variants } from '../self-tests/harness/variants.js';
import type { ServerSetup } from '../self-tests/harness/faults-kit.js';

const bin = fileURLToPath(new URL('../bin/petstore-conformance.js', import.meta.url));
const KEY = 'snapshot-key-0123456789';

interface Snap {
  name: string;
  setup: string;
  args?: string[];
  key?: string;
}

/** Faults (one whose failures group under a root), a variant, strict, read-only, not tested. */
const RUNS: Snap[] = [
  { name: 'reference', setup: 'reference' },
  { name: 'root-cause', setup: 'category-stored-as-double' },
  { name: 'html-404', setup: 'html-404-unknown-path' },
  { name: 'status-not-echoed', setup: 'status-not-echoed' },
  { name: 'list-repeats', setup: 'list-repeats-first-for-last' },
  { name: 'variant', setup: 'clamp-limit' },
  { name: 'strict', setup: 'default-ten', args: ['--strict'] },
  { name: 'read-only', setup: 'reference', args: ['--read-only'] },
  { name: 'not-tested', setup: 'reference', key: 'not-the-key' },
];

function setupOf(name: string): ServerSetup {
  if (name === 'reference') return { wrap: (h) => h };
  const found = [...faults, ...variants].find((s) => s.name === name);
  if (!found) throw new Error(`no fault or variant ${name}`);
  return found;
}

/** Times, durations, ports, the commit and digests as placeholders. */
export function normalise(text: string): string {
  return (
    text
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/g, '<time>')
      .replace(/[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT/g, '<http-date>')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      .replace(/\b[0-9a-f]{64}\b/g, '<sha256>')
      // A run's trace id is random (RunConfig.traceId).
      .replace(/\b[0-9a-f]{32}\b/g, '<trace>')
      .replace(/\b[0-9a-f]{40}\b|\b[0-9a-f]{12}\b/g, '<commit>')
      .replace(
        /("durationMs"|"ms"|"time"|"elapsedMs"|"wait"|"bytes"|"files"|"medianMs"|"p95Ms"):\s*\d+(\.\d+)?/g,
        '$1: <n>',
      )
      .replace(/time="\d+(\.\d+)?"/g, 'time="<n>"')
      .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<duration>')
  );
}

async function snap(run: Snap, dir: string): Promise<number | null> {
  const { wrap, options = {}, prepare } = setupOf(run.setup);
  const handler = wrap(createReferenceHandler({ apiKey: KEY, ...options, basePath: '/v1' }), KEY);
  await prepare?.({ handler, apiKey: KEY, basePath: '/v1' });
  const server = await serve(handler);
  const out = join(dir, run.name);
  try {
    const env = {
      PATH: process.env.PATH,
      PETSTORE_BASE_URL: `${server.origin}/v1`,
      PETSTORE_API_KEY: run.key ?? KEY,
      PETSTORE_SEED: '7',
      PETSTORE_RUNS: '5',
      // One request at a time: the server hands out ids in the same order every run.
      PETSTORE_CONCURRENCY: '1',
      PETSTORE_NOW: '2026-06-01T00:00:00Z',
      NO_COLOR: '1',
    };
    const child = spawn(process.execPath, [bin, '--report-dir', out, ...(run.args ?? [])], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'terminal.txt'), text);
    for (const file of readdirSync(out))
      writeFileSync(join(out, file), normalise(readFileSync(join(out, file), 'utf8').replaceAll(dir, '<dir>')));
    return code;
  } finally {
    await server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? 'snapshot');
  rmSync(dir, { recursive: true, force: true });
  for (const run of RUNS) console.log(`${run.name}: exit ${await snap(run, dir)}`);
  console.log(`wrote ${dir}; compare two with diff -r`);
}
