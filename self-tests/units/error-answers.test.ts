// The Error rules judge every error answer of the run, not a fixed list of provoked requests: a
// spoiled answer that only another requirement's case or a property provokes fails them, grouped
// by shape with the check that sent it. The run-wide rules judge after every other check.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { ApiResponse } from '../../src/wire/requests.js';
import { loadConfig, resolveRunConfig } from '../../src/config/config.js';
import { ErrorAnswers } from '../../tests/rules/error-answers.js';
import { exchangeOf, requestOnly } from '../../src/wire/evidence.js';
import {
  Violation,
  type AnswerFrom,
  type Check,
  type Requirement,
  type RequirementId,
} from '../../src/checks/requirement.js';
import { ChecksRunner } from '../../src/run/runner.js';
import { faults } from '../harness/faults/index.js';
import type { Variant, Wrap } from '../harness/faults-kit.js';
import { cleanEnv, root } from '../net-kit.js';
import { runSetup } from '../harness/harness.js';
import { variants } from '../harness/variants.js';
import { msg } from '../../src/checks/message.js';
import { forgetSecrets, redactMessage, quoted, registerSecret } from '../../src/wire/redact.js';

const unpacked = (base64 = '') => brotliDecompressSync(Buffer.from(base64, 'base64')).toString('utf8');

const fault = (name: string) => {
  const f = faults.find((x) => x.name === name);
  if (!f) throw new Error(`no fault ${name}`);
  return f;
};

const answerOf = (
  status: number,
  type: string | undefined,
  text: string,
  path = '/v1/nowhere',
  extra: Partial<ApiResponse> = {},
): ApiResponse => {
  let json: unknown;
  let jsonError: string | undefined;
  try {
    json = JSON.parse(text);
  } catch (err) {
    jsonError = String(err);
  }
  return {
    request: { method: 'GET', url: `http://127.0.0.1:1${path}`, headers: {} },
    status,
    headers: type ? { 'content-type': type } : {},
    text,
    json,
    ...(jsonError === undefined ? {} : { jsonError }),
    truncated: false,
    durationMs: 1,
    at: { sent: 0, answered: 1 },
    ...extra,
  };
};

/** Sent by a check of that name (a requirement's when the name is an id). */
const from = (name: string): AnswerFrom => ({
  check: { ...(/^[a-z]+\.\S+$/.test(name) ? { id: name as RequirementId } : {}), kind: 'requirement', name },
});

/** A context for a server that is not there: nothing here may send a request that is not refused. */
const violationOf = (fn: () => void): Violation => {
  try {
    fn();
  } catch (err) {
    if (err instanceof Violation) return err;
    throw err;
  }
  throw new Error('no violation');
};

describe('the Error rules judge the whole run', () => {
  test('an HTML 400 that only errors.no-server-error provokes fails errors.body, naming that check', async () => {
    const f = fault('html-400-malformed-json');
    const alone = await runSetup({ ...f, alongside: [] }, ['errors.body']);
    expect(
      alone.outcomes.get('errors.body')?.outcome,
      'its own cases never meet the fault: the test would prove nothing',
    ).toBe('passed');
    const run = await runSetup(f, ['errors.body']);
    const outcome = run.outcomes.get('errors.body');
    expect(outcome?.outcome).toBe('failed');
    expect(outcome?.message).toMatch(
      /^\d+ of the run's \d+ error answers break it, in 1 shape\(s\):\n- 400 text\/html, not JSON: /,
    );
    expect(outcome?.message).toContain('(sent by errors.no-server-error)');
    expect(outcome?.evidence.length).toBeGreaterThan(0);
    expect(outcome?.evidence.every((e) => e.reproduce.startsWith('curl '))).toBe(true);
  });

  test('a wrong Error status only a property provokes fails errors.status-field, naming the property', async () => {
    const run = await runSetup(fault('error-status-off-for-large-limits'), ['errors.status-field']);
    const outcome = run.outcomes.get('errors.status-field');
    expect(outcome?.outcome).toBe('failed');
    expect(outcome?.message).toContain('sent by listPets.limit.out-of-range (property)');
  });
});

describe('the reference server', () => {
  test('answers unknown paths, undefined methods, refused bodies (415, and 413 to 5 MiB) and %ZZ with the Error body', async () => {
    const ids = ['errors.unknown-path', 'errors.undefined-method', 'errors.refused-body', 'errors.malformed-uri'];
    const run = await runSetup({ wrap: (h) => h }, ids);
    expect(ids.map((id) => `${id} ${run.outcomes.get(id)?.outcome} ${run.outcomes.get(id)?.message ?? ''}`)).toEqual(
      ids.map((id) => `${id} passed `),
    );
  });
});

describe('an HTTP layer answering %ZZ itself', () => {
  test('draws a SHOULD finding only: the MUST Error rules leave its answers to errors.malformed-uri', async () => {
    const variant = variants.find((v) => v.name === 'http-layer-html-400') as Variant;
    const run = await runSetup(variant, ['errors.body', 'errors.content-type', 'errors.malformed-uri']);
    expect(
      ['errors.body', 'errors.content-type', 'errors.malformed-uri'].map((id) => run.outcomes.get(id)?.outcome),
    ).toEqual(['passed', 'passed', 'failed']);
  });
});

describe('findings', () => {
  test('one framework default is one finding with a few examples, however many answers it spoiled', () => {
    const answers = new ErrorAnswers('errors.body');
    const page = '<html><body><h1>Not Found</h1></body></html>';
    for (let i = 0; i < 200; i++)
      answers.observe(answerOf(404, 'text/html', page, `/v1/x${i}`), from(`check ${i % 7}`));
    answers.observe(
      answerOf(405, 'application/json', '{"detail":"Method Not Allowed"}'),
      from('errors.undefined-method'),
    );
    answers.observe(
      answerOf(401, 'application/json', '{"code":"unauthorized","message":"no key","status":401}'),
      from('auth.missing-key'),
    );
    const v = violationOf(() => answers.judge());
    // The page is quoted from the wire: marked, so a key in it would be redacted.
    expect(v.message).toContain(quoted(page));
    const lines = redactMessage(v.message).split('\n');
    expect(lines[0]).toBe("201 of the run's 202 error answers break it, in 2 shape(s):");
    expect(lines[1]).toMatch(
      /^- 404 text\/html, not JSON: 200 answer\(s\) from 7 check\(s\), .*sent by check 0\).*sent by check 1\).*sent by check 2\)$/,
    );
    expect(lines[2]).toMatch(/^- 405 application\/json, \{detail\}: 1 answer\(s\)/);
    expect(lines).toHaveLength(3);
    expect(v.evidence).toHaveLength(4);
  });

  test('answers attributed to infrastructure and exempt answers are counted, not judged', () => {
    const answers = new ErrorAnswers('errors.content-type');
    answers.observe(
      answerOf(502, 'text/html', '<h1>Bad Gateway</h1>', '/v1/pets', {
        infrastructure: 'the gateway answered for a backend that is down',
      }),
      from('a check'),
    );
    answers.observe(answerOf(400, 'text/html', '<h1>Bad Request</h1>', '/v1/pets/%ZZ'), {
      ...from('errors.malformed-uri'),
      exempt: true,
    });
    answers.observe(answerOf(200, 'text/html', '<h1>fine</h1>'), from('a check'));
    expect(() => answers.judge()).not.toThrow();
    expect([answers.judged, answers.infrastructure, answers.exempt]).toEqual([0, 1, 1]);
  });

  test('a rule that passes says how many answers it left to infrastructure', async () => {
    // A gateway's own HTML 502 for one request: the client attributes it to infrastructure.
    const gateway: Wrap = (inner) => (req) =>
      req.method === 'GET' && /\/pets\/1$/.test(req.url)
        ? { status: 502, headers: { 'content-type': 'text/html', server: 'nginx' }, body: '<h1>502 Bad Gateway</h1>' }
        : inner(req);
    const outcome = (await runSetup({ wrap: gateway }, ['errors.content-type'])).outcomes.get('errors.content-type');
    expect([outcome?.outcome, outcome?.note]).toEqual([
      'passed',
      '1 error answer(s) attributed to infrastructure in front of the service were not judged',
    ]);
  });

  test.each([
    [
      'an answer',
      (req: ApiResponse['request']) =>
        exchangeOf({ ...answerOf(413, 'text/html', '<h1>Too Large</h1>', '/v1/pets'), request: req }),
    ],
    ['no answer (the connection dropped under the upload)', (req: ApiResponse['request']) => requestOnly(req)],
  ])(
    'a several-MiB request body stays out of the evidence, with %s; its curl line regenerates it',
    (_what, evidence) => {
      const body = '{"name":"x","categoryId":1}'.padEnd(5 << 20, ' ');
      const res = answerOf(413, 'text/html', '<h1>Too Large</h1>', '/v1/pets');
      const exchange = evidence({ ...res.request, method: 'POST', body });
      expect(exchange.request.body?.length).toBeLessThan(300);
      expect(exchange.reproduce.length).toBeLessThan(400);
      expect(exchange.reproduce).toContain(
        `--data-binary @<(printf '%s' '{"name":"x","categoryId":1}'; head -c ${(5 << 20) - 27} /dev/zero | tr '\\0' ' ')`,
      );
      // Whole for `export`, compressed to a few KiB.
      expect(exchange.request.bodyBrotli?.length).toBeLessThan(200);
      expect(unpacked(exchange.request.bodyBrotli)).toBe(body);
    },
  );

  test('a cut body is held whole only redacted, and only when it compresses to a few KiB', () => {
    const key = 'key-in-a-large-body';
    registerSecret(key);
    const req = { ...answerOf(413, 'text/html', '', '/v1/pets').request, method: 'POST' };
    const keyed = requestOnly({ ...req, body: `{"name":"${key}"}`.padEnd(1 << 20, ' ') }).request;
    forgetSecrets();
    expect(unpacked(keyed.bodyBrotli)).toBe('{"name":"$PETSTORE_API_KEY"}'.padEnd((1 << 20) - key.length + 17, ' '));
    const varied = requestOnly({ ...req, body: randomBytes(1 << 16).toString('base64') }).request;
    expect([varied.body?.length, varied.bodyBrotli]).toEqual([200 + ' (87384 chars)'.length + 1, undefined]);
  });
});

describe('the run-wide rules judge after every other check', () => {
  const config = resolveRunConfig(loadConfig({}, { dotenv: false }), {
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'k',
    embedded: true,
  });
  const requirement = (id: string) =>
    ({ id, level: 'MUST', section: 'Errors', statement: id, check: async () => {} }) as unknown as Requirement;

  test('in order: the other checks, then the run-wide rules own cases, then their verdicts; none after a failed own case', async () => {
    const order: string[] = [];
    const step =
      (what: string, ms = 0) =>
      async () => {
        await new Promise((r) => setTimeout(r, ms));
        order.push(what);
      };
    const rule = (id: string, own: () => Promise<void>, judge: () => void): Check => ({
      requirement: requirement(id),
      kind: 'requirement',
      name: `${id} rule`,
      check: own,
      observer: () => ({ observe: () => {}, judge }),
    });
    const checks: Check[] = [
      rule('errors.body', step('own errors.body'), () => {
        order.push('verdict errors.body');
        throw new Violation(msg`an error answer without the Error body`, []);
      }),
      {
        requirement: requirement('auth.valid-key'),
        kind: 'requirement',
        name: 'slow',
        check: step('slow', 30),
      },
      rule(
        'errors.content-type',
        async () => {
          throw new Violation(msg`its own case failed`, []);
        },
        () => void order.push('verdict errors.content-type'),
      ),
      {
        requirement: requirement('auth.wrong-key'),
        kind: 'requirement',
        name: 'quick',
        check: step('quick'),
      },
    ];
    const run = await new ChecksRunner(checks, config, {}, () => true).run();
    expect(order).toEqual(['quick', 'slow', 'own errors.body', 'verdict errors.body']);
    expect(run.checks.map((c) => [c.requirement.id, c.outcome, c.message])).toEqual([
      ['errors.body', 'failed', 'an error answer without the Error body'],
      ['auth.valid-key', 'passed', undefined],
      ['errors.content-type', 'failed', 'its own case failed'],
      ['auth.wrong-key', 'passed', undefined],
    ]);
  });

  test('a vitest name filter (-t) that leaves errors.status-field with one other check ends, the rule judging that check', async () => {
    // Filtered-out tests never run: were they awaited, this run would hang until the timeout.
    const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
    const run = spawnSync(
      process.execPath,
      [vitest, 'run', '--project', 'conformance', '-t', '(errors.status-field|listPets.ok) '],
      {
        cwd: root,
        env: cleanEnv(),
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/Tests +2 passed \| \d+ skipped/);
  }, 70_000);
});
