// The floor, run: floor.ts bundled as a clone's command line is (scripts/bundle.mjs), two levels
// down like it, and measured as the CLI is (spawn to exit).
import { join } from 'node:path';
import { ROOT } from './config.js';
import { measured } from './process.js';

const FLOOR = join(ROOT, '.build', 'bench', 'floor.mjs');
/** The requests of a full run and of a run of one requirement, from their HARs, for the floor to replay. */
export const FULL_REQUESTS = join(ROOT, '.build', 'bench', 'full-requests.json');
export const ONE_REQUESTS = join(ROOT, '.build', 'bench', 'one-requests.json');

export async function bundleFloor(): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['scripts/bench/floor.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: FLOOR,
    logLevel: 'error',
  });
}

/** The floor for the requests in `file` (see replayOf), measured as the CLI is (spawn to exit). */
export const runFloor = (
  file: string,
  concurrency: number,
  target?: { origin: string; apiKey: string; env?: NodeJS.ProcessEnv },
) =>
  measured([FLOOR, file, String(concurrency), ...(target ? [target.origin] : [])], {
    cwd: ROOT,
    env: { ...process.env, ...target?.env, ...(target ? { FLOOR_API_KEY: target.apiKey } : {}) },
  });
