// ARCHITECTURE.md stays true: every path it names exists, the fault and variant its one-line
// command names are in the harness, src/ has no import circle and no file a reader cannot hold.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { expect, test } from 'vitest';
import { faults } from './harness/faults/index.js';
import { variants } from './harness/variants.js';
import { root } from './net-kit.js';

const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

test('every path ARCHITECTURE.md names exists', () => {
  const paths = [...doc.matchAll(/`((?:src|tests|self-tests|schemas|scripts|bin|examples)\/[^`\s]*)`/g)].map((m) => m[1] as string);
  expect(paths.length).toBeGreaterThan(20);
  expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
});

test('the fault and the variant its command names exist', () => {
  const fault = /"fault":"([^"]+)"/.exec(doc)?.[1];
  const variant = /"variant":"([^"]+)"/.exec(doc)?.[1];
  expect(faults.map((f) => f.name)).toContain(fault);
  expect(variants.map((v) => v.name)).toContain(variant);
});

/** Every .ts file under src/, as an absolute path. */
const sourceFiles = () => (readdirSync(join(root, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(root, 'src', f));

/** Imports (type-only ones too) of every .ts file under src/, as paths relative to the root. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const deps = [...readFileSync(file, 'utf8').matchAll(/(?:import|export)[^;]*?from '(\.[^']+)'/g)].map((m) =>
      relative(root, join(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))),
    );
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

const MAX_LINES = 350;

test(`no file under src/ (src/generated/ aside) is over ${MAX_LINES} lines`, () => {
  const over = sourceFiles()
    .map((file) => ({ file: relative(root, file).split(sep).join('/'), lines: readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length }))
    .filter(({ file, lines }) => !file.startsWith('src/generated/') && lines > MAX_LINES);
  expect(over.map(({ file, lines }) => `${file}: ${lines} lines`)).toEqual([]);
});
