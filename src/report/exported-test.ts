// A failed requirement as one standalone test file (`export`): its recorded requests sent again with
// fetch (Node 20's global), the key from $PETSTORE_API_KEY, and what the failed assertions expected,
// as the report recorded it (Exchange.expected). It runs in any project, with node:test or vitest.
import type { RequirementResult, Results } from './results.js';
import { oneLine } from './words.js';
import { EXPECTATION_CHECKS } from './exported-checks.js';
import { HEADER_PARSERS } from '../data/generated/header-parsers.js';
import type { BodyMember, Exchange, Expectation } from '../wire/evidence.js';
import { stringifyJson } from '../wire/json.js';
import { PLACEHOLDER } from '../wire/redact.js';

export type TestRunner = 'node' | 'vitest';
export const TEST_RUNNERS: readonly TestRunner[] = ['node', 'vitest'];

export type ExportedTest = { file: string; text: string; asserted: number; cases: number } | { skipped: string };

/** What a test file holds of one exchange: the request after the base URL, and what its answer must be. */
interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A body the report cut, whole: Brotli in base64 (RecordedRequest). */
  bodyBrotli?: string;
  /** The id digits the run's answer held, for the new ids a later request uses. */
  ids: string[];
  expected?: Expectation;
}

/** Headers fetch sets itself or refuses; traceparent named a span of the run, not of this test. */
const NOT_SENT = new Set(['host', 'content-length', 'connection', 'traceparent', 'transfer-encoding']);
const CUT_BODY = /… \(\d+ chars\)$/;
const idsIn = (text: string) => [...text.matchAll(/"id"\s*:\s*(-?\d+)/g)].map((m) => m[1] as string);

/**
 * Whether the exchange reads a pet no earlier recorded answer gave, where it must be a success (its
 * statuses), or its body or headers are those of the success it was: state from requests the report
 * does not hold. (Content-Type, no 5xx, an error's body hold of any answer.)
 */
function readsUnheldPet({ expected: x, response }: Exchange, path: string, given: ReadonlySet<string>): boolean {
  const success = (s: number) => s >= 200 && s < 300;
  const ofSuccess = x?.status
    ? x.status.every(success)
    : success(response?.status ?? 0) && (x?.body ?? x?.fields ?? x?.headers ?? x?.headerMatches) !== undefined;
  return ofSuccess && path.split(/[/?]/).some((segment) => /^-?\d+$/.test(segment) && !given.has(segment));
}

/** The pet created for a read of one the findings did not create (any NewPet: the rule is about reading it). */
const FIXTURE_PET = stringifyJson({ name: 'a pet for an exported test', categoryId: 1 });
const FIXTURE_HEADERS = { authorization: `Bearer ${PLACEHOLDER}`, 'content-type': 'application/json' };

/** The kinds of Expectation naming other exchanges' bodies by members, and by one body. */
const BY_MEMBER = ['sameAs', 'notKept', 'differsFrom'] as const;
const BY_BODY = ['listsIdOf', 'lacksNameOf'] as const;

/** The bodies compared with, counted back among the exchanges sent; undefined if one is not held. */
function counted(expected: Expectation, back: (n: number) => number): Expectation | undefined {
  const out: Expectation = { ...expected };
  const all: BodyMember[] = [];
  const recount = (m: BodyMember) => {
    const moved = { ...m, back: back(m.back) };
    all.push(moved);
    return moved;
  };
  for (const kind of BY_MEMBER) {
    const members = expected[kind];
    if (members) out[kind] = Object.fromEntries(Object.entries(members).map(([k, m]) => [k, recount(m)]));
  }
  for (const kind of BY_BODY) {
    const body = expected[kind];
    if (body) out[kind] = recount(body);
  }
  return all.every((m) => Number.isInteger(m.back) && m.back >= 0) ? out : undefined;
}

/** The test file of one failed requirement, or why it has none. */
export function exportedTest(results: Results, r: RequirementResult, runner: TestRunner): ExportedTest {
  const base = results.target.baseUrl.replace(/\/+$/, '');
  const evidence = r.evidence ?? [];
  if (!evidence.some((e) => e.expected))
    return {
      skipped:
        evidence.find((e) => e.notStated)?.notStated ??
        'its findings record no expectation of the answers, as data (see Exchange.expected)',
    };
  const sent: Sent[] = [];
  const given = new Set<string>();
  /** Where each exchange of the evidence is among those sent (fixture creates come between). */
  const at: number[] = [];
  for (const [i, e] of evidence.entries()) {
    if (!e.request.url.startsWith(base)) return { skipped: `a request went elsewhere than ${base}: ${e.request.url}` };
    const { body, bodyBrotli } = e.request;
    if (body !== undefined && CUT_BODY.test(body) && bodyBrotli === undefined)
      return { skipped: 'a request body was cut in the report, and was too varied to be kept whole compressed' };
    const path = e.request.url.slice(base.length);
    // A pet the findings read but did not create is created first: the id its answer gives takes the place of the run's.
    if (readsUnheldPet(e, path, given))
      for (const id of path.split(/[/?]/).filter((segment) => /^-?\d+$/.test(segment) && !given.has(segment))) {
        sent.push({ method: 'POST', path: '/pets', headers: FIXTURE_HEADERS, body: FIXTURE_PET, ids: [id] });
        given.add(id);
      }
    for (const id of idsIn(e.response?.body ?? '')) given.add(id);
    const headers = Object.fromEntries(Object.entries(e.request.headers).filter(([k]) => !NOT_SENT.has(k)));
    at.push(sent.length);
    const expected = e.expected && counted(e.expected, (back) => sent.length - (at[i - back] ?? NaN));
    if (expected === undefined && e.expected)
      return { skipped: 'an exchange it compares an answer with is not in the report' };
    sent.push({
      method: e.request.method,
      path,
      headers,
      ...(bodyBrotli !== undefined ? { bodyBrotli } : body === undefined ? {} : { body }),
      ids: idsIn(e.response?.body ?? ''),
      ...(expected ? { expected } : {}),
    });
  }
  const asserted = sent.filter((s) => s.expected).length;
  const title = `${r.id} (${r.level}) ${r.statement} [interface: ${r.section}]`;
  return {
    file: `${r.id}.test.mjs`,
    text: testFile(results, r, runner, title, sent, base),
    asserted,
    cases: sent.length,
  };
}

function testFile(
  results: Results,
  r: RequirementResult,
  runner: TestRunner,
  title: string,
  sent: Sent[],
  base: string,
) {
  const cases = sent.filter((s) => s.expected).length;
  const run = runner === 'node' ? 'node --test' : 'npx vitest run';
  // Only a file that judges a header by a parser holds the parsers.
  const parsers = sent.some((s) => s.expected?.headerParsed)
    ? `\n// The suite's header parsers (src/wire/headers.ts): a header is parsed here as the checks parse it.\n${HEADER_PARSERS}`
    : '';
  return `// ${r.id} (${r.level}), interface section "${r.section}": ${r.statement}
// Exported by ${results.suite.name} ${results.suite.version} from the run against ${base} (seed ${results.run.seed ?? 'none'}),
// where it failed: ${oneLine(r.message)}
// It asserts ${cases} of the ${sent.length} recorded exchanges (those whose expectation the report holds as data).
// Fails while the fault is there, passes once it is fixed; only a whole run of the suite decides conformance.
// Run: PETSTORE_API_KEY=... PETSTORE_BASE_URL=${base} ${run}
import { test } from '${runner === 'node' ? 'node:test' : 'vitest'}';
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';

const { env } = process;
const BASE_URL = (env.PETSTORE_BASE_URL || ${JSON.stringify(base)}).replace(/\\/+$/, '');
const KEY = env.PETSTORE_API_KEY ?? '';

/** The requests as the run sent them, after the base URL; expected: what the rule asks of each answer. */
const exchanges = ${JSON.stringify(sent, null, 2)};

/** The key where the report wrote its placeholders. */
const withKey = (text) => text.replaceAll('\${PETSTORE_API_KEY%?}', KEY.slice(0, -1)).replaceAll('$PETSTORE_API_KEY', KEY);
const idsIn = (text) => [...text.matchAll(/"id"\\s*:\\s*(-?\\d+)/g)].map((m) => m[1]);

test(${JSON.stringify(title)}, async () => {
  // A path segment that was an id a recorded answer gave is the id this server gives now.
  const ids = new Map();
  /** What each exchange sent and got, for an answer compared with an earlier body. */
  const history = [];
  // The run's tag in names, written afresh: a store keeps the pets of earlier runs (and of this test's).
  const renamed = exchanges.find((x) => x.expected?.renamed)?.expected.renamed;
  const fresh = Array.from(renamed ?? '', () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('');
  for (const x of exchanges) {
    const path = x.path.split('/').map((s) => ids.get(s) ?? s).join('/');
    const headers = Object.fromEntries(Object.entries(x.headers).map(([k, v]) => [k, withKey(v)]));
    // A body the report holds compressed (too large to write out) is sent exactly as the run sent it.
    const raw = x.bodyBrotli ? brotliDecompressSync(Buffer.from(x.bodyBrotli, 'base64')).toString('utf8') : x.body;
    const body = raw === undefined ? undefined : withKey(renamed ? raw.replaceAll(renamed, fresh) : raw);
    if (x.expected?.exactItems) await holdAtLeast(x.expected.exactItems, path);
    // A request the run sent with others at once goes with as many copies of it at once: the same load.
    const answers = await Promise.all(Array.from({ length: x.expected?.atOnce ?? 1 }, () => send(x.method, path, headers, body)));
    for (const [i, { res, text }] of answers.entries()) {
      const now = idsIn(text);
      if (i === 0 && x.ids.length === 1 && now.length === 1) ids.set(x.ids[0], now[0]);
      const got = \`\${x.method} \${path}: got \${res.status} with \${text.slice(0, 300)}\`;
      if (i === 0) history.push({ path, request: body, response: text });
      if (x.expected) check(x.expected, res, text, got, history);
    }
  }
});

async function send(method, path, headers, body) {
  const res = await fetch(BASE_URL + path, { method, headers, body, redirect: 'manual' });
  // Read as sent: a byte order mark is kept (res.text() would drop it), so a body JSON.parse refuses fails here too.
  return { res, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer()) };
}

/**
 * Before a list that must hold exactly n pets: a store whose pets the query selects number at least n.
 * Those a list of the same query with limit 100 does not show are created; pets are never removed.
 */
async function holdAtLeast(n, path) {
  const url = new URL(BASE_URL + path);
  url.searchParams.set('limit', '100');
  const auth = { authorization: 'Bearer ' + KEY };
  const text = await (await fetch(url, { headers: auth })).text();
  let shown = 0;
  try {
    const json = JSON.parse(text);
    if (Array.isArray(json)) shown = json.length;
  } catch {
    // No list to count: all n are created.
  }
  const status = url.searchParams.get('status');
  const pet = JSON.stringify({ name: 'a pet for an exported test', categoryId: 1, ...(status ? { status } : {}) });
  const create = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: pet };
  for (let i = shown; i < n; i++) await fetch(BASE_URL + '/pets', create);
}

${EXPECTATION_CHECKS}${parsers}`;
}
