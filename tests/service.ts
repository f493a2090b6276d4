// Interface section "What the service does": all bodies are JSON (application/json).
import { expectJsonContentType } from '../src/checks/assert.js';
import type { Requirement } from '../src/checks/requirement.js';
import { eachCase } from '../src/checks/requirement.js';
import { expectSuccess, isSuccess, liveOperations } from './operations.js';

const SECTION = 'What the service does';

export const service: Requirement[] = [
  {
    id: 'service.json-content-type',
    level: 'MUST',
    section: SECTION,
    statement: 'Successful responses of every operation are application/json (parameters such as charset allowed)',
    check: (ctx) =>
      eachCase(ctx, liveOperations(ctx), async (op) => {
        const res = await op.send(ctx);
        // Any success is this rule's to judge (201 or 200 is the operation's own); any other answer leaves nothing to judge.
        if (!isSuccess(res)) expectSuccess(op, res);
        expectJsonContentType(res);
      }),
  },
];
