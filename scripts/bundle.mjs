// A clone's command line as one JavaScript file: esbuild bundles src/commands/cli.ts (packages stay
// imports) into .build/cli/cli.mjs, which starts in about half the processor time tsx takes to
// compile and load the modules one by one (0.6 times as much for a one-requirement run,
// measured). Two levels down, like every module that finds the package's files (see
// src/config/package-root.ts). The bin uses it while it is newer than every file it was built from,
// rebuilding it when one changed; `node scripts/bundle.mjs` builds it (npm test's global setup does).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, '.build', 'cli');
export const bundleFile = join(dir, 'cli.mjs');
const inputsFile = join(dir, 'inputs.json');

/** True when the bundle exists and no file it was built from changed since. */
function fresh() {
  if (!existsSync(bundleFile) || !existsSync(inputsFile)) return false;
  const built = statSync(bundleFile).mtimeMs;
  try {
    return JSON.parse(readFileSync(inputsFile, 'utf8')).every((f) => statSync(join(root, f)).mtimeMs <= built);
  } catch {
    return false; // an input was removed
  }
}

/** Builds the bundle (written under another name, then renamed: processes starting at once never read half a file). */
export async function build() {
  const { build: esbuild } = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const tmp = `${bundleFile}.${process.pid}.tmp`;
  const { metafile } = await esbuild({
    absWorkingDir: root,
    entryPoints: ['src/commands/cli.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    sourcemap: 'linked',
    outfile: tmp,
    logLevel: 'error',
  });
  writeFileSync(`${inputsFile}.${process.pid}.tmp`, JSON.stringify(Object.keys(metafile.inputs)));
  renameSync(`${tmp}.map`, `${bundleFile}.map`);
  renameSync(tmp, bundleFile);
  renameSync(`${inputsFile}.${process.pid}.tmp`, inputsFile);
}

/** The bundle's URL, built first when missing or stale; undefined when it cannot be built (tsx runs the sources). */
export async function bundledCli() {
  try {
    if (!fresh()) await build();
    return pathToFileURL(bundleFile).href;
  } catch {
    return undefined;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
