// A target the suite's own input broke is named first: a backend that accepts a body the interface
// rejects (categoryId as a string), stores it, and from then on fails every list with a 500. The
// requirement that failed on that very request is the violation; what failed only on the 500s
// after it is blocked by it. A store that turns failing after an ordinary write: the write after
// which it turned, said first, and the knock-ons, real violations, folded under it (which they are is timing).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import { errorResponse } from '../../src/reference-server/handler.js';
import type { Results } from '../../src/report/results.js';
import { isObject, operationOf } from '../harness/faults-kit.js';
import { faults } from '../harness/faults/index.js';
import { parseJson, stringifyJson } from '../../src/wire/json.js';
import { CHILD_TIMEOUT, referenceServer, runBin, targetEnv, type TestServer } from '../net-kit.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

test(
  'a body accepted that breaks every list from then on: the verdict names the input and what followed, first',
  async () => {
    let poisoned = false;
    const server = await referenceServer({
      wrap: (inner) => async (req) => {
        const op = operationOf(req);
        if (op === 'createPet') {
          let body: unknown;
          try {
            body = parseJson(req.body);
          } catch {
            return inner(req);
          }
          if (isObject(body) && typeof body.categoryId === 'string' && typeof body.name === 'string') {
            poisoned = true;
            return inner({ ...req, body: stringifyJson({ name: body.name, categoryId: 0 }) });
          }
        }
        if (poisoned && op === 'listPets')
          return errorResponse(500, 'internal_error', 'RangeError: Invalid time value');
        return inner(req);
      },
    });
    servers.push(server);
    const run = await runBin(['--seed', '5'], { env: targetEnv(server) });
    expect(run.code, run.out).toBe(EXIT.violations);
    const results = JSON.parse(readFileSync(join(run.cwd, 'reports', 'conformance.json'), 'utf8')) as Results;
    const p = results.run.targetPoisoned;
    expect(p?.accepted).toMatch(/^POST \/v1\/pets \{.*"categoryId":"/);
    expect(p?.status).toBe(500);
    expect(p?.lists).toBeGreaterThan(3);
    expect(results.verdictReason).toMatch(
      new RegExp(
        `^the suite's own input broke the target: it accepted POST /v1/pets .* \\(201\\), a body the interface rejects ` +
          `\\(${p?.by.replace('.', '\\.')}\\), and every list answered 500 from then on`,
      ),
    );
    // The requirement that failed on it is the one violation; the lists' 500s broke no rule of
    // their own, so what failed on them is blocked by it.
    expect(p?.cause).toBe(true);
    expect(/violated: ([\w.-]+)$/.exec(results.verdictReason)?.[1]).toBe(p?.by);
    const blocked = results.requirements.filter((r) => r.blockedBy === p?.by).map((r) => r.id);
    expect(blocked).toContain('listPets.ok');
    // The terminal's item of them is not marked as a violation, and its ids fill the lines under it.
    expect(run.stdout).toMatch(/^ - \d+ blocked by [\w.-]+, on the answers of the target turned failing: /m);
    expect(run.stdout).not.toMatch(/✘ \d+ blocked by/);
    expect(run.stdout).not.toMatch(/^ {30,}\S/m);
    // Named there, not again among the skipped.
    expect(run.stdout).not.toMatch(/^ - listPets\.ok \(skipped\)/m);
  },
  CHILD_TIMEOUT.timeout,
);

test(
  'a store that fails every write after its tenth: the verdict names the write after which it turned, first',
  async () => {
    const fault = faults.find((f) => f.name === 'fail-after-writes');
    if (!fault) throw new Error('no fault fail-after-writes');
    const server = await referenceServer({ wrap: fault.wrap });
    servers.push(server);
    const run = await runBin(['--seed', '5'], { env: targetEnv(server) });
    expect(run.code, run.out).toBe(EXIT.violations);
    const results = JSON.parse(readFileSync(join(run.cwd, 'reports', 'conformance.json'), 'utf8')) as Results;
    const p = results.run.targetPoisoned;
    expect(p).toMatchObject({ operation: 'createPet', valid: true, status: 500 });
    expect(results.verdictReason).toMatch(
      new RegExp(
        '^the target turned failing after it accepted POST /v1/pets .* \\(201, sent by [\\w.-]+\\): ' +
          'every createPet answered 500 from then on, where it had succeeded before; ',
      ),
    );
    // What failed on those 500s is filed under the turn, counted and not named: which requirements
    // were still sending when it turned is timing. One folded item with their ids, not a line each.
    expect(results.verdictReason).toMatch(/; \d+ MUST requirements failed only on its failing answers$/);
    const md = readFileSync(join(run.cwd, 'reports', 'conformance.md'), 'utf8');
    const violations = md.slice(md.indexOf('### Violations'), md.indexOf('</details>'));
    const folded = '(which requirements were still sending when it turned depends on timing)';
    expect(violations).toMatch(/\n<details><summary>\d+ failed only on the answers of the target turned failing \(/);
    expect(violations).toContain(`${folded}</summary>\n\n\``);
    expect(violations).toContain('`createPet.missing-name`');
    expect(violations).not.toContain('- `createPet.missing-name`');
    expect(run.stdout).toMatch(/✘ \d+ failed only on the answers of the target turned failing: /);
  },
  CHILD_TIMEOUT.timeout,
);
