// Interface section "Authentication": bearer key on every operation, 401 with an Error body.
import { expectError, expectStatus } from '../src/assert.js';
import type { Requirement } from '../src/requirement.js';
import { eachCase } from '../src/requirement.js';
import { operations } from './operations.js';

const SECTION = 'Authentication';

export const authentication: Requirement[] = [
  {
    id: 'auth.missing-key',
    level: 'MUST',
    section: SECTION,
    statement: 'A request without an Authorization header is answered 401 with an Error body, on every operation',
    check: (ctx) =>
      eachCase(operations, async (op) => {
        expectError(await op.send(ctx, { auth: 'none' }), 401, `${op.name} without a key`);
      }),
  },
  {
    id: 'auth.valid-key',
    level: 'MUST',
    section: SECTION,
    statement: 'The right key sent as a bearer token is accepted on every operation',
    check: (ctx) =>
      eachCase(operations, async (op) => {
        expectStatus(await op.send(ctx, { auth: 'key' }), op.success, `${op.name} with the right key`);
      }),
  },
];
