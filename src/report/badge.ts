// A run's badge, written beside its reports: badge.svg (self-contained, shields.io's flat look) and
// badge.json (a shields.io endpoint: https://shields.io/badges/endpoint-badge). Both say the same
// three things, all read from the results tree: the level, the requirement set, the run's date.
import { h } from './page.js';
import type { ConformanceLevel, Results } from './results.js';
import { LEVEL_TITLE, reportLevel } from './verdict.js';

/** Each level's colour: shields.io's name for badge.json, its hex for badge.svg. */
const COLOR: Readonly<Record<ConformanceLevel, { name: string; hex: string }>> = {
  'fully-conformant': { name: 'brightgreen', hex: '#4c1' },
  conformant: { name: 'green', hex: '#97ca00' },
  nonconformant: { name: 'red', hex: '#e05d44' },
  inconclusive: { name: 'orange', hex: '#fe7d37' },
  'not-tested': { name: 'lightgrey', hex: '#9f9f9f' },
};

export interface Badge {
  label: string;
  message: string;
  color: { name: string; hex: string };
}

/** What the badge says: "Pet Store 1.0.0+2026.11.26" | "fully conformant · 2026-11-24". */
export function badgeOf(results: Results): Badge {
  const level = reportLevel(results);
  const set = results.run.requirementSet?.id ?? results.interface.version;
  const date = results.run.finishedAt.slice(0, 10);
  return { label: `Pet Store ${set}`, message: `${LEVEL_TITLE[level].toLowerCase()} · ${date}`, color: COLOR[level] };
}

/** badge.json: what shields.io's endpoint badge reads (https://img.shields.io/endpoint?url=…). */
export function renderBadgeJson(results: Results): string {
  const { label, message, color } = badgeOf(results);
  return `${JSON.stringify({ schemaVersion: 1, label, message, color: color.name }, null, 2)}\n`;
}

/**
 * Roughly how wide a text is in 11 px Verdana, to size its box; the text is then fitted to exactly
 * that width (textLength), so whatever font the viewer has, it never spills out of its half.
 */
function textWidth(text: string): number {
  const px = (c: string) =>
    /[ .,:;|!'()ijlft·]/.test(c) ? 4 : /[mwMW]/.test(c) ? 10.5 : /[A-Z0-9+#]/.test(c) ? 7.5 : 6.6;
  return Math.round([...text].reduce((w, c) => w + px(c), 0));
}

/** badge.svg: two halves, label and message, each its text's width plus 10 px on either side. */
export function renderBadgeSvg(results: Results): string {
  const { label, message, color } = badgeOf(results);
  const [lt, mt] = [textWidth(label), textWidth(message)];
  const [lw, mw] = [lt + 20, mt + 20];
  const w = lw + mw;
  const said = h(`${label}: ${message}`);
  const text = (x: number, length: number, content: string) =>
    `<text x="${x}" y="14" textLength="${length}" lengthAdjust="spacingAndGlyphs">${h(content)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${said}">`,
    `<title>${said}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${color.hex}"/>` +
      `<rect width="${w}" height="20" fill="url(#s)"/></g>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">',
    `${text(lw / 2, lt, label)}${text(lw + mw / 2, mt, message)}</g>`,
    '</svg>',
    '',
  ].join('\n');
}

/** The badge as an image in a self-contained page (the pages' CSP allows data: images only). */
export function badgeImg(results: Results): string {
  const { label, message } = badgeOf(results);
  const uri = `data:image/svg+xml;base64,${Buffer.from(renderBadgeSvg(results)).toString('base64')}`;
  return `<img class="badge-img" alt="${h(`${label}: ${message}`)}" src="${uri}">`;
}
