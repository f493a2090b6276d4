// The API key in what the suite writes and prints. The guarantee (also in docs/reports.md):
//
//   For any key K of 1 to 200 characters (common words, JSON punctuation and pieces of the
//   suite's own text included):
//   (1) every string that came from or goes to the wire or the configuration (request URLs,
//       header values and bodies, responses, curl lines, the target and replay command, what
//       the network said, and each quote of these in a message), split at the placeholder
//       $PETSTORE_API_KEY, contains K in none of its parts;
//   (2) the suite's own text is written as it is, whatever the key: the ids, levels, sections,
//       statements, check names, outcomes, verdict and its reason are those of the same run with
//       a random key, and each message is its words verbatim with only its wire quotes redacted.
//   A random key (which occurs in no suite text) is then found 0 times in any byte.
//
// Proved in-process on a recorded run (every catalogue requirement failing through the suite's
// own assertions on answers that echo the key) for generated keys, and by the real command
// against a server that echoes the key, for the keys pet, key, wrong and a.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  expectBody,
  expectHeader,
  expectJsonContentType,
  expectNoHeader,
  expectStatus,
  fail,
} from '../../src/checks/assert.js';
import { TransportError, type ApiResponse } from '../../src/wire/requests.js';
import { curlCommand } from '../../src/wire/evidence.js';
import { parseJson, show } from '../../src/wire/json.js';
import {
  forgetSecrets,
  PLACEHOLDER,
  PREFIX_PLACEHOLDER,
  PREFIX_REDACTED_FROM,
  redact,
  redactMessage,
  registerSecret,
  quoted,
} from '../../src/wire/redact.js';
import { renderReports } from '../../src/report/reporter.js';
import { buildResults, type CheckInput, type Results } from '../../src/report/results.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { reportView } from '../../src/report/view.js';
import { execute, Skip, Violation } from '../../src/checks/requirement.js';
import { joined, msg, words } from '../../src/checks/message.js';
import { createReferenceHandler, type Handler } from '../../src/reference-server/handler.js';
import { serve, type RunningServer } from '../../src/reference-server/http.js';
import { catalogue } from '../../tests/catalogue.js';
import { CHILD_TIMEOUT, runBin, tempDir } from '../net-kit.js';

/** The placeholders of the key and of the key less its last character, kept whole by redaction. */
const PLACEHOLDERS = /(\$\{PETSTORE_API_KEY%\?\}|\$PETSTORE_API_KEY)/;
const rewritten = (text: string, s: string, placeholder: string) =>
  text
    .split(PLACEHOLDERS)
    .map((p, i) => (i % 2 === 1 ? p : p.split(s).join(placeholder)))
    .join('');
/** The oracle: K written as the placeholder in one wire string, then (a long K) K less its last character; placeholders kept. */
const redactedWith = (key: string, text: string) => {
  const out = rewritten(text, key, PLACEHOLDER);
  return key.length >= PREFIX_REDACTED_FROM ? rewritten(out, key.slice(0, -1), PREFIX_PLACEHOLDER) : out;
};
/** Neither K nor (a long K) K less its last character in any piece between placeholders. */
const clean = (key: string, text: string) =>
  text
    .split(PLACEHOLDERS)
    .every(
      (part, i) =>
        i % 2 === 1 ||
        (!part.includes(key) && !(key.length >= PREFIX_REDACTED_FROM && part.includes(key.slice(0, -1)))),
    );
const MARKS = /\uE000([^\uE000\uE001]*)\uE001/g;

const BASE = 'http://127.0.0.1:8080/v1';

/** An answer as a server that echoes the key would give it, to the request the suite sent with it. */
function answer(
  key: string,
  method: string,
  path: string,
  status: number,
  headers: Record<string, string>,
  text: string,
  body?: string,
): ApiResponse {
  let json: unknown;
  let jsonError: string | undefined;
  try {
    json = parseJson(text);
  } catch (e) {
    jsonError = (e as Error).message;
  }
  return {
    request: {
      method,
      url: `${BASE}${path}`,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body } : {}),
    },
    status,
    headers,
    text,
    json,
    ...(jsonError === undefined ? {} : { jsonError }),
    truncated: false,
    durationMs: 1,
    at: { sent: 0, answered: 1 },
  };
}

/** One failing check per shape of message the suite writes, each quoting the echoed key. */
function recordedChecks(key: string): ((r: number) => void)[] {
  const echo = JSON.stringify(`key ${key} is not valid`);
  const pets = `[{"id":1,"name":"pcs-x pet 1 ${key.replace(/["\\]/g, '')}","categoryId":1}]`;
  const error = `{"code":"unauthorized","message":${echo},"status":401}`;
  const list = answer(
    key,
    'GET',
    '/pets?limit=5',
    200,
    { 'content-type': 'application/json', 'x-echo': `Bearer ${key}` },
    pets,
  );
  const refused = answer(
    key,
    'GET',
    '/pets',
    401,
    { 'content-type': 'text/plain', 'www-authenticate': `Bearer realm="${key}"` },
    error,
  );
  const created = answer(
    key,
    'POST',
    '/pets',
    201,
    { 'content-type': 'application/json', location: `${BASE}/pets/${key}` },
    `{"id":"${key.length}","name":"pet"}`,
    '{"name":"pet","categoryId":7}',
  );
  return [
    () => expectStatus(list, 401, msg`listPets without a key`),
    () => expectJsonContentType(refused),
    () => expectHeader(refused, msg`WWW-Authenticate`, msg`a Bearer challenge (RFC 6750 §3)`, (v) => v === 'Bearer'),
    () => expectNoHeader(list, msg`X-Echo`, msg`the key is never echoed`),
    () => expectBody(created, 'Pet'),
    () => fail(created, msg`name ${show('pet a key')} echoed`, msg`name ${show(key)}`),
    () => {
      throw new TransportError(`connect ECONNREFUSED ${key}`, list.request);
    },
    () => {
      throw new Skip(msg`read-only mode: this check needs to send POST /pets`);
    },
    () => undefined,
  ];
}

interface Recorded {
  results: Results;
  /** The report files and the terminal summary, rendered while the run's key was the secret. */
  files: { file: string; content: string }[];
  /** Each check's message before redaction (wire quotes marked), by requirement id. */
  raw: Map<string, string>;
}

/** The run as it would be with this key: every catalogue requirement checked, the tree built. */
async function record(key: string): Promise<Recorded> {
  forgetSecrets();
  registerSecret(key);
  const shapes = recordedChecks(key);
  const raw = new Map<string, string>();
  const checks: CheckInput[] = [];
  for (const [i, { check: _check, ...requirement }] of catalogue.entries()) {
    const shape = shapes[i % shapes.length] as () => void;
    try {
      shape();
    } catch (e) {
      if (e instanceof Violation) raw.set(requirement.id, e.message);
    }
    const outcome = await execute({ check: async () => shape() }, {} as never);
    checks.push({ requirement, kind: 'requirement', name: `${requirement.id} ${requirement.statement}`, ...outcome });
  }
  const at = new Date('2026-01-01T00:00:00Z');
  const suite = { name: 'petstore-conformance', version: '0.0.0', commit: null };
  const target = { baseUrl: redact(BASE), embedded: false }; // as the reporter writes it
  const fixed = {
    suite,
    target,
    startedAt: at,
    finishedAt: at,
    seed: 7,
    node: 'v20',
    strict: false,
    readOnly: false,
    clock: null,
  };
  const results = buildResults(checks, {
    ...fixed,
    only: [],
    skip: [],
    interrupted: false,
    errors: [],
    createdPets: [],
    runTag: null,
    requests: 1,
  });
  return { results, raw, files: outputs(results) };
}

function outputs(results: Results): { file: string; content: string }[] {
  return [...renderReports(results, []), { file: 'terminal', content: renderTerminal(reportView(results)) }];
}

/** The suite's own text of a tree: everything but what the wire and the configuration gave. */
function suiteText(results: Results) {
  return {
    verdict: results.verdict,
    verdictReason: results.verdictReason,
    counts: results.counts,
    requirements: results.requirements.map((e) => ({
      id: e.id,
      level: e.level,
      section: e.section,
      statement: e.statement,
      area: e.area,
      outcome: e.outcome,
      skipReason: e.skipReason,
      checks: e.checks.map((c) => [c.name, c.kind, c.outcome]),
    })),
  };
}

/** Every wire- or configuration-derived string of a tree. */
function wireStrings(results: Results): string[] {
  // The replay command is the suite's words around the target, which is here.
  const out = [results.target.baseUrl, ...results.run.errors];
  for (const e of results.requirements) {
    for (const x of e.evidence ?? []) {
      // A curl line is the suite's words around the request's URL, headers and body, as redacted.
      expect(x.reproduce).toBe(curlCommand(x.request));
      out.push(x.request.url, ...Object.values(x.request.headers), x.request.body ?? '');
      if (x.response) out.push(...Object.values(x.response.headers), x.response.body);
    }
  }
  return out;
}

function assertGuarantee(key: string, run: Recorded, reference: Recorded): void {
  // (2) the suite's text is the reference run's, and each message its words with redacted quotes
  expect(suiteText(run.results)).toEqual(suiteText(reference.results));
  for (const e of run.results.requirements) {
    const raw = run.raw.get(e.id);
    if (raw === undefined || e.outcome !== 'failed') continue;
    const quotes: string[] = [];
    const expected = raw.replace(MARKS, (_, quote: string) => (quotes.push(quote), redactedWith(key, quote)));
    expect(quotes.length).toBeGreaterThan(0);
    expect(e.message).toBe(expected);
    for (const q of quotes) expect(clean(key, redactedWith(key, q))).toBe(true);
    // the same words as with the reference key
    const words = (m: string) => m.replace(MARKS, '«»');
    expect(words(raw)).toBe(words(reference.raw.get(e.id) ?? ''));
  }
  // (1) no wire string holds the key outside the placeholder
  for (const s of wireStrings(run.results))
    expect(clean(key, s), `${JSON.stringify(key)} in ${JSON.stringify(s)}`).toBe(true);
  // the rendered files and the terminal carry each statement as often as with the reference key
  for (const [i, { file, content }] of run.files.entries()) {
    const other = reference.files[i]?.content ?? '';
    for (const r of run.results.requirements) {
      for (const text of [r.id, r.statement]) {
        expect(content.split(text).length, `${text} in ${file}`).toBe(other.split(text).length);
      }
    }
    expect(content).not.toMatch(/[\uE000\uE001]/);
  }
}

const catalogueText = catalogue.map((r) => `${r.id} ${r.statement} ${r.section}`).join(' ');
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 200,
});
/** Keys as a user might set them, and the awkward ones: words, punctuation, pieces of the suite's text. */
const keys = fc
  .oneof(
    fc.constantFrom(
      'pet',
      'key',
      'wrong',
      'a',
      '"',
      '{',
      '}',
      ':',
      ',',
      '\\',
      '<',
      '&',
      'MUST',
      'auth',
      'Bearer',
      '$',
      'E',
      'API',
      'KEY',
      PLACEHOLDER,
      'v1',
      '/',
      '1',
      ' ',
    ),
    fc
      .tuple(fc.nat(catalogueText.length - 1), fc.integer({ min: 1, max: 40 }))
      .map(([at, n]) => catalogueText.slice(at, at + n)),
    printable,
  )
  .map((k) => k.trim())
  .filter((k) => k.length > 0 && k.length <= 200);

describe('redaction: the key leaves no trace, the suite keeps its words', () => {
  const randomKey = `r${randomBytes(24).toString('hex')}`;
  let reference: Recorded;
  beforeAll(async () => {
    reference = await record(randomKey);
  });
  afterAll(() => forgetSecrets());

  test('a random key is found 0 times in any byte written or printed', () => {
    for (const { file, content } of reference.files) expect(content.includes(randomKey), file).toBe(false);
  });

  test.each(['pet', 'key', 'wrong', 'a'])(
    'with the key %j, ids, statements and the words of every message are those of a random key',
    async (key) => {
      assertGuarantee(key, await record(key), reference);
    },
  );

  test('for keys of 1 to 200 characters, words and punctuation included (property)', async () => {
    await fc.assert(
      fc.asyncProperty(keys, async (key) => {
        assertGuarantee(key, await record(key), reference);
      }),
      { numRuns: 25 },
    );
  });
});

describe('the key less its last character (auth.wrong-key sends it) is written ${PETSTORE_API_KEY%?}', () => {
  afterAll(() => forgetSecrets());
  test('in any wire text, after the key itself, idempotent; and its curl line expands to it in a shell', () => {
    forgetSecrets();
    const key = `k-${randomBytes(8).toString('hex')}`;
    registerSecret(key);
    const near = key.slice(0, -1);
    const text = `Bearer ${near} and ${key}, ${near}${key}`;
    const once = redact(text);
    expect(once).toBe('Bearer ${PETSTORE_API_KEY%?} and $PETSTORE_API_KEY, ${PETSTORE_API_KEY%?}$PETSTORE_API_KEY');
    expect(redact(once)).toBe(once);
    const curl = curlCommand({
      method: 'GET',
      url: `${BASE}/pets`,
      headers: { authorization: redact(`Bearer ${near}`) },
    });
    expect(curl).toContain('-H "authorization: Bearer ${PETSTORE_API_KEY%?}"');
    const header = /-H ("[^"]*")/.exec(curl)?.[1] ?? '';
    const expanded = execFileSync('sh', ['-c', `printf %s ${header}`], { env: { PETSTORE_API_KEY: key } }).toString();
    expect(expanded).toBe(`authorization: Bearer ${near}`);
    // A short key's prefix is not redacted: the property sends no such prefix (prefixSent).
    forgetSecrets();
    registerSecret('short');
    expect(redact('Bearer shor')).toBe('Bearer shor');
  });
});

describe('a failure message is typed: its quotes from the wire are marked, or it does not compile', () => {
  test('msg makes the string the template literal makes, its quotes marked', () => {
    const quote = quoted('from the wire');
    const n = 3;
    expect(msg`expected ${n} Pets (${2n}), got ${quote}\n\u00e9`).toBe(
      `expected ${n} Pets (${2n}), got ${quote}\n\u00e9`,
    );
    expect(joined([msg`a`, quote, 7], msg`; `)).toBe(`a; ${quote}; 7`);
    expect(words('a check')).toBe('a check');
    expect(redactMessage(msg`got ${quote}`)).toBe('got from the wire');
  });

  test('a plain string is refused where a failure is built (tsc over the self-tests checks these lines)', () => {
    const res = answer('k', 'GET', '/pets', 200, {}, '[]');
    const header: string = res.headers['x-echo'] ?? 'from the wire';
    // @ts-expect-error a Violation takes a Message, not text that may quote the wire unmarked
    expect(() => new Violation(`got ${header}`)).not.toThrow();
    // @ts-expect-error fail() takes a Message
    expect(() => fail(res, `no ${header}`)).toThrow(Violation);
    // @ts-expect-error msg takes quoted(), show(), messages and numbers, not a plain string
    expect(msg`got ${header}`).toBe('got from the wire');
  });
});

describe('redaction in real runs: the command against a server that echoes the key', CHILD_TIMEOUT, () => {
  /**
   * Every answer carries the Authorization it was sent in a header, and a 401 quotes it in its
   * message and leaves out its challenge (the SHOULD auth.challenge then fails, with evidence).
   */
  const echoing =
    (inner: Handler): Handler =>
    async (req) => {
      const res = await inner(req);
      const auth = req.headers.authorization ?? '';
      if (res.status !== 401) return { ...res, headers: { ...res.headers, 'x-echo': auth } };
      const { 'www-authenticate': _challenge, ...headers } = res.headers;
      return {
        status: 401,
        headers: { ...headers, 'x-echo': auth },
        body: JSON.stringify({ code: 'unauthorized', message: `not ${auth}`, status: 401 }),
      };
    };
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  const run = async (key: string) => {
    const server = await serve(echoing(createReferenceHandler({ apiKey: key })));
    servers.push(server);
    const dir = tempDir('redaction');
    // The auth area is where the key is sent, refused and echoed; the narrow selection keeps it short.
    const out = await runBin(['--only', 'auth', '--seed', '1', '--report-dir', dir], {
      env: { PETSTORE_BASE_URL: `${server.origin}/v1`, PETSTORE_API_KEY: key },
    });
    const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    return { out, files, json: JSON.parse(files['conformance.json'] ?? '{}') as Results };
  };

  test('the ids, statements and outcomes with pet and wrong are those of a random key, which appears nowhere', async () => {
    const randomKey = `r${randomBytes(16).toString('hex')}`;
    const [random, ...others] = await Promise.all([randomKey, 'pet', 'wrong'].map(run));
    if (!random) throw new Error('no run');
    expect(random.out.code, random.out.out).toBe(0);
    expect(random.json.requirements.find((e) => e.id === 'auth.challenge')?.evidence?.length).toBeGreaterThan(0);
    for (const content of [random.out.out, ...Object.values(random.files)]) expect(content).not.toContain(randomKey);
    for (const [i, key] of ['pet', 'wrong'].entries()) {
      const mine = others[i];
      if (!mine) throw new Error('no run');
      expect(mine.out.code, mine.out.out).toBe(0);
      expect(suiteText(mine.json)).toEqual(suiteText(random.json));
      for (const s of wireStrings(mine.json)) expect(clean(key, s), `${key} in ${s}`).toBe(true);
    }
  });
});
