// Interface section "What the service does": all bodies are JSON (application/json).
import { expectJsonContentType } from '../src/checks/assert.js';
import type { Requirement } from '../src/checks/requirement.js';
import { eachCase } from '../src/checks/requirement.js';
import { expectSuccess, liveOperations } from './operations.js';

const SECTION = 'What the service does';

export const service: Requirement[] = [
  {
    id: 'service.json-content-type',
    level: 'MUST',
    section: SECTION,
    statement: 'Successful responses of every operation are application/json (parameters such as charset allowed)',
    check: (ctx) =>
      eachCase(liveOperations(ctx), async (op) => {
        const res = await op.send(ctx);
        expectSuccess(op, res);
        expectJsonContentType(res);
      }),
  },
];
