// The installed package, not only a clone: npm pack (its JavaScript built by prepack), install the
// tarball into an empty project (dependencies from the npm cache), run the bin there, and import
// the programmatic API from TypeScript. And a clone needs nothing but Node: CI runs the README's
// test command and installs nothing else.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import { CHILD_TIMEOUT, cleanEnv, root, tempDir } from '../net-kit.js';

const exec = promisify(execFile);
const npm = (args: string[], cwd: string) => exec('npm', args, { cwd, env: cleanEnv(), maxBuffer: 16 << 20 });
/** Runs npx and never fetches anything: the bin must be found where we are. */
const npx = (args: string[], cwd: string) =>
  exec('npx', ['--no-install', 'petstore-conformance', ...args], { cwd, env: cleanEnv(), maxBuffer: 16 << 20 }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
  );

/**
 * One `npm pack` for the tests below: its listing is what the tarball holds. Packed from a copy:
 * prepack writes JavaScript beside the TypeScript, which the other self-tests, running meanwhile,
 * must not meet in the clone.
 */
let packed: Promise<{ tarball: string; files: string[] }> | undefined;
const pack = () =>
  (packed ??= (async () => {
    const packDir = tempDir('pack');
    const copy = tempDir('pack-source');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    for (const entry of [...pkg.files, 'package.json', 'README.md', 'tsconfig.build.json', 'scripts/build.mjs'])
      if (existsSync(join(root, entry))) cpSync(join(root, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const { stdout } = await npm(['pack', '--json', '--pack-destination', packDir], copy);
    const [info] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
    return { tarball: join(packDir, info.filename), files: info.files.map((f) => f.path) };
  })());

describe('the package', CHILD_TIMEOUT, () => {
  test("packs what the bin needs and nothing of the project's own", async () => {
    const { files } = await pack();
    for (const needed of [
      'bin/petstore-conformance.js',
      'src/commands/cli.ts',
      'src/commands/cli.js',
      'src/run/api.js',
      'src/run/api.d.ts',
      'src/run/expect.js',
      'src/run/expect.d.ts',
      'src/reference-server/handler.js',
      'src/reference-server/handler.d.ts',
      'suite-score.json',
      'src/vitest/global-setup.ts',
      'tests/catalogue.ts',
      'tests/conformance.test.ts',
      'schemas/openapi.json',
      'vitest.config.ts',
      'package.json',
      'README.md',
      '.env.example',
    ]) {
      expect(files).toContain(needed);
    }
    expect(files.filter((f) => /^(self-tests|\.ci|reports|node_modules|scripts)\//.test(f))).toEqual([]);
  });

  test('installed from its tarball, npx petstore-conformance runs the suite', async () => {
    const { tarball } = await pack();
    const project = tempDir('consumer');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);

    const version = await npx(['--version'], project);
    expect(version.code, version.out).toBe(EXIT.conformant);
    expect(version.out).toMatch(/^petstore-conformance \d+\.\d+\.\d+ \(Pet Store Service Interface 1\.0\.0/);

    const run = await npx(['--only', 'service,listPets.ok'], project);
    expect(run.out).toContain('testing the bundled reference server');
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(existsSync(join(project, 'reports', 'conformance.json'))).toBe(true);

    // The API from TypeScript: its types check, and the built JavaScript runs (no tsx).
    mkdirSync(join(project, 'src'));
    writeFileSync(
      join(project, 'src', 'index.ts'),
      [
        "import { createServer } from 'node:http';",
        "import { runConformance, type Results } from 'petstore-conformance';",
        "const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('[]'));",
        "const results: Results = await runConformance({ target: server, apiKey: 'k', only: ['service'], seed: 1 });",
        "const verdict: 'conformant' | 'nonconformant' | 'inconclusive' | 'not-tested' = results.verdict;",
        'console.log(JSON.stringify({ verdict, ids: results.requirements.map((r) => r.id) }));',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          outDir: 'out',
          typeRoots: [join(root, 'node_modules/@types')],
          types: ['node'],
        },
        include: ['src'],
      }),
    );
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await exec(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project });
    const { stdout } = await exec(process.execPath, [join(project, 'out', 'index.js')], {
      cwd: project,
      env: cleanEnv(),
    });
    expect(JSON.parse(stdout)).toEqual({ verdict: 'nonconformant', ids: ['service.json-content-type'] });
  });

  test("from a clone, npx petstore-conformance is the project's own bin", async () => {
    const run = await npx(['--version'], root);
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(run.out).toContain('petstore-conformance');
  });
});

/** A dependency at the version the project's lockfile pins: what the examples were tried with. */
const pinned = (name: string) => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string }>;
  };
  return `${name}@${lock.packages[`node_modules/${name}`]?.version}`;
};

describe('the in-process examples, copied into a project of their own', CHILD_TIMEOUT, () => {
  /** A project outside the repository holding the examples, the package from its tarball, their frameworks and tsx. */
  let project: Promise<string> | undefined;
  const examples = () =>
    (project ??= (async () => {
      const { tarball } = await pack();
      const dir = tempDir('examples');
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'examples', private: true, type: 'module' }));
      for (const file of readdirSync(join(root, 'examples', 'in-process')))
        cpSync(join(root, 'examples', 'in-process', file), join(dir, file));
      const deps = [tarball, ...['express', 'hono', 'tsx'].map(pinned)];
      await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', ...deps], dir);
      return dir;
    })());

  test.each(['express', 'hono'])('%s.test.ts passes under node --test', async (name) => {
    const dir = await examples();
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', '--test', `${name}.test.ts`], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(stdout).toMatch(/^# pass 1$/m);
    expect(stdout).toMatch(/^# fail 0$/m);
  });

  test('a vitest test with expectConformant against a faulty app fails with the findings as the terminal shows them', async () => {
    const dir = await examples();
    writeFileSync(
      join(dir, 'faulty.test.ts'),
      [
        "import { runConformance } from 'petstore-conformance';",
        "import { expectConformant } from 'petstore-conformance/expect';",
        '// Answers every request with an empty list, as text/plain: not the JSON the interface says.',
        "const fetch = () => new Response('[]', { headers: { 'content-type': 'text/plain' } });",
        "test('the faulty app conforms', async () => {",
        "  expectConformant(await runConformance({ target: { fetch }, apiKey: 'k', only: ['service'], seed: 1 }));",
        '});',
      ].join('\n'),
    );
    // vitest as the project's own would run it (test as a global: nothing to resolve from the copy).
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const run = await exec(process.execPath, [vitest, 'run', '--globals', 'faulty.test.ts'], {
      cwd: dir,
      env: cleanEnv(),
    }).then(
      () => ({ code: 0, out: '' }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain('AssertionError:');
    expect(run.out).toMatch(/^ verdict +NOT CONFORMANT: 1 MUST requirement violated: service\.json-content-type$/m);
    expect(run.out).toMatch(/^ ✘ service\.json-content-type \S/m);
    expect(run.out).toMatch(/^ {6}Reproduce with: curl .*\/v1\/pets/m);
  });
});

describe('a clone needs nothing but Node', () => {
  test(".ci/run is the README's test command and nothing more; the browser comes from the lockfile", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('```sh\nnpm ci && npm test\n```');
    const steps = readFileSync(join(root, '.ci/run'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(
        (l) => l && !l.startsWith('#') && l !== 'set -euo pipefail' && !/^cd "\$\(dirname "\$0"\)\/\.\."$/.test(l),
      );
    // npm's quieter flags are allowed; any other step (apt-get, a download) is not.
    expect(steps.map((l) => l.replace(/ --no-(audit|fund)\b/g, ''))).toEqual(['npm ci && npm test']);
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
    };
    expect(lock.packages['node_modules/@sparticuz/chromium'], 'the browser package in the lockfile').toMatchObject({
      dev: true,
    });
    // The binary is inside the package: nothing is fetched at install or at run time.
    expect(lock.packages['node_modules/@sparticuz/chromium']?.hasInstallScript).toBeUndefined();
    expect(existsSync(join(root, 'node_modules/@sparticuz/chromium/bin/chromium.br'))).toBe(true);
  });
});
