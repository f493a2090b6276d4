// Where the suite's own files are (package.json, schemas/, suite-score.json): the package root, two
// levels above this file. Every module finds them from here, so the command line bundled into one
// file for a clone (scripts/bundle.mjs, two levels down as well) finds them the same way.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const packageRoot = new URL('../../', import.meta.url);
export const packageRootPath = fileURLToPath(packageRoot);

/** A JSON file of the package, by its path from the package root. */
export const readPackageJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(path, packageRoot), 'utf8')) as Record<string, unknown>;
