// Unicode text for properties: names over every code point, plain text, names a server may refuse.
import fc from 'fast-check';

/** One code point of plain text: letters, marks, numbers, punctuation, symbols. */
const PLAIN_CHAR = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
/**
 * Text every server must store: plain characters and spaces, and the invisible format characters
 * ordinary text relies on (zero-width joiners in emoji, direction marks in right-to-left text,
 * emoji tag characters in flags).
 */
const ORDINARY_TEXT = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\u061C\u200C-\u200F\u{E0020}-\u{E007F}]*$/u;

/** Blocks of ordinary text in many scripts, right-to-left, combining marks, emoji and astral CJK. */
const PLAIN_BLOCKS: readonly (readonly [number, number])[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x61, 0x7a],
  [0xc0, 0x24f],
  [0x300, 0x36f],
  [0x391, 0x3c9],
  [0x410, 0x44f],
  [0x5d0, 0x5ea],
  [0x621, 0x64a],
  [0x905, 0x939],
  [0x3041, 0x3096],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0x1d400, 0x1d7ff],
  [0x1f300, 0x1f64f],
  [0x20000, 0x2a6df],
];

export const fromCodePoint = (cp: number) => String.fromCodePoint(cp);
const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

/** A code point of plain text in one of PLAIN_BLOCKS. */
function plainChar(): fc.Arbitrary<string> {
  return fc
    .oneof(...PLAIN_BLOCKS.map(([min, max]) => fc.integer({ min, max })))
    .map(fromCodePoint)
    .filter((c) => PLAIN_CHAR.test(c));
}

/** Any code point but a surrogate: printable ASCII, the BMP (controls included), the astral planes, plain text. */
export function anyChar(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map(fromCodePoint) },
    {
      weight: 2,
      arbitrary: fc
        .integer({ min: 0, max: 0xffff })
        .filter((cp) => !isSurrogate(cp))
        .map(fromCodePoint),
    },
    { weight: 3, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map(fromCodePoint) },
    { weight: 2, arbitrary: plainChar() },
  );
}

/** Default name lengths in code points (not in the schema: the interface leaves them open). */
export const NAME_LENGTH = Object.freeze({ min: 1, max: 200 });

/** Text of `min..max` code points over the whole Unicode range; mostly short, sometimes up to `max`. */
export function unicodeText({ min = NAME_LENGTH.min, max = NAME_LENGTH.max } = {}): fc.Arbitrary<string> {
  const unit = anyChar();
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit, minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit, minLength: min, maxLength: max, size: 'max' }) },
  );
}

/** Plain text (no controls, no white space at either end) of `min..max` code points, in many scripts. */
export function plainText({ min = 1, max = 12 } = {}): fc.Arbitrary<string> {
  return fc.string({ unit: plainChar(), minLength: min, maxLength: max });
}

/**
 * Names every reasonable server stores: at most this many code points of ordinary text. Beyond
 * it (or with controls, unassigned or private-use code points, bidi overrides, white space at
 * the ends) the interface lets a server refuse a name with 400 ("length or character limits of
 * name: not shown").
 */
export const NAME_SURELY_ACCEPTED = 64;

/** Why a server may refuse this name, or undefined when the name must be accepted. */
export function nameGap(name: string): string | undefined {
  const chars = [...name];
  if (chars.length === 0) return 'it is empty';
  if (chars.length > NAME_SURELY_ACCEPTED) return `it is ${chars.length} code points long`;
  if (name.trim() !== name) return 'it starts or ends with white space';
  const odd = chars.find((c) => !ORDINARY_TEXT.test(c));
  if (odd !== undefined)
    return `it holds ${codePoints(odd)} (a control, unassigned, private-use, separator or unusual format code point)`;
  return undefined;
}

/** Code points of a string, as `U+XXXX` (for failure messages about text). */
export function codePoints(text: string): string {
  return [...text].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}
