// badge.svg in the bundled headless Chromium (browser.ts): one badge per level, opened from disk as
// a file and as an <img>; it loads nothing, each text sits inside its half, and each half is the
// colour of its level. Screenshots are left in the folder for a look.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { badgeOf, renderBadgeSvg } from '../../src/report/badge.js';
import type { Results } from '../../src/report/results.js';
import { catalogue } from '../../tests/catalogue.js';
import { launchBundledChromium, pageProblems } from './browser.js';
import { tempDir } from '../net-kit.js';
import { catalogueResults } from '../harness/results-of.js';

const dir = tempDir('badge');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const firstOf = (level: 'MUST' | 'SHOULD') => catalogue.find((r) => r.level === level)?.id as string;

const RUNS: Results[] = [
  catalogueResults(),
  catalogueResults({ [firstOf('SHOULD')]: 'failed' }),
  catalogueResults({ [firstOf('MUST')]: 'failed' }),
  catalogueResults({ [firstOf('MUST')]: 'error' }),
  catalogueResults({}, { diagnosis: 'connection refused' }),
];

test('badge.svg renders offline in Chromium: its texts inside their halves, the message on its level colour', async () => {
  mkdirSync(dir, { recursive: true });
  expect(new Set(RUNS.map((r) => r.level)).size).toBe(RUNS.length);
  const bundled = await launchBundledChromium();
  try {
    const page = await bundled.browser.newPage({ viewport: { width: 600, height: 120 } });
    page.setDefaultTimeout(10_000);
    const problems = pageProblems(page);
    for (const r of RUNS) {
      const file = join(dir, `badge-${r.level}.svg`);
      writeFileSync(file, renderBadgeSvg(r));
      await page.goto(`file://${file}`);
      const seen = await page.evaluate(() => {
        const svg = document.documentElement as unknown as SVGSVGElement;
        const rects = [...svg.querySelectorAll('g[clip-path] rect')].slice(0, 2) as SVGRectElement[];
        const boxes = [...svg.querySelectorAll('text')].map((t) => {
          const b = (t as SVGTextElement).getBBox();
          return { left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height, text: t.textContent };
        });
        const halves = rects.map((r) => ({
          left: r.x.baseVal.value,
          right: r.x.baseVal.value + r.width.baseVal.value,
        }));
        return {
          tag: svg.tagName,
          width: svg.width.baseVal.value,
          halves,
          boxes,
          fill: rects[1]?.getAttribute('fill'),
        };
      });
      const { label, message, color } = badgeOf(r);
      expect(seen.tag).toBe('svg');
      expect(seen.boxes.map((b) => b.text)).toEqual([label, message]);
      seen.boxes.forEach((b, i) => {
        const half = seen.halves[i] as { left: number; right: number };
        expect(b.left, `${b.text} starts inside its half`).toBeGreaterThanOrEqual(half.left + 1);
        expect(b.right, `${b.text} ends inside its half`).toBeLessThanOrEqual(half.right - 1);
        expect(b.top).toBeGreaterThanOrEqual(0);
        expect(b.bottom).toBeLessThanOrEqual(20);
      });
      expect(seen.fill).toBe(color.hex);
      await page.screenshot({
        path: join(dir, `badge-${r.level}.png`),
        clip: { x: 0, y: 0, width: seen.width, height: 20 },
      });

      // As an image in a page (a README, the reports): it loads at its own size.
      writeFileSync(`${file}.html`, `<!doctype html><img src="badge-${r.level}.svg">`);
      await page.goto(`file://${file}.html`);
      await expect
        .poll(() => page.locator('img').evaluate((i) => (i as HTMLImageElement).naturalWidth))
        .toBe(seen.width);
    }
    expect(problems).toEqual([]);
  } finally {
    await bundled.close();
  }
}, 600_000);
