#!/usr/bin/env node
// Entry point for `npx petstore-conformance` and `npm run conformance`. An installed package runs
// the JavaScript npm pack built (scripts/build.mjs); a clone runs its TypeScript through tsx.
// `--help` says it all.
import { existsSync } from 'node:fs';

const compiled = new URL('../src/commands/cli.js', import.meta.url);
// `--list | head` closes the pipe early: that is the reader being done, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
let cli = compiled.href;
if (!existsSync(compiled)) {
  (await import('tsx/esm/api')).register();
  cli = new URL('../src/commands/cli.ts', import.meta.url).href;
}
const { main } = await import(cli);
process.exitCode = await main(process.argv.slice(2));
