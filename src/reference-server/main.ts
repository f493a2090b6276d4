// `npm run serve`: the reference server standalone, for pointing the suite or other tools at it.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createReferenceHandler, DEFAULT_MAX_BODY_BYTES } from './handler.js';
import { serve } from './http.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`serve: --port must be a port number, got "${values.port}"`);
  process.exit(2);
}
const apiKey = randomBytes(18).toString('base64url');
const running = await serve(createReferenceHandler({ apiKey }), {
  host: values.host,
  port,
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
});
console.log(`Reference server listening.
  PETSTORE_BASE_URL=${running.origin}/v1
  PETSTORE_API_KEY=${apiKey}
Press Ctrl-C to stop.`);
const stop = () => void running.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
