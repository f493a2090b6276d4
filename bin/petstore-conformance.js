#!/usr/bin/env node
// Entry point for `npx petstore-conformance` and `npm run conformance`: the suite is TypeScript,
// run through tsx so that a clone and an installed package behave the same. `--help` says it all.
import { register } from 'tsx/esm/api';

const argv = process.argv.slice(2);
// Commands that answer at once load no test runner.
const runs =
  !['diff', 'matrix'].includes(argv[0] ?? '') &&
  !argv.some((a) => ['-h', '--help', '--version', '--list', '--show-config'].includes(a));
if (runs) {
  // Vite's bundler (rolldown) allocates with mimalloc, which by default commits its 1 GiB arena
  // up front and asks for transparent huge pages on it: the few megabytes a run allocates there
  // then hold some 60 MB resident in 2 MiB pages. Committed on demand, they hold what they use.
  // (Read when the bundler loads, so it must be set before vitest is imported.)
  process.env.MIMALLOC_ARENA_EAGER_COMMIT ??= '0';
  // Vitest (with vite and rolldown: hundreds of modules) is loaded before tsx's hooks exist, so
  // Node loads it as it is: through the hooks, which read and keep every module they see, the
  // run would hold some 150 MB more and start a second later. Only the suite's own TypeScript
  // needs tsx.
  await import('vitest/node');
}
register();
// `--list | head` closes the pipe early: that is the reader being done, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
const { main } = await import('../src/commands/cli.ts');
process.exitCode = await main(argv);
