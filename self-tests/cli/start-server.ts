// A server under test for --start's self-test, started through a shell command as any stack's
// would be: the reference handler on --port with --key, or misbehaving as asked. It prints the key
// on start, as careless servers do, so the self-test can see server.log redact it.
import { parseArgs } from 'node:util';
import { createReferenceHandler, type Handler } from '../../src/reference-server/handler.js';
import { serve } from '../../src/reference-server/http.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    key: { type: 'string' },
    'exit-after': { type: 'string' },
    'ignore-term': { type: 'boolean', default: false },
    'slow-ms': { type: 'string', default: '0' },
  },
});
console.log(`starting with key ${values.key}`);
const reference = createReferenceHandler({ apiKey: values.key ?? '' });
let left = Number(values['exit-after'] ?? Infinity);
const slow = Number(values['slow-ms']);
const handler: Handler = async (req) => {
  if (--left < 0) {
    console.error(`crashed on ${req.method} ${req.url}: out of memory (on purpose)`);
    process.exit(1);
  }
  if (slow) await new Promise((r) => setTimeout(r, slow));
  return reference(req);
};
await serve(handler, { port: Number(values.port) });
console.log(`listening on ${values.port}`);
if (values['ignore-term']) process.on('SIGTERM', () => console.log('SIGTERM ignored'));
