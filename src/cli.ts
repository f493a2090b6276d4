// The command line: validates configuration before any test (exit 2 with one line), then runs
// the conformance project of vitest in this process.
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from './config.js';
import { conformanceReporters } from './report/index.js';

export const EXIT = { conformant: 0, violations: 1, usage: 2, unreachable: 3 } as const;

const root = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`petstore-conformance: configuration error: ${err.message}`);
      return EXIT.usage;
    }
    throw err;
  }
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest('test', [], {
    root,
    project: ['conformance'],
    watch: false,
    run: true,
    reporters: ['default', ...conformanceReporters(config)],
  });
  await vitest.close();
  return process.exitCode === undefined || process.exitCode === 0 ? EXIT.conformant : EXIT.violations;
}

process.exitCode = await main();
