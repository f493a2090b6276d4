#!/usr/bin/env node
// Entry point for `npx petstore-conformance` and `npm run conformance`. An installed package runs
// the JavaScript npm pack built (scripts/build.mjs); a clone runs its TypeScript bundled into one
// file (scripts/bundle.mjs), or through tsx when it cannot be bundled. `--help` says it all.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// A run lasts about a second. With V8's default budget its optimizing compiler compiles hundreds
// of the suite's functions on threads beside the run, about a quarter of its processor time, taking
// the core a server on the same machine needs; a budget about 7 times larger optimizes only what
// stays hot. A budget given to node itself is kept (`npm run bench` measures V8's default that way).
if (!process.execArgv.some((a) => a.startsWith('--interrupt-budget'))) setFlagsFromString('--interrupt-budget=500000');

const compiled = new URL('../src/commands/cli.js', import.meta.url);
// `--list | head` closes the pipe early: that is the reader being done, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
let cli = existsSync(compiled) ? compiled.href : undefined;
if (!cli) cli = await (await import('../scripts/bundle.mjs')).bundledCli();
if (!cli) {
  (await import('tsx/esm/api')).register();
  cli = new URL('../src/commands/cli.ts', import.meta.url).href;
}
const { main } = await import(cli);
process.exitCode = await main(process.argv.slice(2));
