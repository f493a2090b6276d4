#!/usr/bin/env node
// Entry point for `npx petstore-conformance` and `npm run conformance`: the suite is TypeScript,
// run through tsx so that a clone and an installed package behave the same. `--help` says it all.
import { register } from 'tsx/esm/api';

register();
// `--list | head` closes the pipe early: that is the reader being done, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
const { main } = await import('../src/commands/cli.ts');
process.exitCode = await main(process.argv.slice(2));
