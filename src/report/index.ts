// Reporters the CLI adds to vitest's: the files a run writes and the terminal summary.
import type { Reporter } from 'vitest/reporters';
import type { Config } from '../config.js';

export function conformanceReporters(_config: Config): Reporter[] {
  return [];
}
