// Runs once in the main vitest process: opens the target (starting the bundled reference server
// when none is configured), fixes the seed, and hands the frozen RunConfig to the tests.
import type { TestProject } from 'vitest/node';
import { loadConfig, type RunConfig } from '../config/config.js';
import { openTarget } from '../run/target.js';

declare module 'vitest' {
  export interface ProvidedContext {
    runConfig: RunConfig;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { run, close } = await openTarget(loadConfig());
  project.provide('runConfig', run);
  return close;
}
