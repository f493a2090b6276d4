// npm pack's build: `node scripts/build.mjs` writes the package's JavaScript and type
// declarations beside the TypeScript (tsconfig.build.json), so an installed package starts without
// compiling anything; `node scripts/build.mjs clean` (postpack) removes exactly those files again,
// so a clone keeps running its TypeScript through tsx.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = (dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(js|d\.ts)$/.test(f) && existsSync(join(root, dir, f.replace(/\.(js|d\.ts)$/, '.ts'))))
    .map((f) => join(root, dir, f));

if (process.argv[2] === 'clean') {
  for (const file of ['src', 'tests'].flatMap(built)) rmSync(file);
} else {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}
