// ARCHITECTURE.md stays true: every path it names exists, the fault and variant its one-line
// command names are in the harness, src/ has no import circle and no file a reader cannot hold.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { expect, test } from 'vitest';
import { faults } from '../harness/faults/index.js';
import { variants } from '../harness/variants.js';
import { root } from '../net-kit.js';

const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

test('every path ARCHITECTURE.md names exists', () => {
  const paths = [...doc.matchAll(/`((?:src|tests|self-tests|schemas|scripts|bin|examples)\/[^`\s]*)`/g)].map(
    (m) => m[1] as string,
  );
  expect(paths.length).toBeGreaterThan(20);
  expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
});

test('the fault and the variant its command names exist', () => {
  const fault = /npm run fault -- (\S+)\n/.exec(doc)?.[1];
  const variant = /`npm run fault -- (\S+)` runs the whole catalogue/.exec(doc)?.[1];
  expect(faults.map((f) => f.name)).toContain(fault);
  expect(variants.map((v) => v.name)).toContain(variant);
});

/** Every .ts file under src/ (or another folder), as an absolute path. */
const sourceFiles = (dir = 'src') =>
  (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, dir, f));

/** Imports (type-only and dynamic ones too) of every .ts file under src/ (and `more`), as paths relative to the root. */
function importGraph(more: string[] = []): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sourceFiles(), ...more.flatMap((dir) => sourceFiles(dir))]) {
    const deps = [
      ...readFileSync(file, 'utf8').matchAll(/(?:import|export)[^;]*?from '(\.[^']+)'|import\('(\.[^']+)'\)/g),
    ].map((m) => relative(root, join(dirname(file), (m[1] ?? (m[2] as string)).replace(/\.js$/, '.ts'))));
    graph.set(relative(root, file), deps);
  }
  return graph;
}

test('src/ has no import circle', () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(30);
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const dep of graph.get(file) ?? []) visit(dep, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  expect(circles).toEqual([]);
});

/**
 * The layers bottom up, as ARCHITECTURE.md names them: a file imports only from its own layer or
 * below. The generated types (derived from schemas/ and the id registry) are of no layer: any
 * file may import them, and they import what they name.
 */
const LAYERS = [
  'src/config',
  'src/wire',
  'src/data',
  'src/checks',
  'tests',
  'src/report',
  'src/reference-server',
  'src/run',
  'src/vitest',
  'src/commands',
];
/** tests/conformance.test.ts is vitest's entry to the catalogue: the vitest layer's. */
const layerOf = (file: string) =>
  file === 'tests/conformance.test.ts'
    ? LAYERS.indexOf('src/vitest')
    : LAYERS.findIndex((l) => file === l || file.startsWith(`${l}/`));
const generated = (file: string) => file.startsWith('src/data/generated/');

test('no import goes upward: each file imports only from its own layer or below', () => {
  const upward: string[] = [];
  for (const [file, deps] of importGraph(['tests']))
    for (const dep of deps)
      if (!generated(file) && !generated(dep) && layerOf(dep) > layerOf(file)) upward.push(`${file} -> ${dep}`);
  expect(sourceFiles().filter((f) => layerOf(relative(root, f)) === -1)).toEqual([]);
  expect(upward).toEqual([]);
});

test('ARCHITECTURE.md names each layer folder once, in the order the test enforces', () => {
  const named = LAYERS.map((l) => doc.indexOf(`| \`${l}/\``));
  expect(named.every((i) => i >= 0)).toBe(true);
  expect([...named].sort((a, b) => a - b)).toEqual(named);
});

const MAX_LINES = 350;

test(`no file under src/ (src/data/generated/ aside) or tests/ is over ${MAX_LINES} lines`, () => {
  const over = [...sourceFiles(), ...sourceFiles('tests')]
    .map((file) => ({
      file: relative(root, file).split(sep).join('/'),
      lines: readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length,
    }))
    .filter(({ file, lines }) => !file.startsWith('src/data/generated/') && lines > MAX_LINES);
  expect(over.map(({ file, lines }) => `${file}: ${lines} lines`)).toEqual([]);
});

test('no requirement id is written in src/ outside generated files: rules live beside their requirements', () => {
  const registry = readFileSync(join(root, 'src/data/generated/requirement-ids.ts'), 'utf8');
  const ids = new Set([...registry.matchAll(/^ {2}\| '([^']+)'/gm)].map((m) => m[1] as string));
  expect(ids.size).toBeGreaterThan(50);
  const named = sourceFiles()
    .map((file) => relative(root, file).split(sep).join('/'))
    .filter((file) => !file.startsWith('src/data/generated/'))
    .flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/['"`]([a-zA-Z]+\.[a-z][\w.-]*)['"`]/g)]
        .filter((m) => ids.has(m[1] as string))
        .map((m) => `${file}: ${m[1]}`),
    );
  expect(named).toEqual([]);
});

const MAX_WIDTH = 160;
// Prettier wraps code but not a string's or a template literal's text: a long one is built from
// pieces, or its line continued (a backslash before the newline).
const CODE = ['src', 'tests', 'scripts', 'self-tests', 'bin', 'examples'];

test(`no line of code is over ${MAX_WIDTH} characters, template literals included`, () => {
  const wide = CODE.flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true }) as string[])
      .filter(
        (f) => /\.(ts|js|mjs)$/.test(f) && !f.includes('node_modules') && !f.startsWith(join('data', 'generated')),
      )
      .flatMap((f) =>
        readFileSync(join(root, dir, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (line.length > MAX_WIDTH ? [`${dir}/${f}:${i + 1}: ${line.length}`] : [])),
      ),
  );
  expect(wide).toEqual([]);
});
