// ARCHITECTURE.md stays true: every path it names exists, and the fault and variant its one-line
// command names are in the harness.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
